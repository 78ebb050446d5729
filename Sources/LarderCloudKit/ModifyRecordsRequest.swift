/// `records/modify`: `{operations, zoneID?, atomic?, desiredKeys?, numbersAsStrings?}` → ``RecordsResponse``.
public struct ModifyRecordsRequest: Sendable, Hashable, Codable {
    public var operations: [RecordOperation]
    public var zoneID: RecordZoneID?
    /// Whether one failure fails the whole batch (custom zones only; default true).
    public var atomic: Bool?
    public var desiredKeys: [String]?
    public var numbersAsStrings: Bool?

    public init(
        operations: [RecordOperation], zoneID: RecordZoneID? = nil, atomic: Bool? = nil, desiredKeys: [String]? = nil
    ) {
        self.operations = operations
        self.zoneID = zoneID
        self.atomic = atomic
        self.desiredKeys = desiredKeys
    }
}

/// One operation of a modify request.
public struct RecordOperation: Sendable, Hashable, Codable {
    public var operationType: OperationType
    public var record: Record
    public var desiredKeys: [String]?

    public init(_ operationType: OperationType, _ record: Record, desiredKeys: [String]? = nil) {
        self.operationType = operationType
        self.record = record
        self.desiredKeys = desiredKeys
    }
}

/// `create`, `update`, `forceUpdate`, `replace`, `forceReplace`, `delete`, `forceDelete`.
public struct OperationType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let create = OperationType(rawValue: "create")
    public static let update = OperationType(rawValue: "update")
    public static let forceUpdate = OperationType(rawValue: "forceUpdate")
    public static let replace = OperationType(rawValue: "replace")
    public static let forceReplace = OperationType(rawValue: "forceReplace")
    public static let delete = OperationType(rawValue: "delete")
    public static let forceDelete = OperationType(rawValue: "forceDelete")

    /// Every operation type CloudKit defines.
    public static let all: [OperationType] = [
        .create, .update, .forceUpdate, .replace, .forceReplace, .delete, .forceDelete,
    ]

    /// Whether the operation checks `recordChangeTag`.
    public var checksChangeTag: Bool { self == .update || self == .replace || self == .delete }
    /// Whether the operation deletes.
    public var isDelete: Bool { self == .delete || self == .forceDelete }
}

/// `{records: [record or record error]}`, the answer of modify and lookup.
public struct RecordsResponse: Sendable, Hashable, Codable {
    public var records: [RecordResult]
    public init(records: [RecordResult]) { self.records = records }
}

/// `records/lookup`: `{records: [{recordName, desiredKeys?}], zoneID?, desiredKeys?, numbersAsStrings?}`.
public struct LookupRecordsRequest: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var recordName: String
        public var desiredKeys: [String]?
        public init(recordName: String, desiredKeys: [String]? = nil) {
            self.recordName = recordName
            self.desiredKeys = desiredKeys
        }
    }

    public var records: [Entry]
    public var zoneID: RecordZoneID?
    public var desiredKeys: [String]?
    public var numbersAsStrings: Bool?

    public init(records: [Entry], zoneID: RecordZoneID? = nil, desiredKeys: [String]? = nil) {
        self.records = records
        self.zoneID = zoneID
        self.desiredKeys = desiredKeys
    }
}
