// The wire encoding of request bodies, in the member order of each type's `Codable` conformance
// (see `WireEncoder`).

extension OperationType: WireEncodable {}
extension Comparator: WireEncodable {}

extension RecordOperation: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        try encode(to: &encoder, fields: record.fields)
    }

    /// Writes this operation with `fields` as its record's fields (see
    /// ``Record/encode(to:fields:)``).
    package func encode(to encoder: inout WireEncoder, fields: (some WireEncodable)?) throws {
        encoder.beginObject()
        try encoder.member("operationType", operationType)
        encoder.key("record")
        try record.encode(to: &encoder, fields: fields)
        try encoder.member("desiredKeys", desiredKeys)
        encoder.endObject()
    }
}

extension ModifyRecordsRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        try Self.encode(
            operations: operations, zoneID: zoneID, atomic: atomic, desiredKeys: desiredKeys,
            numbersAsStrings: numbersAsStrings, to: &encoder)
    }

    /// Writes a modify request whose operations may be already encoded (``WireEncoder/Encoded``):
    /// `{"operations":[…],"zoneID"?:…,"atomic"?:…,"desiredKeys"?:[…],"numbersAsStrings"?:…}`.
    /// - Throws: ``LarderError`` `unrepresentable` for a NaN or infinite number.
    package static func encode(
        operations: [some WireEncodable], zoneID: RecordZoneID?, atomic: Bool?, desiredKeys: [String]?,
        numbersAsStrings: Bool? = nil, to encoder: inout WireEncoder
    ) throws {
        encoder.beginObject()
        try encoder.member("operations", operations)
        try encoder.member("zoneID", zoneID)
        try encoder.member("atomic", atomic)
        try encoder.member("desiredKeys", desiredKeys)
        try encoder.member("numbersAsStrings", numbersAsStrings)
        encoder.endObject()
    }
}

extension LookupRecordsRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("records", records)
        try encoder.member("zoneID", zoneID)
        try encoder.member("desiredKeys", desiredKeys)
        try encoder.member("numbersAsStrings", numbersAsStrings)
        encoder.endObject()
    }
}

extension LookupRecordsRequest.Entry: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("recordName", recordName)
        try encoder.member("desiredKeys", desiredKeys)
        encoder.endObject()
    }
}

extension QueryRecordsRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("query", query)
        try encoder.member("zoneID", zoneID)
        try encoder.member("resultsLimit", resultsLimit)
        try encoder.member("continuationMarker", continuationMarker)
        try encoder.member("desiredKeys", desiredKeys)
        try encoder.member("zoneWide", zoneWide)
        try encoder.member("numbersAsStrings", numbersAsStrings)
        encoder.endObject()
    }
}

extension Query: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("recordType", recordType)
        try encoder.member("filterBy", filterBy)
        try encoder.member("sortBy", sortBy)
        encoder.endObject()
    }
}

extension QueryFilter: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("comparator", comparator)
        try encoder.member("fieldName", fieldName)
        try encoder.member("fieldValue", fieldValue)
        try encoder.member("distance", distance)
        encoder.endObject()
    }
}

extension QuerySort: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("fieldName", fieldName)
        try encoder.member("ascending", ascending)
        try encoder.member("relativeLocation", relativeLocation)
        encoder.endObject()
    }
}

extension RecordChangesRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zoneID", zoneID)
        try encoder.member("syncToken", syncToken)
        try encoder.member("resultsLimit", resultsLimit)
        try encoder.member("desiredKeys", desiredKeys)
        try encoder.member("desiredRecordTypes", desiredRecordTypes)
        try encoder.member("numbersAsStrings", numbersAsStrings)
        encoder.endObject()
    }
}

extension ZoneChangesRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zones", zones)
        try encoder.member("resultsLimit", resultsLimit)
        try encoder.member("desiredKeys", desiredKeys)
        try encoder.member("desiredRecordTypes", desiredRecordTypes)
        try encoder.member("reverse", reverse)
        try encoder.member("numbersAsStrings", numbersAsStrings)
        encoder.endObject()
    }
}

extension ZoneChangesRequest.Options: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zoneID", zoneID)
        try encoder.member("syncToken", syncToken)
        try encoder.member("resultsLimit", resultsLimit)
        try encoder.member("desiredKeys", desiredKeys)
        try encoder.member("desiredRecordTypes", desiredRecordTypes)
        try encoder.member("reverse", reverse)
        try encoder.member("numbersAsStrings", numbersAsStrings)
        encoder.endObject()
    }
}

extension DatabaseChangesRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("syncToken", syncToken)
        try encoder.member("resultsLimit", resultsLimit)
        encoder.endObject()
    }
}

extension ShortGUIDsRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("shortGUIDs", shortGUIDs)
        encoder.endObject()
    }
}

extension ShortGUIDsRequest.ShortGUID: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("value", value)
        try encoder.member("shouldFetchRootRecord", shouldFetchRootRecord)
        encoder.endObject()
    }
}
