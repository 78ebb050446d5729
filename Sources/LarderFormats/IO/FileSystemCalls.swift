import Foundation
import LarderSystem
import Synchronization

/// The low-level calls Larder's file writes go through (``FileByteSink``, image files, the upload
/// journal), and where an ``IOFaultPlan`` makes them fail.
///
/// A plan comes from `LARDER_FAULT_IO` (read once, for the CLI tests) or from
/// ``withFaults(_:_:)`` (in-process tests; it holds for the task, its child tasks and
/// the synchronous code they run, so tests running in parallel do not see each other's faults).
/// With neither, each call costs one atomic load and one comparison before the system call.
package enum FileSystemCalls {
    /// A plan in force, with its per-rule call counts.
    package final class Scope: Sendable {
        let plan: IOFaultPlan
        private let counts: Mutex<[Int]>

        init(_ plan: IOFaultPlan) {
            self.plan = plan
            counts = Mutex(Array(repeating: 0, count: plan.rules.count))
        }

        /// Counts a call and returns what the plan does to it (nil: nothing).
        package func failure(for call: IOFaultPlan.Call, path: String) -> IOFaultPlan.Failure? {
            counts.withLock { counts in
                var decided: IOFaultPlan.Failure?
                for (index, rule) in plan.rules.enumerated() where rule.matches(call, path: path) {
                    counts[index] += 1
                    let fires = rule.isPersistent ? counts[index] >= rule.at : counts[index] == rule.at
                    guard fires else { continue }
                    if case .error = decided { continue }
                    decided = rule.failure
                }
                return decided
            }
        }

        /// The errno a planned failure of a commit to the store `path` carries (counting the
        /// commit), or nil: for the store's commit hook, which captured ``currentScope``.
        package func commitError(path: String) -> Int32? {
            guard case .error(let code)? = failure(for: .commit, path: path), code != EINTR else { return nil }
            return code
        }
    }

    private static let environment: Scope? = {
        guard let text = ProcessInfo.processInfo.environment["LARDER_FAULT_IO"], !text.isEmpty else { return nil }
        do {
            return Scope(try IOFaultPlan(parsing: text))
        } catch {
            FileHandle.standardError.write(Data("larder: \(error); the variable is ignored\n".utf8))
            return nil
        }
    }()

    @TaskLocal private static var scoped: Scope?
    /// How many ``withFaults(_:_:)`` scopes are open, so that without any the task-local is never read.
    private static let openScopes = Atomic<Int>(0)

    /// Runs `body` with `plan` in force for the current task (and its child tasks).
    package static func withFaults<T>(_ plan: IOFaultPlan, _ body: () throws -> T) rethrows -> T {
        openScopes.add(1, ordering: .sequentiallyConsistent)
        defer { openScopes.subtract(1, ordering: .sequentiallyConsistent) }
        return try $scoped.withValue(Scope(plan), operation: body)
    }

    /// Runs `body` with `plan` in force for the current task (and its child tasks).
    package static func withFaults<T>(
        _ plan: IOFaultPlan, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        openScopes.add(1, ordering: .sequentiallyConsistent)
        defer { openScopes.subtract(1, ordering: .sequentiallyConsistent) }
        return try await $scoped.withValue(Scope(plan), operation: body, isolation: isolation)
    }

    /// The plan in force here (the environment's first), or nil: what a hook outside this file
    /// (the store's commit) captures when it is installed.
    package static var currentScope: Scope? {
        if let environment { return environment }
        guard openScopes.load(ordering: .relaxed) > 0 else { return nil }
        return scoped
    }

    private static func failure(for call: IOFaultPlan.Call, path: String) -> IOFaultPlan.Failure? {
        if let environment, let failure = environment.failure(for: call, path: path) { return failure }
        guard openScopes.load(ordering: .relaxed) > 0, let scoped else { return nil }
        return scoped.failure(for: call, path: path)
    }

    // MARK: The calls

    /// `write(2)` of `bytes` to `fd`, for the file `path`: the count written (a short write may
    /// move fewer), or -1 with `errno` set.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        var count = bytes.count
        switch failure(for: .write, path: path) {
        case .error(let code)?:
            errno = code
            return -1
        case .short?:
            count = max(1, count / 2)
        case nil:
            break
        }
        return LibC.write(fd, base, count)
    }

    /// Writes all of `bytes` to `fd` (the file `path`), going on after short writes and `EINTR`.
    /// - Returns: 0, or the errno of the failure (`EIO` when a write moves nothing).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]), path: path)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return 0
    }

    /// `fsync(2)` of `fd`, for the file `path`: 0, or -1 with `errno` set.
    package static func fsync(_ fd: Int32, path: String) -> Int32 {
        while true {
            switch failure(for: .fsync, path: path) {
            case .error(let code)?:
                errno = code
            default:
                if LibC.fsync(fd) == 0 { return 0 }
            }
            if errno != EINTR { return -1 }
        }
    }

    /// `rename(2)` of `source` over `destination` (the file `destination` unless `path` says
    /// otherwise): 0, or -1 with `errno` set.
    package static func rename(_ source: String, _ destination: String, path: String? = nil) -> Int32 {
        while true {
            switch failure(for: .rename, path: path ?? destination) {
            case .error(let code)?:
                errno = code
            default:
                if LibC.rename(source, destination) == 0 { return 0 }
            }
            if errno != EINTR { return -1 }
        }
    }
}
