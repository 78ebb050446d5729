#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long one phase of a pass took: wall time, and CPU time of the whole process (user + system,
/// all threads), which stays meaningful on a busy machine.
public struct PhaseTiming: Sendable, Hashable {
    /// `read`, `match`, `cluster` or `write`.
    public var phase: String
    /// Wall-clock time.
    public var wall: Duration
    /// CPU seconds spent by the process during the phase.
    public var cpuSeconds: Double
    /// The process's peak resident memory so far, at the phase's end (`VmHWM`; 0 where unknown):
    /// the first phase whose figure jumps is the one that sets the peak.
    public var peakResidentBytes: Int = 0
}

/// Measures consecutive phases.
struct PhaseClock {
    private var wallStart = ContinuousClock.now
    private var cpuStart = PhaseClock.processCPUSeconds()

    /// The process's CPU time so far (user + system).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The phase that ends now; the next one starts.
    mutating func lap(_ phase: String) -> PhaseTiming {
        let now = ContinuousClock.now
        let cpu = Self.processCPUSeconds()
        defer {
            wallStart = now
            cpuStart = cpu
        }
        return PhaseTiming(
            phase: phase, wall: now - wallStart, cpuSeconds: cpu - cpuStart,
            peakResidentBytes: Self.peakResidentBytes())
    }

    /// `VmHWM` from `/proc/self/status` (Linux); 0 elsewhere or when unreadable.
    static func peakResidentBytes() -> Int {
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
    }
}
