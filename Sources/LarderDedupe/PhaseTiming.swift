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
        return PhaseTiming(phase: phase, wall: now - wallStart, cpuSeconds: cpu - cpuStart)
    }
}
