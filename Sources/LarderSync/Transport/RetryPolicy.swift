import LarderCloudKit
public import LarderCore

/// When and how long to wait before trying again, and what each failure calls for.
///
/// Waits grow exponentially from ``baseDelay`` up to ``maxDelay``, with "equal jitter" (a
/// random point in the upper half of the step, so concurrent clients spread out), and are
/// never shorter than the server's `retryAfter`; when the server names a wait, a little
/// jitter is added on top of it so throttled workers do not all come back at once.
///
/// ```swift
/// let policy = RetryPolicy(random: .constant(0.5))
/// policy.delay(attempt: 3, retryAfter: 2)   // max(2, 2.0 * 0.75) + 2 * 0.1 * 0.5 = 2.1
/// ```
public struct RetryPolicy: Sendable {
    /// Attempts per item (or request) before giving up on retryable failures.
    public var maxAttempts: Int
    /// The first back-off step, in seconds.
    public var baseDelay: Double
    /// The largest back-off step, in seconds.
    public var maxDelay: Double
    /// Where the jitter comes from (injected: tests pin it).
    public var random: RandomSource

    /// Creates a policy.
    public init(
        maxAttempts: Int = 10, baseDelay: Double = 0.25, maxDelay: Double = 30,
        random: RandomSource = .system
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.random = random
    }

    /// The wait before attempt `attempt + 1`, after `attempt` failed ones (1-based).
    /// - Parameters:
    ///   - attempt: How many attempts have failed so far.
    ///   - retryAfter: the server's wait in seconds, if it named one.
    /// - Returns: seconds, at least `retryAfter`.
    public func delay(attempt: Int, retryAfter: Double?) -> Double {
        let exponent = Double(max(0, min(attempt - 1, 30)))
        let step = min(maxDelay, baseDelay * pow2(exponent))
        let backoff = step / 2 + step / 2 * random.unitInterval()
        guard let retryAfter, retryAfter > 0 else { return backoff }
        return max(retryAfter, backoff) + retryAfter * 0.2 * random.unitInterval()
    }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        var remaining = Int(exponent)
        while remaining > 0 {
            value *= 2
            remaining -= 1
        }
        return value
    }

    /// What a failure calls for.
    public enum Disposition: Sendable, Hashable {
        /// Wait (at least `retryAfter`) and send the same items again.
        case retry
        /// The request was too big: send each half on its own.
        case split
        /// The record exists (create) or changed (update): resolve by the conflict policy.
        case conflict
        /// The zone is missing: create it and send again.
        case createZone
        /// The credentials are wrong or missing: stop, nothing will work.
        case stop
        /// The record is not there (an update of a deleted record): create it instead.
        case recreate
        /// This record cannot be written: it goes to the dead letters.
        case reject
    }

    /// Classifies a failure.
    /// - Parameters:
    ///   - failure: The server's or the transport's failure.
    ///   - isWholeRequest: whether it answered the whole request (else one record).
    /// - Returns: What the uploader does about it.
    public static func disposition(of failure: CloudKitFailure, isWholeRequest: Bool) -> Disposition {
        guard let code = failure.code else { return .retry }
        switch code {
        case .throttled, .tryAgainLater, .zoneBusy, .internalError, .atomicError:
            return .retry
        case .limitExceeded, .requestTooLarge:
            return .split
        case .badRequest where isWholeRequest && isLimitReason(failure.reason):
            return .split
        case .conflict, .exists:
            return .conflict
        case .zoneNotFound:
            return .createZone
        case .notFound:
            return isWholeRequest ? .stop : .recreate
        case .authenticationFailed, .authenticationRequired, .quotaExceeded, .connectionRefused:
            return .stop
        case .accessDenied:
            return isWholeRequest ? .stop : .reject
        case .badRequest where isWholeRequest:
            // Something in the request is malformed: halves isolate the record at fault.
            return .split
        default:
            return .reject
        }
    }

    /// Whether a `BAD_REQUEST` reason is about size or count limits (CloudKit documents no code
    /// for them; the emulator and proxies say so in the reason).
    static func isLimitReason(_ reason: String) -> Bool {
        let text = reason.lowercased()
        return text.contains("limit") || text.contains("too large") || text.contains("too many")
    }
}

extension RetryPolicy {
    /// Runs one request, retrying retryable failures (throttling, no answer) after ``delay(attempt:retryAfter:)``.
    /// - Throws: ``UploadStopped`` with the last failure when it is not retryable or the attempts are used up.
    func perform<T>(_ context: String, clock: LarderClock, _ body: () async throws(CloudKitFailure) -> T) async throws
        -> T
    {
        var attempt = 0
        while true {
            do throws(CloudKitFailure) {
                return try await body()
            } catch {
                attempt += 1
                guard RetryPolicy.disposition(of: error, isWholeRequest: true) == .retry, attempt < maxAttempts else {
                    throw UploadStopped(failure: error, context: context)
                }
                try await clock.sleep(delay(attempt: attempt, retryAfter: error.retryAfter))
            }
        }
    }
}
