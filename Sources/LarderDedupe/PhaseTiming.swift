import LarderSystem

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
    static func processCPUSeconds() -> Double { ProcessResources.cpuSeconds() }

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

    /// The peak resident memory so far (`VmHWM` on Linux, `ru_maxrss` on Darwin); 0 when unknown.
    static func peakResidentBytes() -> Int { ProcessResources.peakResidentBytes() }
}
