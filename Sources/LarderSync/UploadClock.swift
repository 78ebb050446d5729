import Foundation

/// Time for the uploader: a monotonic "now", the wall clock, and a way to wait.
///
/// Injected as small `Sendable` closures so tests replace waiting by bookkeeping: the test
/// clock's `sleep` advances a virtual time and returns at once.
public struct UploadClock: Sendable {
    /// Seconds on a monotonic clock.
    public var now: @Sendable () -> Double
    /// Milliseconds since 1970 (for reports).
    public var wallMilliseconds: @Sendable () -> Int64
    /// Waits this many seconds (or throws `CancellationError`).
    public var sleep: @Sendable (Double) async throws -> Void

    /// Creates a clock from its parts.
    public init(
        now: @escaping @Sendable () -> Double, wallMilliseconds: @escaping @Sendable () -> Int64,
        sleep: @escaping @Sendable (Double) async throws -> Void
    ) {
        self.now = now
        self.wallMilliseconds = wallMilliseconds
        self.sleep = sleep
    }

    /// The real clocks and `Task.sleep`.
    public static let system: UploadClock = {
        let start = ContinuousClock.now
        return UploadClock(
            now: {
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            },
            wallMilliseconds: { Int64((Date().timeIntervalSince1970 * 1000).rounded()) },
            sleep: { seconds in
                guard seconds > 0 else { return }
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            })
    }()
}
