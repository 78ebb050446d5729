/// `records/query`: `{query, zoneID?, resultsLimit?, continuationMarker?, desiredKeys?, zoneWide?}` → ``QueryResponse``.
public struct QueryRecordsRequest: Sendable, Hashable, Codable {
    public var query: Query
    public var zoneID: RecordZoneID?
    public var resultsLimit: Int?
    public var continuationMarker: String?
    public var desiredKeys: [String]?
    public var zoneWide: Bool?
    public var numbersAsStrings: Bool?

    public init(
        query: Query, zoneID: RecordZoneID? = nil, resultsLimit: Int? = nil, continuationMarker: String? = nil,
        desiredKeys: [String]? = nil, zoneWide: Bool? = nil
    ) {
        self.query = query
        self.zoneID = zoneID
        self.resultsLimit = resultsLimit
        self.continuationMarker = continuationMarker
        self.desiredKeys = desiredKeys
        self.zoneWide = zoneWide
    }
}

/// `{recordType, filterBy?, sortBy?}`.
public struct Query: Sendable, Hashable, Codable {
    public var recordType: String
    public var filterBy: [QueryFilter]?
    public var sortBy: [QuerySort]?

    public init(recordType: String, filterBy: [QueryFilter]? = nil, sortBy: [QuerySort]? = nil) {
        self.recordType = recordType
        self.filterBy = filterBy
        self.sortBy = sortBy
    }
}

/// `{comparator, fieldName, fieldValue: {value, type?}, distance?}`.
public struct QueryFilter: Sendable, Hashable, Codable {
    public var comparator: Comparator
    public var fieldName: String
    public var fieldValue: RecordField
    /// Metres, for `NEAR`.
    public var distance: Double?

    public init(_ comparator: Comparator, _ fieldName: String, _ fieldValue: RecordField, distance: Double? = nil) {
        self.comparator = comparator
        self.fieldName = fieldName
        self.fieldValue = fieldValue
        self.distance = distance
    }
}

/// `{fieldName, ascending?, relativeLocation?}`.
public struct QuerySort: Sendable, Hashable, Codable {
    public var fieldName: String
    public var ascending: Bool?
    /// For a LOCATION field: sort by distance from here.
    public var relativeLocation: RecordField?

    public init(fieldName: String, ascending: Bool? = true) {
        self.fieldName = fieldName
        self.ascending = ascending
    }
}

/// A query comparator (`EQUALS`, `LESS_THAN`, `IN`, `LIST_CONTAINS`, `BEGINS_WITH`, `NEAR`, …).
public struct Comparator: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let equals = Comparator(rawValue: "EQUALS")
    public static let notEquals = Comparator(rawValue: "NOT_EQUALS")
    public static let lessThan = Comparator(rawValue: "LESS_THAN")
    public static let lessThanOrEquals = Comparator(rawValue: "LESS_THAN_OR_EQUALS")
    public static let greaterThan = Comparator(rawValue: "GREATER_THAN")
    public static let greaterThanOrEquals = Comparator(rawValue: "GREATER_THAN_OR_EQUALS")
    public static let near = Comparator(rawValue: "NEAR")
    public static let containsAllTokens = Comparator(rawValue: "CONTAINS_ALL_TOKENS")
    public static let containsAnyTokens = Comparator(rawValue: "CONTAINS_ANY_TOKENS")
    public static let `in` = Comparator(rawValue: "IN")
    public static let notIn = Comparator(rawValue: "NOT_IN")
    public static let listContains = Comparator(rawValue: "LIST_CONTAINS")
    public static let notListContains = Comparator(rawValue: "NOT_LIST_CONTAINS")
    public static let notListContainsAny = Comparator(rawValue: "NOT_LIST_CONTAINS_ANY")
    public static let beginsWith = Comparator(rawValue: "BEGINS_WITH")
    public static let notBeginsWith = Comparator(rawValue: "NOT_BEGINS_WITH")
    public static let listMemberBeginsWith = Comparator(rawValue: "LIST_MEMBER_BEGINS_WITH")
    public static let notListMemberBeginsWith = Comparator(rawValue: "NOT_LIST_MEMBER_BEGINS_WITH")
    public static let listContainsAll = Comparator(rawValue: "LIST_CONTAINS_ALL")
    public static let notListContainsAll = Comparator(rawValue: "NOT_LIST_CONTAINS_ALL")
}

/// `{records, continuationMarker?}`.
public struct QueryResponse: Sendable, Hashable, Codable {
    public var records: [RecordResult]
    public var continuationMarker: String?

    public init(records: [RecordResult], continuationMarker: String?) {
        self.records = records
        self.continuationMarker = continuationMarker
    }
}
