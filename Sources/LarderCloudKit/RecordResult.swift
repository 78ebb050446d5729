/// A per-record error inside a 200 response: `{recordName, reason, serverErrorCode, retryAfter?, uuid, redirectURL?}`.
public struct RecordError: Sendable, Hashable, Codable, Error {
    public var recordName: String?
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var retryAfter: Int?
    public var uuid: String
    public var redirectURL: String?

    public init(
        recordName: String?, serverErrorCode: ServerErrorCode, reason: String, uuid: String, retryAfter: Int? = nil
    ) {
        self.recordName = recordName
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
        self.retryAfter = retryAfter
    }
}

/// A whole-request error body: `{uuid, serverErrorCode, reason, retryAfter?, redirectURL?}`.
public struct ErrorResponse: Sendable, Hashable, Codable, Error {
    public var uuid: String
    public var serverErrorCode: ServerErrorCode
    public var reason: String
    public var retryAfter: Int?
    public var redirectURL: String?

    public init(
        uuid: String, serverErrorCode: ServerErrorCode, reason: String, retryAfter: Int? = nil,
        redirectURL: String? = nil
    ) {
        self.uuid = uuid
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
    }
}
