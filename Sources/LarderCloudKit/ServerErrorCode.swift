/// A CloudKit Web Services `serverErrorCode`, with the HTTP status the service answers it with.
///
/// A `RawRepresentable` string struct (GRDB's `ResultCode` pattern): every documented code is a
/// static member, and codes this type does not know still decode.
///
/// ```swift
/// if error.serverErrorCode == .conflict { /* refetch and retry */ }
/// ```
public struct ServerErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wire string, such as `CONFLICT`.
    public let rawValue: String

    /// Wraps a wire string.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The HTTP status a whole-request error with this code carries (CloudKit's documented table;
    /// `CHANGE_TOKEN_EXPIRED` and unknown codes answer 400).
    public var httpStatus: Int {
        switch self {
        case .accessDenied: 403
        case .atomicError, .badRequest, .changeTokenExpired: 400
        case .authenticationFailed: 401
        case .authenticationRequired: 421
        case .conflict, .exists, .uniqueFieldError: 409
        case .internalError: 500
        case .notFound, .zoneNotFound: 404
        case .quotaExceeded: 413
        case .throttled: 429
        case .tryAgainLater: 503
        case .validatingReferenceError: 412
        default: 400
        }
    }

    /// Whether a client may retry the request after `retryAfter` seconds.
    public var isRetryable: Bool { self == .throttled || self == .tryAgainLater || self == .internalError }

    /// No permission for the endpoint, record, zone or database (403).
    public static let accessDenied = ServerErrorCode(rawValue: "ACCESS_DENIED")
    /// Another item of an atomic batch failed (400).
    public static let atomicError = ServerErrorCode(rawValue: "ATOMIC_ERROR")
    /// The credentials were rejected (401).
    public static let authenticationFailed = ServerErrorCode(rawValue: "AUTHENTICATION_FAILED")
    /// The request needs a signed-in user and has none (421, with `redirectURL`).
    public static let authenticationRequired = ServerErrorCode(rawValue: "AUTHENTICATION_REQUIRED")
    /// The request is malformed (400).
    public static let badRequest = ServerErrorCode(rawValue: "BAD_REQUEST")
    /// The sync token is expired or from another zone generation; refetch from nil.
    public static let changeTokenExpired = ServerErrorCode(rawValue: "CHANGE_TOKEN_EXPIRED")
    /// The `recordChangeTag` is stale (409).
    public static let conflict = ServerErrorCode(rawValue: "CONFLICT")
    /// The record or zone to create already exists (409).
    public static let exists = ServerErrorCode(rawValue: "EXISTS")
    /// The server failed (500).
    public static let internalError = ServerErrorCode(rawValue: "INTERNAL_ERROR")
    /// The record or endpoint does not exist (404).
    public static let notFound = ServerErrorCode(rawValue: "NOT_FOUND")
    /// The storage quota is used up (413).
    public static let quotaExceeded = ServerErrorCode(rawValue: "QUOTA_EXCEEDED")
    /// Too many requests; retry after `retryAfter` seconds (429).
    public static let throttled = ServerErrorCode(rawValue: "THROTTLED")
    /// A transient failure; retry after `retryAfter` seconds (503).
    public static let tryAgainLater = ServerErrorCode(rawValue: "TRY_AGAIN_LATER")
    /// A unique-field constraint was violated (409).
    public static let uniqueFieldError = ServerErrorCode(rawValue: "UNIQUE_FIELD_ERROR")
    /// A validating reference points at a missing record (412).
    public static let validatingReferenceError = ServerErrorCode(rawValue: "VALIDATING_REFERENCE_ERROR")
    /// The zone does not exist (404).
    public static let zoneNotFound = ServerErrorCode(rawValue: "ZONE_NOT_FOUND")
}
