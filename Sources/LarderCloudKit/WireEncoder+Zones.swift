// The wire encoding of zones, users and shares, in the member order of each type's `Codable`
// conformance (see `WireEncoder`).

extension SharePermission: WireEncodable {}

extension RecordZoneID: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zoneName", zoneName)
        try encoder.member("ownerRecordName", ownerRecordName)
        encoder.endObject()
    }
}

extension ZoneReference: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zoneID", zoneID)
        encoder.endObject()
    }
}

extension Zone: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zoneID", zoneID)
        try encoder.member("syncToken", syncToken)
        try encoder.member("atomic", atomic)
        try encoder.member("deleted", deleted)
        encoder.endObject()
    }
}

extension ZoneError: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zoneID", zoneID)
        try encoder.member("reason", reason)
        try encoder.member("serverErrorCode", serverErrorCode)
        try encoder.member("retryAfter", retryAfter)
        try encoder.member("uuid", uuid)
        encoder.endObject()
    }
}

extension ZonesResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zones", zones)
        encoder.endObject()
    }
}

extension ZonesLookupRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zones", zones)
        encoder.endObject()
    }
}

extension ZonesModifyRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("operations", operations)
        encoder.endObject()
    }
}

extension ZonesModifyRequest.Operation: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("operationType", operationType)
        try encoder.member("zone", zone)
        encoder.endObject()
    }
}

extension CurrentUserResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("userRecordName", userRecordName)
        try encoder.member("firstName", firstName)
        try encoder.member("lastName", lastName)
        try encoder.member("emailAddress", emailAddress)
        encoder.endObject()
    }
}

extension ShareParticipant: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("userIdentity", userIdentity)
        try encoder.member("type", type)
        try encoder.member("permission", permission)
        try encoder.member("acceptanceStatus", acceptanceStatus)
        encoder.endObject()
    }
}

extension UserIdentity: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("userRecordName", userRecordName)
        try encoder.member("lookupInfo", lookupInfo)
        try encoder.member("nameComponents", nameComponents)
        encoder.endObject()
    }
}

extension LookupInfo: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("emailAddress", emailAddress)
        try encoder.member("phoneNumber", phoneNumber)
        try encoder.member("userRecordName", userRecordName)
        encoder.endObject()
    }
}

extension NameComponents: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("givenName", givenName)
        try encoder.member("familyName", familyName)
        encoder.endObject()
    }
}

extension ShareMetadata: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("shortGUID", shortGUID)
        try encoder.member("containerIdentifier", containerIdentifier)
        try encoder.member("environment", environment)
        try encoder.member("databaseScope", databaseScope)
        try encoder.member("zoneID", zoneID)
        try encoder.member("share", share)
        try encoder.member("rootRecordName", rootRecordName)
        try encoder.member("rootRecord", rootRecord)
        try encoder.member("participantStatus", participantStatus)
        try encoder.member("participantPermission", participantPermission)
        try encoder.member("participantType", participantType)
        try encoder.member("ownerIdentity", ownerIdentity)
        encoder.endObject()
    }
}

extension ShareMetadataResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("results", results)
        encoder.endObject()
    }
}
