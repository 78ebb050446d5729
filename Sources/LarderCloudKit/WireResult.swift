/// One item of a response array that holds either a value or a per-item error: CloudKit tells them
/// apart by the presence of `serverErrorCode`.
public enum WireResult<Success: Codable & Sendable & Hashable, Failure: Codable & Sendable & Hashable>: Sendable,
    Hashable,
    Codable
{
    case success(Success)
    case failure(Failure)

    private enum ProbeKeys: String, CodingKey { case serverErrorCode }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKeys.self)
        self =
            probe.contains(.serverErrorCode)
            ? .failure(try Failure(from: decoder)) : .success(try Success(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .success(let value): try value.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }

    /// The value, when this is not an error.
    public var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, when this is one.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// An error item.
    public static func error(_ error: Failure) -> WireResult { .failure(error) }
}

/// A record (or tombstone) or a record error.
public typealias RecordResult = WireResult<Record, RecordError>
/// A zone or a zone error.
public typealias ZoneResult = WireResult<Zone, ZoneError>
/// A zone's changes or its error.
public typealias ZoneChangesResult = WireResult<ZoneChanges, ZoneError>
/// Share metadata or an error.
public typealias ShareMetadataResult = WireResult<ShareMetadata, RecordError>

extension WireResult where Success == Record {
    public static func record(_ record: Record) -> WireResult { .success(record) }
    public var record: Record? { value }
}

extension WireResult where Success == Zone {
    public static func zone(_ zone: Zone) -> WireResult { .success(zone) }
    public var zone: Zone? { value }
}

extension WireResult where Success == ZoneChanges {
    public static func changes(_ changes: ZoneChanges) -> WireResult { .success(changes) }
    public var changes: ZoneChanges? { value }
}

extension WireResult where Success == ShareMetadata {
    public static func metadata(_ metadata: ShareMetadata) -> WireResult { .success(metadata) }
    public var metadata: ShareMetadata? { value }
}
