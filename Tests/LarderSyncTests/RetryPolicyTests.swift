import LarderCloudKit
import LarderCore
import Testing

@testable import LarderSync

@Suite struct RetryPolicyTests {
    @Test("waits never undercut the server's retryAfter")
    func respectsRetryAfter() {
        for random in [0.0, 0.5, 0.999] {
            let policy = RetryPolicy(baseDelay: 0.25, maxDelay: 30, random: .constant(random))
            for attempt in 1...8 {
                #expect(policy.delay(attempt: attempt, retryAfter: 3) >= 3)
            }
        }
    }

    @Test("back-off doubles per attempt up to the cap, with jitter in the upper half of each step")
    func exponentialWithJitter() {
        let low = RetryPolicy(baseDelay: 1, maxDelay: 8, random: .constant(0))
        let high = RetryPolicy(baseDelay: 1, maxDelay: 8, random: .constant(0.999_999))
        #expect(low.delay(attempt: 1, retryAfter: nil) == 0.5)
        #expect(low.delay(attempt: 2, retryAfter: nil) == 1)
        #expect(low.delay(attempt: 3, retryAfter: nil) == 2)
        #expect(low.delay(attempt: 10, retryAfter: nil) == 4)  // capped at 8, lower half excluded
        #expect(high.delay(attempt: 3, retryAfter: nil) < 4.0001)
        #expect(high.delay(attempt: 3, retryAfter: nil) > 3.99)
    }

    @Test("a named wait gets a little jitter on top so throttled workers spread out")
    func jitterOnRetryAfter() {
        let policy = RetryPolicy(baseDelay: 0.1, maxDelay: 1, random: .constant(0.5))
        #expect(policy.delay(attempt: 1, retryAfter: 10) == 10 + 10 * 0.2 * 0.5)
    }

    @Test("failures map to retry, split, conflict, create-zone, stop or reject")
    func dispositions() {
        func whole(_ code: ServerErrorCode?, _ reason: String = "") -> RetryPolicy.Disposition {
            RetryPolicy.disposition(of: CloudKitFailure(code: code, reason: reason), isWholeRequest: true)
        }
        func item(_ code: ServerErrorCode) -> RetryPolicy.Disposition {
            RetryPolicy.disposition(of: CloudKitFailure(code: code, reason: ""), isWholeRequest: false)
        }
        #expect(whole(.throttled) == .retry)
        #expect(whole(.tryAgainLater) == .retry)
        #expect(whole(.zoneBusy) == .retry)
        #expect(whole(nil) == .retry)  // no answer at all: the offline queue waits and tries again
        #expect(whole(.limitExceeded) == .split)
        #expect(whole(.badRequest, "201 operations in one request; the limit is 200") == .split)
        #expect(whole(.badRequest, "request body is larger than the 16-byte limit") == .split)
        #expect(whole(.zoneNotFound) == .createZone)
        #expect(whole(.authenticationFailed) == .stop)
        #expect(whole(.quotaExceeded) == .stop)
        #expect(item(.conflict) == .conflict)
        #expect(item(.exists) == .conflict)
        #expect(item(.notFound) == .recreate)
        #expect(item(.throttled) == .retry)
        #expect(item(.badRequest) == .reject)
        #expect(item(.accessDenied) == .reject)
    }
}
