public import LarderCore

/// A `REFERENCE` value: `{recordName, zoneID?, action}`.
public struct Reference: Sendable, Hashable, Codable {
    /// The referenced record's name.
    public var recordName: String
    /// The zone of the referenced record, when not the referring record's zone.
    public var zoneID: RecordZoneID?
    /// `NONE`, `DELETE_SELF` or `VALIDATE`.
    public var action: String?

    /// Creates a reference.
    public init(recordName: String, zoneID: RecordZoneID? = nil, action: String? = nil) {
        self.recordName = recordName
        self.zoneID = zoneID
        self.action = action
    }

    /// Parses a reference object.
    /// - Throws: ``FieldValueError`` when `recordName` is missing or `action` is unknown.
    public init(value: Value) throws(FieldValueError) {
        guard let name = value["recordName"]?.stringValue, !name.isEmpty else {
            throw FieldValueError("a REFERENCE needs a recordName string")
        }
        recordName = name
        if let zone = value["zoneID"], !zone.isNull {
            guard let zoneName = zone["zoneName"]?.stringValue else {
                throw FieldValueError("a REFERENCE zoneID needs a zoneName")
            }
            zoneID = RecordZoneID(
                zoneName: zoneName,
                ownerRecordName: zone["ownerRecordName"]?.stringValue ?? zone["ownerName"]?.stringValue)
        }
        if let action = value["action"], !action.isNull {
            guard let text = action.stringValue, ["NONE", "DELETE_SELF", "VALIDATE"].contains(text) else {
                throw FieldValueError("a REFERENCE action is NONE, DELETE_SELF or VALIDATE, found \(action.snippet)")
            }
            self.action = text
        }
    }

    /// The wire JSON.
    public var jsonValue: Value {
        var fields = Fields()
        fields.append(key: "recordName", value: .string(recordName))
        if let zoneID { fields.append(key: "zoneID", value: zoneID.jsonValue) }
        fields.append(key: "action", value: .string(action ?? "NONE"))
        return .object(fields)
    }
}
