import LarderCloudKit
import LarderCore

/// Turns stored rows into wire records, honouring `desiredKeys` and `numbersAsStrings`.
struct RecordRenderer {
    let call: DatabaseOperationContext

    /// The fields stored for `row`.
    /// - Parameter row: A record row.
    /// - Returns: The fields by name.
    /// - Throws: `INTERNAL_ERROR` naming the record when its stored fields do not decode (a damaged
    ///   store), never an empty record in their place.
    func fields(of row: RecordRow) throws -> [String: RecordField] {
        var text = row.fields
        do {
            return try text.withUTF8 {
                try WireDecoder().decode([String: RecordField].self, from: UnsafeRawBufferPointer($0))
            }
        } catch {
            throw CloudKitServerError(
                .internalError, "the stored fields of record \(row.name) are damaged: \(error)")
        }
    }

    /// The members of `fields` that `desiredKeys` names (all of them without it).
    private static func shown<Field>(_ fields: [String: Field], _ desiredKeys: [String]?) -> [String: Field] {
        guard let desiredKeys else { return fields }
        // `desiredKeys: []` (an uploader's batches) shows no field: nothing to hash or filter.
        if desiredKeys.isEmpty { return [:] }
        let wanted = Set(desiredKeys)
        return fields.filter { wanted.contains($0.key) }
    }

    /// The wire record of a row; `knownFields` skips decoding the stored JSON when the caller has
    /// the typed fields (only those `desiredKeys` shows are turned into wire values).
    func record(_ row: RecordRow, zone: ZoneRow, desiredKeys: [String]?, knownFields: [String: FieldValue]? = nil)
        throws -> Record
    {
        if row.isDeleted { return Record.tombstone(recordName: row.name, zoneID: zone.zoneID) }
        var fields =
            try knownFields.map { Self.shown($0, desiredKeys).mapValues(\.recordField) }
            ?? Self.shown(self.fields(of: row), desiredKeys)
        if let links = call.assetLinks {
            for (name, field) in fields where field.type?.elementType == .assetID {
                fields[name] = RecordField(value: withDownloadURL(field.value, links: links), type: field.type)
            }
        }
        if call.numbersAsStrings {
            for (name, field) in fields where field.type?.elementType == .int64 {
                fields[name] = RecordField(value: RecordRenderer.stringifyIntegers(field.value), type: field.type)
            }
        }
        var record = Record(
            recordName: row.name, recordType: row.type, recordChangeTag: row.changeTag, fields: fields,
            zoneID: zone.zoneID)
        record.created = RecordStamp(
            timestamp: row.createdAt, userRecordName: row.createdBy, deviceID: row.createdDevice)
        record.modified = RecordStamp(
            timestamp: row.modifiedAt, userRecordName: row.modifiedBy, deviceID: row.modifiedDevice)
        record.pluginFields = [:]
        if let parent = row.parent { record.parent = RecordParent(recordName: parent) }
        if let shareName = row.shareName { record.share = RecordParent(recordName: shareName, zoneID: zone.zoneID) }
        record.shortGUID = row.shortGUID
        if row.isShare, let text = row.share {
            let share = try StoredShare.decode(text, share: row.name)
            record.publicPermission = share.publicPermission
            record.participants = share.participants
            record.owner = share.participants.first { $0.type == "OWNER" }
            if let user = call.caller.userRecordName {
                record.currentUserParticipant = share.participants.first { $0.userIdentity?.userRecordName == user }
            }
        }
        return record
    }

    /// Adds a `downloadURL` to a stored asset dictionary (or to each one of a list).
    private func withDownloadURL(_ value: Value, links: AssetLinks) -> Value {
        if case .array(let elements) = value { return .array(elements.map { withDownloadURL($0, links: links) }) }
        guard var asset = try? Asset(value: value), let checksum = asset.fileChecksum,
            let hex = AssetDigest.hex(fileChecksum: checksum)
        else { return value }
        asset.downloadURL = links.downloadURL(hex: hex, call: call)
        return asset.jsonValue
    }

    private static func stringifyIntegers(_ value: Value) -> Value {
        switch value {
        case .int(let int): .string(String(int))
        case .array(let elements): .array(elements.map(stringifyIntegers))
        default: value
        }
    }
}
