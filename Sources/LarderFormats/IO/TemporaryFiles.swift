import LarderSystem
import Synchronization

/// The temporary outputs this process has in flight (``FileByteSink``'s `.NAME.tmp-PID-XXXXXX`
/// files), so that an interrupted run can remove them, and the removal of ones a killed run
/// left behind.
///
/// Thread-safe: the CLI's signal handler calls ``removeAll()`` from its own queue.
package enum TemporaryFiles {
    private static let live = Mutex<Set<String>>([])

    /// Creates a unique file from the `mkstemp` template `template` (NUL-terminated, ending in
    /// `XXXXXX`) and registers it.
    ///
    /// Returns the descriptor (-1 on failure, `errno` set) and the path.
    package static func create(_ template: inout [CChar]) -> (Int32, String?) {
        live.withLock { paths in
            let opened = template.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.map { mkstemp($0) } ?? -1
            }
            guard opened >= 0 else { return (opened, nil) }
            let path = template.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } }
            if let path { paths.insert(path) }
            return (opened, path)
        }
    }

    /// Registers a temporary file created elsewhere.
    package static func register(_ path: String) {
        _ = live.withLock { $0.insert(path) }
    }

    /// Forgets `path` (renamed into place or removed).
    package static func forget(_ path: String) {
        _ = live.withLock { $0.remove(path) }
    }

    /// Removes every registered file (on SIGINT or SIGTERM, before exiting).
    package static func removeAll() {
        live.withLock { paths in
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }

    /// Removes the files in `directory` named `.NAME.tmp-PID-XXXXXX` whose NAME satisfies
    /// `matches` and whose process PID no longer runs: what a run killed by SIGKILL left.
    ///
    /// Only that exact pattern is touched (six `mkstemp` characters, a decimal PID); a file of a
    /// run still going, or of an older larder (no PID), is left alone. O(entries in `directory`).
    package static func removeStale(in directory: String, forOutputsWhere matches: (String) -> Bool) {
        guard let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        let ownPID = getpid()
        while let entry = readdir(handle) {
            // Read the name in place, up to its NUL: `d_name` is declared as 256 bytes, but readdir's
            // record can end sooner, and copying the whole array read past it (ASan, make fuzz).
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
            }
            guard let (output, pid) = parse(name), pid != ownPID, matches(output) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// `.NAME.tmp-PID-XXXXXX` → (NAME, PID).
    static func parse(_ name: String) -> (String, pid_t)? {
        func isAlphanumeric(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber) }
        let random = name.suffix(6)
        var head = name.dropLast(6)
        guard name.hasPrefix("."), random.count == 6, random.allSatisfy(isAlphanumeric), head.hasSuffix("-") else {
            return nil
        }
        head = head.dropLast()
        let digits = head.reversed().prefix { $0.isASCII && $0.isNumber }.count
        guard digits > 0, let pid = pid_t(head.suffix(digits)), pid > 0 else { return nil }
        head = head.dropLast(digits)
        guard head.hasSuffix(".tmp-") else { return nil }
        let output = head.dropFirst().dropLast(5)
        return output.isEmpty ? nil : (String(output), pid)
    }
}
