package import LarderCore

/// A wire type with a hand-written reader for its common shape, tried before the `Decodable`
/// path: it reads the parsed document directly, without the generic decoder's containers.
///
/// The reader returns nil for anything it does not handle exactly as the `Decodable` conformance
/// would (a member of the wrong type, a member it leaves to the full path; the scanner already
/// refuses duplicate keys); the
/// `Decodable` path then decides, so errors and their coding paths are the conformance's own.
/// The agreement tests hold both paths to the same result.
package protocol FastWireDecodable {
    /// The value `json` holds, or nil to leave it to `init(from:)`.
    init?(fastFrom json: Value)
}

extension ModifyRecordsRequest: FastWireDecodable {
    package init?(fastFrom json: Value) {
        guard case .object(let members) = json else { return nil }
        var operations: [RecordOperation]?
        self.init(operations: [])
        for member in members {
            switch member.key {
            case "operations":
                guard case .array(let items) = member.value else { return nil }
                var list: [RecordOperation] = []
                list.reserveCapacity(items.count)
                for item in items {
                    guard let operation = RecordOperation(fastFrom: item) else { return nil }
                    list.append(operation)
                }
                operations = list
            case "zoneID":
                guard let zone = RecordZoneID.fast(member.value) else { return nil }
                zoneID = zone
            case "atomic":
                guard let flag = Value.fastBool(member.value) else { return nil }
                atomic = flag
            case "desiredKeys":
                guard let keys = Value.fastStrings(member.value) else { return nil }
                desiredKeys = keys
            case "numbersAsStrings":
                guard let flag = Value.fastBool(member.value) else { return nil }
                numbersAsStrings = flag
            default:
                continue  // unknown members are ignored, as by `Decodable`
            }
        }
        guard let operations else { return nil }
        self.operations = operations
    }
}

extension RecordOperation: FastWireDecodable {
    package init?(fastFrom json: Value) {
        guard case .object(let members) = json else { return nil }
        var type: OperationType?
        var record: Record?
        var keys: [String]??
        for member in members {
            switch member.key {
            case "operationType":
                guard case .string(let text) = member.value else { return nil }
                type = OperationType(rawValue: text)
            case "record":
                guard let parsed = Record(fastFrom: member.value) else { return nil }
                record = parsed
            case "desiredKeys":
                guard let list = Value.fastStrings(member.value) else { return nil }
                keys = .some(list)
            default:
                continue
            }
        }
        guard let type, let record else { return nil }
        self.init(type, record, desiredKeys: keys ?? nil)
    }
}

extension Record: FastWireDecodable {
    /// The members a request's record usually has; any other member goes to the full path.
    package init?(fastFrom json: Value) {
        guard case .object(let members) = json else { return nil }
        self.init()
        for member in members {
            switch member.key {
            case "recordName":
                guard let text = member.value.stringValue else { return nil }
                recordName = text
            case "recordType":
                guard let text = member.value.stringValue else { return nil }
                recordType = text
            case "recordChangeTag":
                guard let text = member.value.stringValue else { return nil }
                recordChangeTag = text
            case "fields", "pluginFields":
                if case .null = member.value { continue }
                guard let fields = RecordField.fastFields(member.value) else { return nil }
                if member.key == "fields" { self.fields = fields } else { pluginFields = fields }
            case "zoneID":
                guard let zone = RecordZoneID.fast(member.value) else { return nil }
                zoneID = zone
            case "created", "modified":
                if case .null = member.value { continue }
                guard let stamp = RecordStamp.fast(member.value) else { return nil }
                if member.key == "created" { created = stamp } else { modified = stamp }
            case "deleted":
                if case .null = member.value { continue }
                guard case .bool(let flag) = member.value else { return nil }
                deleted = flag
            default:
                // Parents, shares, plugin fields and the rest: the full path reads them.
                if Record.memberNames.contains(member.key) { return nil }
            }
        }
    }

    /// Every member `Decodable` reads.
    private static let memberNames: Set<String> = [
        "recordName", "recordType", "recordChangeTag", "fields", "created", "modified", "deleted", "zoneID",
        "parent", "share", "shortGUID", "createShortGUID", "pluginFields", "forRecord", "publicPermission",
        "participants", "owner", "currentUserParticipant",
    ]
}

extension RecordsResponse: FastWireDecodable {
    /// `{"records": [record…]}` as `records/modify` and `records/lookup` answer it; an answer
    /// holding a per-record error goes to the full path.
    package init?(fastFrom json: Value) {
        guard case .object(let members) = json else { return nil }
        var records: [RecordResult]?
        for member in members {
            guard member.key == "records" else { continue }  // unknown members are ignored, as by `Decodable`
            guard case .array(let items) = member.value else { return nil }
            var list: [RecordResult] = []
            list.reserveCapacity(items.count)
            for item in items {
                guard case .object(let itemMembers) = item, !itemMembers.contains(key: "serverErrorCode"),
                    let record = Record(fastFrom: item)
                else { return nil }
                list.append(.success(record))
            }
            records = list
        }
        guard let records else { return nil }
        self.init(records: records)
    }
}

extension RecordStamp {
    /// `{"timestamp": integer, "userRecordName": …, "deviceID": …}`; nil for anything else.
    static func fast(_ json: Value) -> RecordStamp? {
        guard case .object(let members) = json else { return nil }
        var timestamp: Int64?
        var user: String?
        var device: String?
        for member in members {
            switch (member.key, member.value) {
            case ("timestamp", .int(let milliseconds)): timestamp = milliseconds
            case ("userRecordName", .string(let text)): user = text
            case ("deviceID", .string(let text)): device = text
            case ("timestamp", _), ("userRecordName", _), ("deviceID", _): return nil
            default: continue
            }
        }
        guard let timestamp, let user, let device else { return nil }
        return RecordStamp(timestamp: timestamp, userRecordName: user, deviceID: device)
    }
}

extension RecordField {
    /// An object of fields by name; nil for anything else.
    static func fastFields(_ json: Value) -> [String: RecordField]? {
        guard case .object(let members) = json else { return nil }
        var fields: [String: RecordField] = [:]
        fields.reserveCapacity(members.count)
        for field in members {
            guard let parsed = RecordField.fast(field.value), fields.updateValue(parsed, forKey: field.key) == nil
            else { return nil }
        }
        return fields
    }

    /// `{"value": …, "type": "…"}`; nil for anything else.
    static func fast(_ json: Value) -> RecordField? {
        guard case .object(let members) = json else { return nil }
        var field = RecordField(value: .null)
        for member in members {
            switch member.key {
            case "value": field.value = member.value
            case "type":
                if case .null = member.value { continue }
                guard case .string(let tag) = member.value else { return nil }
                field.type = FieldType(rawValue: tag)
            default: continue
            }
        }
        return field
    }
}

extension RecordZoneID {
    /// `{"zoneName": …, "ownerRecordName"?: …}`; nil for anything else (`null` included: the full
    /// path decides what a null zone means).
    static func fast(_ json: Value) -> RecordZoneID? {
        guard case .object(let members) = json else { return nil }
        var name: String?
        var owner: String?
        for member in members {
            switch member.key {
            case "zoneName":
                guard case .string(let text) = member.value else { return nil }
                name = text
            case "ownerRecordName":
                guard let text = member.value.stringValue else { return nil }
                owner = text
            case "ownerName":
                return nil  // the older spelling: the full path settles which one wins
            default: continue
            }
        }
        guard let name else { return nil }
        return RecordZoneID(zoneName: name, ownerRecordName: owner)
    }
}

extension Value {
    /// A boolean member; nil for any other kind.
    fileprivate static func fastBool(_ value: Value) -> Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// A list of strings; nil when it is not one.
    fileprivate static func fastStrings(_ value: Value) -> [String]? {
        guard let items = value.arrayValue else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(items.count)
        for item in items {
            guard let text = item.stringValue else { return nil }
            strings.append(text)
        }
        return strings
    }
}
