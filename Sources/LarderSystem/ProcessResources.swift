#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What the process has used so far: CPU time and peak memory.
package enum ProcessResources {
    /// The process's CPU time so far (user + system, all threads), in seconds; 0 when unknown.
    package static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        // Glibc declares `who` as the enum `__rusage_who_t`; the call takes its raw value.
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The process's peak resident memory so far, in bytes; 0 when unknown.
    ///
    /// On Linux, `VmHWM` from `/proc/self/status`; on Darwin, `ru_maxrss` of `getrusage` (in bytes
    /// there; Linux counts it in kilobytes, and reads `VmHWM` as before).
    package static func peakResidentBytes() -> Int {
        #if canImport(Darwin)
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
        #else
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmHWM:") else { continue }
            let kilobytes =
                text.dropFirst("VmHWM:".count).split { $0 == " " || $0 == "\t" }.first.flatMap { Int($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
        #endif
    }
}
