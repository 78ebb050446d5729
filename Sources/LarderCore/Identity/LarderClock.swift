public import Foundation
import Synchronization

/// The one source of time in Larder.
///
/// Every type that reads the time takes a `clock: LarderClock` (a stored property or an
/// initializer parameter) whose default is ``system``; tests pass ``fixed(_:)``, ``manual(start:)``
/// or their own closures. Nothing else calls `Date()`, `ContinuousClock.now` or `Task.sleep`
/// on a path whose result is stored, compared or reported.
///
/// ```swift
/// var compaction = TombstoneCompaction(store: store)
/// compaction.clock = .fixed(Timestamp.parse("2026-01-01T00:00:00Z")!)
/// ```
public struct LarderClock: Sendable {
    /// The wall-clock time: stored in records, ledgers and reports.
    public var now: @Sendable () -> Date
    /// Seconds on a monotonic clock: only differences mean anything (timeouts, rates, backoff).
    public var monotonicSeconds: @Sendable () -> Double
    /// Waits this many seconds, or throws `CancellationError`.
    public var sleep: @Sendable (Double) async throws -> Void

    /// Creates a clock from its parts.
    ///
    /// - Parameters:
    ///   - now: The wall-clock time.
    ///   - monotonicSeconds: A monotonic reading in seconds.
    ///   - sleep: Waits the given seconds.
    public init(
        now: @escaping @Sendable () -> Date, monotonicSeconds: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (Double) async throws -> Void
    ) {
        self.now = now
        self.monotonicSeconds = monotonicSeconds
        self.sleep = sleep
    }

    /// Milliseconds since 1970 by ``now``, rounded.
    public var milliseconds: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }

    /// The real clocks and `Task.sleep`.
    public static let system: LarderClock = {
        let start = ContinuousClock.now
        return LarderClock(
            now: { Date() },
            monotonicSeconds: {
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            },
            sleep: { seconds in
                guard seconds > 0 else { return }
                // A server's `retryAfter` of 1e300 (or Int.max) seconds is past UInt64 nanoseconds: held there.
                try await Task.sleep(nanoseconds: UInt64(saturating: seconds * 1e9))
            })
    }()

    /// A clock stopped at `date`: the monotonic reading stays 0 and sleeping returns at once.
    public static func fixed(_ date: Date) -> LarderClock {
        LarderClock(now: { date }, monotonicSeconds: { 0 }, sleep: { _ in })
    }

    /// A clock that moves only when something sleeps on it: `sleep(s)` advances both readings
    /// by `s` and returns at once.
    ///
    /// Tests of retries and backoff use it to run without waiting.
    public static func manual(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> LarderClock {
        let elapsed = Mutex<Double>(0)
        return LarderClock(
            now: { start.addingTimeInterval(elapsed.withLock { $0 }) },
            monotonicSeconds: { elapsed.withLock { $0 } },
            sleep: { seconds in
                try Task.checkCancellation()
                elapsed.withLock { $0 += max(0, seconds) }
            })
    }
}

/// The one source of randomness in Larder: ids, tokens, jitter.
///
/// Injected like ``LarderClock`` (a `random: RandomSource` property or parameter defaulting to
/// ``system``); tests pass ``seeded(_:)`` for reproducible ids.
public struct RandomSource: Sendable {
    /// Fills and returns `count` random bytes.
    public var bytes: @Sendable (Int) -> [UInt8]

    /// Creates a source from a byte generator.
    ///
    /// - Parameter bytes: Returns the given number of random bytes.
    public init(bytes: @escaping @Sendable (Int) -> [UInt8]) {
        self.bytes = bytes
    }

    /// The system's cryptographically secure generator.
    public static let system = RandomSource { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// A deterministic source (``SeededGenerator``): the same seed gives the same bytes.
    public static func seeded(_ seed: UInt64) -> RandomSource {
        let generator = Mutex(SeededGenerator(seed: seed))
        return RandomSource { count in
            generator.withLock { generator in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        }
    }

    /// A source whose ``unitInterval()`` is always `value` (clamped to `0..<1`), to pin jitter in tests.
    ///
    /// - Parameter value: The number every ``unitInterval()`` returns (to within 2⁻⁵³).
    /// - Returns: A source that repeats the same eight bytes.
    public static func constant(_ value: Double) -> RandomSource {
        let word = UInt64(min(max(value, 0), 1 - 0x1p-53) * 0x1p53) << 11
        let pattern = (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64($0))) }
        return RandomSource { count in (0..<count).map { pattern[$0 % 8] } }
    }

    /// `count` random bytes as lowercase hex.
    public func hex(bytes count: Int) -> String {
        bytes(count).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// A random UUID string (version 4 layout), upper case like `UUID().uuidString`.
    public func uuid() -> String {
        var raw = bytes(16)
        raw[6] = (raw[6] & 0x0F) | 0x40
        raw[8] = (raw[8] & 0x3F) | 0x80
        let hex: [String] = raw.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }
        let groups: [ArraySlice<String>] = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]]
        return groups.map { $0.joined() }.joined(separator: "-")
    }

    /// A number in `0..<1`.
    public func unitInterval() -> Double {
        let value = bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(value >> 11) / Double(UInt64(1) << 53)
    }
}
