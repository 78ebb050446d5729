public import LarderCloudKit

/// Why a CloudKit request (or one item of it) did not succeed.
///
/// Either the server answered with a `serverErrorCode` (whole request or one record), or no
/// usable answer arrived (``isTransport``: connection refused, reset, timed out, or a body that
/// is not CloudKit JSON).
public struct CloudKitFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server's code; `nil` for a transport failure.
    public var code: ServerErrorCode?
    /// The HTTP status of a whole-request failure.
    public var status: Int?
    /// The server's reason, or what went wrong on the way.
    public var reason: String
    /// Seconds the server asked the client to wait.
    public var retryAfter: Double?

    /// Creates a failure.
    public init(code: ServerErrorCode?, status: Int? = nil, reason: String, retryAfter: Double? = nil) {
        self.code = code
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
    }

    /// A failure with no HTTP answer.
    public static func transport(_ reason: String) -> CloudKitFailure {
        CloudKitFailure(code: nil, reason: reason)
    }

    /// A per-record error of a 200 answer.
    public init(_ error: RecordError) {
        self.init(code: error.serverErrorCode, reason: error.reason, retryAfter: error.retryAfter.map(Double.init))
    }

    /// Whether no HTTP answer arrived.
    public var isTransport: Bool { code == nil }

    public var description: String {
        guard let code else { return "no answer: \(reason)" }
        let status = status.map { " (HTTP \($0))" } ?? ""
        return "\(code.rawValue)\(status): \(reason)"
    }
}

extension ServerErrorCode {
    /// `ZONE_BUSY`: the zone is being changed by other requests; retry after `retryAfter`
    /// (native CloudKit's `zoneBusy`, which Web Services clients see too).
    static let zoneBusy = ServerErrorCode(rawValue: "ZONE_BUSY")
    /// `LIMIT_EXCEEDED`: too many items or bytes in one request (native `limitExceeded`): split it.
    static let limitExceeded = ServerErrorCode(rawValue: "LIMIT_EXCEEDED")
    /// `REQUEST_TOO_LARGE`, spelled by some proxies and gateways for an oversized body.
    static let requestTooLarge = ServerErrorCode(rawValue: "REQUEST_TOO_LARGE")
    /// Larder's own: nothing listens at the endpoint (the connection was refused).
    ///
    /// Asking again cannot succeed until something is started there, so it is not retried.
    static let connectionRefused = ServerErrorCode(rawValue: "CONNECTION_REFUSED")
}
