// The wire encoding of records, their fields and errors, and the answers that carry them, in the
// member order of each type's `Codable` conformance (see `WireEncoder`).

extension FieldType: WireEncodable {}
extension ServerErrorCode: WireEncodable {}

extension RecordField: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        encoder.key("value")
        try encoder.encode(value)
        try encoder.member("type", type)
        encoder.endObject()
    }
}

/// The wire form `{"value":…,"type":"TAG"}`, byte for byte what ``FieldValue/recordField``
/// encodes to, written without building the `Value` tree (the emulator stores every record's
/// fields this way, and the uploader sends them).
extension FieldValue: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        encoder.key("value")
        try encodeValue(to: &encoder)
        encoder.key("type")
        encoder.encode(type.rawValue)
        encoder.endObject()
    }

    private func encodeValue(to encoder: inout WireEncoder) throws {
        switch self {
        case .string(let text), .bytes(let text): encoder.encode(text)
        case .int64(let number): encoder.encode(number)
        case .double(let number): try encoder.encode(number)
        case .timestamp(let ms):
            if ms.rounded() == ms && abs(ms) < 9e15 { encoder.encode(Int64(ms)) } else { try encoder.encode(ms) }
        case .reference, .asset, .location: try encoder.encode(jsonValue)
        case .list(_, let elements):
            encoder.beginArray()
            for element in elements { try element.encodeValue(to: &encoder) }
            encoder.endArray()
        }
    }
}

extension Record: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        try encode(to: &encoder, fields: fields)
    }

    /// Writes this record with `fields` in place of its own: typed values (``FieldValue``) are
    /// written without building their `Value` trees, in the same layout.
    package func encode(to encoder: inout WireEncoder, fields: (some WireEncodable)?) throws {
        encoder.beginObject()
        try encoder.member("recordName", recordName)
        try encoder.member("recordType", recordType)
        try encoder.member("recordChangeTag", recordChangeTag)
        try encoder.member("fields", fields)
        try encoder.member("created", created)
        try encoder.member("modified", modified)
        try encoder.member("deleted", deleted)
        try encoder.member("zoneID", zoneID)
        try encoder.member("parent", parent)
        try encoder.member("share", share)
        try encoder.member("shortGUID", shortGUID)
        try encoder.member("createShortGUID", createShortGUID)
        try encoder.member("pluginFields", pluginFields)
        try encoder.member("forRecord", forRecord)
        try encoder.member("publicPermission", publicPermission)
        try encoder.member("participants", participants)
        try encoder.member("owner", owner)
        try encoder.member("currentUserParticipant", currentUserParticipant)
        encoder.endObject()
    }
}

extension RecordStamp: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("timestamp", timestamp)
        try encoder.member("userRecordName", userRecordName)
        try encoder.member("deviceID", deviceID)
        encoder.endObject()
    }
}

extension RecordParent: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("recordName", recordName)
        try encoder.member("zoneID", zoneID)
        encoder.endObject()
    }
}

extension ForRecord: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("recordName", recordName)
        try encoder.member("recordChangeTag", recordChangeTag)
        encoder.endObject()
    }
}

extension RecordError: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("recordName", recordName)
        try encoder.member("reason", reason)
        try encoder.member("serverErrorCode", serverErrorCode)
        try encoder.member("retryAfter", retryAfter)
        try encoder.member("uuid", uuid)
        try encoder.member("redirectURL", redirectURL)
        encoder.endObject()
    }
}

extension ErrorResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("uuid", uuid)
        try encoder.member("serverErrorCode", serverErrorCode)
        try encoder.member("reason", reason)
        try encoder.member("retryAfter", retryAfter)
        try encoder.member("redirectURL", redirectURL)
        encoder.endObject()
    }
}

extension WireResult: WireEncodable where Success: WireEncodable, Failure: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        switch self {
        case .success(let value): try value.encode(to: &encoder)
        case .failure(let error): try error.encode(to: &encoder)
        }
    }
}

extension RecordsResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("records", records)
        encoder.endObject()
    }
}

extension QueryResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("records", records)
        try encoder.member("continuationMarker", continuationMarker)
        encoder.endObject()
    }
}

extension RecordChangesResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("records", records)
        try encoder.member("syncToken", syncToken)
        try encoder.member("moreComing", moreComing)
        try encoder.member("zoneID", zoneID)
        encoder.endObject()
    }
}

extension ZoneChanges: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zoneID", zoneID)
        try encoder.member("syncToken", syncToken)
        try encoder.member("moreComing", moreComing)
        try encoder.member("records", records)
        encoder.endObject()
    }
}

extension ZoneChangesResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zones", zones)
        encoder.endObject()
    }
}

extension DatabaseChangesResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zones", zones)
        try encoder.member("syncToken", syncToken)
        try encoder.member("moreComing", moreComing)
        encoder.endObject()
    }
}
