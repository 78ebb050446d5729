/// A record dictionary as CloudKit Web Services sends and receives it.
///
/// In requests most keys are optional (a `create` may omit `recordName`; an `update` needs
/// `recordChangeTag`). Responses carry `recordChangeTag`, `created`, `modified` and typed
/// `fields`. A deleted record in a change feed is `{recordName, deleted: true, zoneID}`.
/// `cloudkit.share` records add `forRecord`, `publicPermission`, `participants`, `owner`,
/// `currentUserParticipant` and `shortGUID`.
public struct Record: Sendable, Hashable, Codable {
    public var recordName: String?
    public var recordType: String?
    public var recordChangeTag: String?
    public var fields: [String: RecordField]?
    public var created: RecordStamp?
    public var modified: RecordStamp?
    public var deleted: Bool?
    public var zoneID: RecordZoneID?
    /// The parent record, for hierarchical shares: `{recordName}`.
    public var parent: RecordParent?
    /// The share this record is the root of: `{recordName, zoneID}`.
    public var share: RecordParent?
    public var shortGUID: String?
    public var createShortGUID: Bool?
    public var pluginFields: [String: RecordField]?
    /// For a `cloudkit.share` create: the root record, `{recordName, recordChangeTag}`.
    public var forRecord: ForRecord?
    public var publicPermission: SharePermission?
    public var participants: [ShareParticipant]?
    public var owner: ShareParticipant?
    public var currentUserParticipant: ShareParticipant?

    /// Creates a record dictionary.
    public init(
        recordName: String? = nil, recordType: String? = nil, recordChangeTag: String? = nil,
        fields: [String: RecordField]? = nil, zoneID: RecordZoneID? = nil
    ) {
        self.recordName = recordName
        self.recordType = recordType
        self.recordChangeTag = recordChangeTag
        self.fields = fields
        self.zoneID = zoneID
    }

    /// A tombstone for a change feed or a delete result.
    public static func tombstone(recordName: String, zoneID: RecordZoneID?) -> Record {
        var record = Record(recordName: recordName, zoneID: zoneID)
        record.deleted = true
        return record
    }

    /// The record type of shares (compared case-insensitively: Apple's docs spell it `cloudKit.share`).
    public static let shareRecordType = "cloudkit.share"
    /// The record name of a zone-wide share.
    public static let zoneWideShareName = "cloudkit.zoneshare"

    /// Whether this is a `cloudkit.share` record.
    public var isShare: Bool { recordType?.lowercased() == Record.shareRecordType }
}

/// `created` / `modified`: when, by whom, from which device.
public struct RecordStamp: Sendable, Hashable, Codable {
    /// Milliseconds since 1970.
    public var timestamp: Int64
    public var userRecordName: String
    public var deviceID: String

    public init(timestamp: Int64, userRecordName: String, deviceID: String) {
        self.timestamp = timestamp
        self.userRecordName = userRecordName
        self.deviceID = deviceID
    }
}

/// A `{recordName, zoneID?}` pointer (a record's `parent` or `share`).
public struct RecordParent: Sendable, Hashable, Codable {
    public var recordName: String
    public var zoneID: RecordZoneID?

    public init(recordName: String, zoneID: RecordZoneID? = nil) {
        self.recordName = recordName
        self.zoneID = zoneID
    }
}

/// The root record of a share being created: `{recordName, recordChangeTag}`.
public struct ForRecord: Sendable, Hashable, Codable {
    public var recordName: String
    public var recordChangeTag: String?

    public init(recordName: String, recordChangeTag: String? = nil) {
        self.recordName = recordName
        self.recordChangeTag = recordChangeTag
    }
}
