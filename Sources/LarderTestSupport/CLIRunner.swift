public import Foundation

/// Runs the built `larder` binary and captures what it prints, for CLI tests.
public struct CLIResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything on standard output.
    public var stdout: String
    /// Everything on standard error.
    public var stderr: String
}

/// Finds and runs the built `larder` executable.
public enum CLI {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The `larder` binary: `LARDER_BIN`, else next to the test bundle, else `.build/debug/larder`.
    public static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["LARDER_BIN"] { return URL(fileURLWithPath: path) }
        let bundleDirectory = Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [
            Bundle.main.bundleURL.appendingPathComponent("larder"), bundleDirectory.appendingPathComponent("larder"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("larder"),
        ] where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        return packageRoot.appendingPathComponent(".build/debug/larder")
    }()

    /// Runs `larder` with `arguments` in `directory`, feeding `stdin`.
    public static func run(
        _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return try capture(process, stdin: stdin, timeout: nil)
    }

    /// Runs another program (a browser, a script) and captures what it prints; one that outlives
    /// `timeout` seconds is ended (SIGTERM, then SIGKILL five seconds later).
    public static func runProgram(_ path: String, _ arguments: [String], timeout: TimeInterval) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        return try capture(process, stdin: nil, timeout: timeout)
    }

    /// Starts `process` with its output captured, feeds it `stdin`, and waits for it to end.
    private static func capture(_ process: Process, stdin: Data?, timeout: TimeInterval?) throws -> CLIResult {
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = outPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if let stdin { inPipe.fileHandleForWriting.write(stdin) }
        try? inPipe.fileHandleForWriting.close()
        if let timeout, exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        if timeout == nil {
            group.wait()
        } else {
            // A program's helper processes (a browser's) can hold the pipes open a little after it ends.
            _ = group.wait(timeout: .now() + 10)
        }
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A temporary directory removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    // @unchecked: the URL is immutable after init; deinit only removes the folder.
    /// The directory.
    public let url: URL

    /// Creates a fresh directory under the system temporary folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("larder-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Reads `name` as text.
    public func read(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path(name))), as: UTF8.self)
    }
}

/// Paths to shared test data beside the repository (../shared/corpus), which is never shipped.
public enum Corpus {
    /// `../shared/corpus` next to the package, or `LARDER_CORPUS`.
    public static var root: URL? {
        if let path = ProcessInfo.processInfo.environment["LARDER_CORPUS"] { return URL(fileURLWithPath: path) }
        // Beside the package (a clone next to shared/), or beside a folder of worktrees.
        var directory = CLI.packageRoot.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("shared/corpus")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// Whether `relative` (such as `schemaorg` or `ingredients/sample.csv`) exists in the corpus.
    ///
    /// It is the condition of a corpus test's `.enabled(if:)` trait, so a missing corpus shows as
    /// a skipped test, never as a silent pass.
    public static func has(_ relative: String) -> Bool {
        guard let root else { return false }
        return FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path)
    }

    /// The path of `relative` inside the corpus (tests guarded by ``has(_:)``).
    public static func path(_ relative: String) -> String {
        (root ?? URL(fileURLWithPath: "../shared/corpus")).appendingPathComponent(relative).path
    }
}

/// Runs blocking work (a child process, a long CPU-bound loop) on a dispatch thread and awaits it,
/// so it does not hold one of the few cooperative threads the in-process emulators' handlers need.
public func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
