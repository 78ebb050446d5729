/// One item of a `records` array in a response: a record (or tombstone) or a record error.
public enum RecordResult: Sendable, Hashable, Codable {
    case record(Record)
    case error(RecordError)

    private enum ProbeKeys: String, CodingKey { case serverErrorCode }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKeys.self)
        if probe.contains(.serverErrorCode) {
            self = .error(try RecordError(from: decoder))
        } else {
            self = .record(try Record(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .record(let record): try record.encode(to: encoder)
        case .error(let error): try error.encode(to: encoder)
        }
    }

    /// The record, when this is not an error.
    public var record: Record? {
        if case .record(let record) = self { return record }
        return nil
    }

    /// The error, when this is one.
    public var error: RecordError? {
        if case .error(let error) = self { return error }
        return nil
    }
}

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
