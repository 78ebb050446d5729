/// `changes/database` and the deprecated `zones/changes`: `{syncToken?, resultsLimit?}`.
public struct DatabaseChangesRequest: Sendable, Hashable, Codable {
    public var syncToken: String?
    public var resultsLimit: Int?
    public init(syncToken: String? = nil, resultsLimit: Int? = nil) {
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
    }
}

/// `{zones, syncToken, moreComing}`.
public struct DatabaseChangesResponse: Sendable, Hashable, Codable {
    public var zones: [Zone]
    public var syncToken: String
    public var moreComing: Bool
    public init(zones: [Zone], syncToken: String, moreComing: Bool) {
        self.zones = zones
        self.syncToken = syncToken
        self.moreComing = moreComing
    }
}

/// `changes/zone`: `{zones: [options]}`; the optional keys may also be given at the top level.
public struct ZoneChangesRequest: Sendable, Hashable, Codable {
    public struct Options: Sendable, Hashable, Codable {
        public var zoneID: RecordZoneID
        public var syncToken: String?
        public var resultsLimit: Int?
        public var desiredKeys: [String]?
        public var desiredRecordTypes: [String]?
        public var reverse: Bool?
        public var numbersAsStrings: Bool?
        public init(zoneID: RecordZoneID, syncToken: String? = nil, resultsLimit: Int? = nil) {
            self.zoneID = zoneID
            self.syncToken = syncToken
            self.resultsLimit = resultsLimit
        }
    }

    public var zones: [Options]
    public var resultsLimit: Int?
    public var desiredKeys: [String]?
    public var desiredRecordTypes: [String]?
    public var reverse: Bool?
    public var numbersAsStrings: Bool?
    public init(zones: [Options]) { self.zones = zones }
}

/// One zone's answer in `changes/zone`: `{zoneID, syncToken, moreComing, records}`.
public struct ZoneChanges: Sendable, Hashable, Codable {
    public var zoneID: RecordZoneID
    public var syncToken: String
    public var moreComing: Bool
    public var records: [RecordResult]
    public init(zoneID: RecordZoneID, syncToken: String, moreComing: Bool, records: [RecordResult]) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.moreComing = moreComing
        self.records = records
    }
}

/// `{zones: [zone changes or zone error]}`.
public struct ZoneChangesResponse: Sendable, Hashable, Codable {
    public var zones: [ZoneChangesResult]
    public init(zones: [ZoneChangesResult]) { self.zones = zones }
}

/// The older `records/changes`: `{zoneID, syncToken?, resultsLimit?, desiredKeys?}`.
public struct RecordChangesRequest: Sendable, Hashable, Codable {
    public var zoneID: RecordZoneID?
    public var syncToken: String?
    public var resultsLimit: Int?
    public var desiredKeys: [String]?
    public var desiredRecordTypes: [String]?
    public var numbersAsStrings: Bool?
    public init(zoneID: RecordZoneID? = nil, syncToken: String? = nil, resultsLimit: Int? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
    }
}

/// `{records, syncToken, moreComing, zoneID}`.
public struct RecordChangesResponse: Sendable, Hashable, Codable {
    public var records: [RecordResult]
    public var syncToken: String
    public var moreComing: Bool
    public var zoneID: RecordZoneID
    public init(records: [RecordResult], syncToken: String, moreComing: Bool, zoneID: RecordZoneID) {
        self.records = records
        self.syncToken = syncToken
        self.moreComing = moreComing
        self.zoneID = zoneID
    }
}

/// `users/current`: `{userRecordName, firstName?, lastName?, emailAddress?}`.
public struct CurrentUserResponse: Sendable, Hashable, Codable {
    public var userRecordName: String
    public var firstName: String?
    public var lastName: String?
    public var emailAddress: String?
    public init(userRecordName: String, firstName: String? = nil, lastName: String? = nil, emailAddress: String? = nil)
    {
        self.userRecordName = userRecordName
        self.firstName = firstName
        self.lastName = lastName
        self.emailAddress = emailAddress
    }
}

/// `records/accept` and `records/resolve`: `{shortGUIDs: [{value, shouldFetchRootRecord?}]}`.
public struct ShortGUIDsRequest: Sendable, Hashable, Codable {
    public struct ShortGUID: Sendable, Hashable, Codable {
        public var value: String
        public var shouldFetchRootRecord: Bool?
        public init(value: String, shouldFetchRootRecord: Bool? = nil) {
            self.value = value
            self.shouldFetchRootRecord = shouldFetchRootRecord
        }
    }

    public var shortGUIDs: [ShortGUID]
    public init(shortGUIDs: [String]) { self.shortGUIDs = shortGUIDs.map { ShortGUID(value: $0) } }
}

/// One accepted or resolved share: `{shortGUID, containerIdentifier, environment, databaseScope, zoneID, share,
/// rootRecordName, rootRecord?, participantStatus, participantPermission, participantType, ownerIdentity}`.
public struct ShareMetadata: Sendable, Hashable, Codable {
    public var shortGUID: String
    public var containerIdentifier: String
    public var environment: String
    public var databaseScope: String
    public var zoneID: RecordZoneID
    public var share: Record
    public var rootRecordName: String?
    public var rootRecord: Record?
    public var participantStatus: String?
    public var participantPermission: SharePermission?
    public var participantType: String?
    public var ownerIdentity: UserIdentity?

    public init(
        shortGUID: String, containerIdentifier: String, environment: String, zoneID: RecordZoneID, share: Record
    ) {
        self.shortGUID = shortGUID
        self.containerIdentifier = containerIdentifier
        self.environment = environment
        self.databaseScope = "PRIVATE"
        self.zoneID = zoneID
        self.share = share
    }
}

/// `{results: [...]}` from records/accept and records/resolve.
public struct ShareMetadataResponse: Sendable, Hashable, Codable {
    public var results: [ShareMetadataResult]
    public init(results: [ShareMetadataResult]) { self.results = results }
}
