import Foundation
import LarderTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT / SIGTERM / SIGKILL in the middle of a run: no `.tmp-*` file is left next to the output.
///
/// `larder convert -` reads records from a pipe the test holds open, so the run is certainly
/// still going (its temporary output exists, the input is not finished) when the signal comes.
@Suite struct InterruptionTests {
    static let record =
        #"{"id":"r-1","title":"Soup","ingredients":[],"instructions":[],"createdAt":"2024-01-01T00:00:00Z"}"#

    /// The names in `directory` that look like a temporary output.
    static func leftovers(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".tmp-") }
    }

    /// Starts `larder convert - --from ndjson --to json -o OUT` with its standard input a pipe,
    /// writes 100 records (more than the 4 KiB the format sniffing peeks at), and waits (bounded) until the temporary output exists.
    static func startConvert(
        output: String, in directory: TemporaryDirectory, stderr: FileHandle = .nullDevice
    ) throws -> (Process, Pipe) {
        let process = Process()
        // As from a shell: Process starts children from a dispatch thread, whose mask blocks
        // SIGINT and SIGTERM; env resets them to default and unblocks them.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "--default-signal=INT,TERM", CLI.executable.path, "convert", "-", "--from", "ndjson", "--to", "json", "-o",
            output,
        ]
        process.currentDirectoryURL = directory.url
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        var lines = ""
        for index in 0..<100 { lines += record.replacingOccurrences(of: "r-1", with: "r-\(index)") + "\n" }
        input.fileHandleForWriting.write(Data(lines.utf8))
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, try leftovers(directory).isEmpty, Date() < deadline { sched_yield() }
        return (process, input)
    }

    /// Waits (bounded) for `process` to end; kills it when it does not, so a broken run fails the
    /// test instead of hanging it.
    ///
    /// Returns whether it ended by itself.
    static func waitForExit(_ process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { sched_yield() }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    @Test("SIGTERM and SIGINT during convert remove the temporary output and exit 128+signal")
    func signalsRemoveTemporaryOutput() async throws {
        try await offCooperativePool { try Self().signalsRemoveTemporaryOutputBlocking() }
    }

    func signalsRemoveTemporaryOutputBlocking() throws {
        guard FileManager.default.isExecutableFile(atPath: CLI.executable.path) else {
            Issue.record("build larder first: swift build --product larder")
            return
        }
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            let directory = try TemporaryDirectory()
            let (process, input) = try Self.startConvert(output: "out.json", in: directory)
            let underWay = try !Self.leftovers(directory).isEmpty && process.isRunning
            #expect(underWay, "the run is under way with its temporary output")
            let signalState =
                (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            kill(process.processIdentifier, signal)
            #expect(
                Self.waitForExit(process),
                "signal \(signal): the run must end; \(signalState.split(separator: "\n").filter { $0.hasPrefix("Sig") })"
            )
            try? input.fileHandleForWriting.close()
            #expect(process.terminationReason == .exit && process.terminationStatus == status, "signal \(signal)")
            #expect(try Self.leftovers(directory).isEmpty, "signal \(signal): no temporary output left")
            #expect(!FileManager.default.fileExists(atPath: directory.path("out.json")), "no partial output")
        }
    }

    @Test("after a kill -9 during convert, the next run writing the same output removes the stale temporary file")
    func nextRunRemovesStaleTemporaryOutput() async throws {
        try await offCooperativePool { try Self().nextRunRemovesStaleTemporaryOutputBlocking() }
    }

    func nextRunRemovesStaleTemporaryOutputBlocking() throws {
        guard FileManager.default.isExecutableFile(atPath: CLI.executable.path) else {
            Issue.record("build larder first: swift build --product larder")
            return
        }
        let directory = try TemporaryDirectory()
        let (process, input) = try Self.startConvert(output: "out.json", in: directory)
        kill(process.processIdentifier, SIGKILL)
        _ = Self.waitForExit(process)
        try? input.fileHandleForWriting.close()
        #expect(try Self.leftovers(directory).count == 1, "SIGKILL leaves the temporary output behind")
        // Another output's temporary file in the same folder is not this run's to remove.
        try directory.write(".other.json.tmp-1-abcdef", "")
        let rerun = try CLI.run(
            ["convert", "-", "--from", "ndjson", "--to", "json", "-o", "out.json"],
            stdin: Data((Self.record + "\n").utf8), in: directory.url)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try Self.leftovers(directory) == [".other.json.tmp-1-abcdef"])
        #expect(FileManager.default.fileExists(atPath: directory.path("out.json")))
    }

    @Test("dedupe --store removes the empty temporary merge log a killed run left next to the store")
    func dedupeStoreRemovesStaleTemporaryLog() async throws {
        try await offCooperativePool { try Self().dedupeStoreRemovesStaleTemporaryLogBlocking() }
    }

    func dedupeStoreRemovesStaleTemporaryLogBlocking() throws {
        guard FileManager.default.isExecutableFile(atPath: CLI.executable.path) else {
            Issue.record("build larder first: swift build --product larder")
            return
        }
        let directory = try TemporaryDirectory()
        let db = directory.path("larder.db")
        #expect(
            try CLI.run([
                "store", "import", CLI.packageRoot.appendingPathComponent("samples/saved.json").path, "--store", db,
            ]).status == 0)
        // What a run killed by SIGKILL during its transaction leaves: the log's temporary file, empty,
        // named after a process that no longer runs.
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let stale = ".larder.db.dedupe-20240101T000000Z.json.tmp-\(exited.processIdentifier)-Ab3dEf"
        try directory.write(stale, "")
        let result = try CLI.run(["dedupe", "--store", db], in: directory.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.leftovers(directory).isEmpty)
    }
}
