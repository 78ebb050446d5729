/// A zone dictionary: `{zoneID, syncToken?, atomic?, deleted?}`.
public struct Zone: Sendable, Hashable, Codable {
    public var zoneID: RecordZoneID
    public var syncToken: String?
    public var atomic: Bool?
    public var deleted: Bool?

    public init(zoneID: RecordZoneID, syncToken: String? = nil, atomic: Bool? = nil, deleted: Bool? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.atomic = atomic
        self.deleted = deleted
    }
}

/// A per-zone error: `{zoneID, reason, serverErrorCode, retryAfter?, uuid}`.
public struct ZoneError: Sendable, Hashable, Codable, Error {
    public var zoneID: RecordZoneID?
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var retryAfter: Int?
    public var uuid: String

    public init(zoneID: RecordZoneID?, serverErrorCode: ServerErrorCode, reason: String, uuid: String) {
        self.zoneID = zoneID
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
    }
}

/// `{zones: [...]}` from zones/list, zones/lookup and zones/modify.
public struct ZonesResponse: Sendable, Hashable, Codable {
    public var zones: [ZoneResult]
    public init(zones: [ZoneResult]) { self.zones = zones }
}

/// `zones/lookup`: `{zones: [zoneID]}`; each item may also be `{zoneID: {...}}`.
public struct ZonesLookupRequest: Sendable, Hashable, Codable {
    public var zones: [ZoneReference]
    public init(zones: [RecordZoneID]) { self.zones = zones.map(ZoneReference.init) }
}

/// A zone named either directly (`{zoneName, ownerRecordName}`) or wrapped (`{zoneID: {...}}`).
public struct ZoneReference: Sendable, Hashable, Codable {
    public var zoneID: RecordZoneID
    public init(_ zoneID: RecordZoneID) { self.zoneID = zoneID }

    private enum CodingKeys: String, CodingKey { case zoneID }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let wrapped = try container.decodeIfPresent(RecordZoneID.self, forKey: .zoneID) {
            zoneID = wrapped
        } else {
            zoneID = try RecordZoneID(from: decoder)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zoneID, forKey: .zoneID)
    }
}

/// `zones/modify`: `{operations: [{operationType: create|delete, zone: {zoneID}}]}`.
public struct ZonesModifyRequest: Sendable, Hashable, Codable {
    public struct Operation: Sendable, Hashable, Codable {
        public var operationType: String
        public var zone: ZoneReference
        public init(operationType: String, zoneID: RecordZoneID) {
            self.operationType = operationType
            zone = ZoneReference(zoneID)
        }
    }

    public var operations: [Operation]
    public init(operations: [Operation]) { self.operations = operations }
}
