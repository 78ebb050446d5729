public import LarderCore

/// A zone's identity: `{zoneName, ownerRecordName}`.
///
/// Decodes `ownerRecordName` or the older `ownerName`; encodes `ownerRecordName`. The owner is
/// optional in requests (the caller's own zone).
public struct RecordZoneID: Sendable, Hashable, Codable {
    /// The name every database's default zone has.
    public static let defaultZoneName = "_defaultZone"

    /// The zone's name.
    public var zoneName: String
    /// The owning user's record name, when given.
    public var ownerRecordName: String?

    /// Creates a zone ID.
    public init(zoneName: String, ownerRecordName: String? = nil) {
        self.zoneName = zoneName
        self.ownerRecordName = ownerRecordName
    }

    /// The default zone.
    public static let defaultZone = RecordZoneID(zoneName: defaultZoneName)

    /// Whether this names the default zone.
    public var isDefaultZone: Bool { zoneName == RecordZoneID.defaultZoneName }

    private enum CodingKeys: String, CodingKey {
        case zoneName, ownerRecordName, ownerName, zoneType
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneName = try container.decode(String.self, forKey: .zoneName)
        ownerRecordName =
            try container.decodeIfPresent(String.self, forKey: .ownerRecordName)
            ?? container.decodeIfPresent(String.self, forKey: .ownerName)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zoneName, forKey: .zoneName)
        try container.encodeIfPresent(ownerRecordName, forKey: .ownerRecordName)
    }

    /// The wire JSON.
    public var jsonValue: Value {
        var fields = Fields()
        fields.append(key: "zoneName", value: .string(zoneName))
        if let ownerRecordName { fields.append(key: "ownerRecordName", value: .string(ownerRecordName)) }
        return .object(fields)
    }
}
