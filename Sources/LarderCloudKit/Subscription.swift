public import LarderCore

/// A subscription dictionary: `{subscriptionID, subscriptionType, query?, zoneID?, zoneWide?, firesOn?,
/// firesOnce?, notificationInfo?}` (WSREF "Subscription Dictionary").
///
/// `query` and `notificationInfo` are kept as the client sent them (a query dictionary and a
/// notification-info dictionary); the server stores subscriptions but never delivers a push.
public struct Subscription: Sendable, Hashable, Codable {
    /// Chosen by the client; the server makes one up on `create` when it is missing.
    public var subscriptionID: String?
    /// `query` or `zone`.
    public var subscriptionType: String
    public var query: Value?
    public var zoneID: RecordZoneID?
    public var zoneWide: Bool?
    /// `create`, `update` and/or `delete` (query subscriptions).
    public var firesOn: [String]?
    public var firesOnce: Bool?
    public var notificationInfo: Value?

    public init(subscriptionID: String?, subscriptionType: String) {
        self.subscriptionID = subscriptionID
        self.subscriptionType = subscriptionType
    }

    private enum CodingKeys: String, CodingKey {
        case subscriptionID, subscriptionType, query, zoneID, zoneWide, firesOn, firesOnce, notificationInfo
    }

    /// Reads a subscription dictionary; `subscriptionType` may be absent (CloudKit JS's
    /// `deleteSubscriptions(id)` sends `{subscriptionID}` alone): it is then empty, which a delete
    /// does not need and a create or update refuses by name.
    public init(from decoder: any Decoder) throws {
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        subscriptionID = try keyed.decodeIfPresent(String.self, forKey: .subscriptionID)
        subscriptionType = try keyed.decodeIfPresent(String.self, forKey: .subscriptionType) ?? ""
        query = try keyed.decodeIfPresent(Value.self, forKey: .query)
        zoneID = try keyed.decodeIfPresent(RecordZoneID.self, forKey: .zoneID)
        zoneWide = try keyed.decodeIfPresent(Bool.self, forKey: .zoneWide)
        firesOn = try keyed.decodeIfPresent([String].self, forKey: .firesOn)
        firesOnce = try keyed.decodeIfPresent(Bool.self, forKey: .firesOnce)
        notificationInfo = try keyed.decodeIfPresent(Value.self, forKey: .notificationInfo)
    }
}

/// A per-subscription error: `{subscriptionID, reason, serverErrorCode, retryAfter?, uuid, redirectURL?}`.
public struct SubscriptionError: Sendable, Hashable, Codable, Error {
    public var subscriptionID: String?
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var retryAfter: Int?
    public var uuid: String
    public var redirectURL: String?

    public init(subscriptionID: String?, serverErrorCode: ServerErrorCode, reason: String, uuid: String) {
        self.subscriptionID = subscriptionID
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
    }
}

/// A subscription or a subscription error.
public typealias SubscriptionResult = WireResult<Subscription, SubscriptionError>

/// `subscriptions/modify`: `{operations: [{operationType: create|update|delete, subscription}]}`.
public struct SubscriptionsModifyRequest: Sendable, Hashable, Codable {
    public struct Operation: Sendable, Hashable, Codable {
        public var operationType: String
        public var subscription: Subscription
        public init(operationType: String, subscription: Subscription) {
            self.operationType = operationType
            self.subscription = subscription
        }
    }

    public var operations: [Operation]
    public init(operations: [Operation]) { self.operations = operations }
}

/// `subscriptions/lookup`: `{subscriptions: [{subscriptionID}]}`.
public struct SubscriptionsLookupRequest: Sendable, Hashable, Codable {
    public struct Item: Sendable, Hashable, Codable {
        public var subscriptionID: String
        public init(subscriptionID: String) { self.subscriptionID = subscriptionID }
    }

    public var subscriptions: [Item]
    public init(subscriptionIDs: [String]) { subscriptions = subscriptionIDs.map(Item.init(subscriptionID:)) }
}

/// `{subscriptions: [subscription or error]}` from subscriptions/list, lookup and modify.
public struct SubscriptionsResponse: Sendable, Hashable, Codable {
    public var subscriptions: [SubscriptionResult]
    public init(subscriptions: [SubscriptionResult]) { self.subscriptions = subscriptions }
}

extension Subscription: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("subscriptionID", subscriptionID)
        try encoder.member("subscriptionType", subscriptionType)
        try encoder.member("query", query)
        try encoder.member("zoneID", zoneID)
        try encoder.member("zoneWide", zoneWide)
        try encoder.member("firesOn", firesOn)
        try encoder.member("firesOnce", firesOnce)
        try encoder.member("notificationInfo", notificationInfo)
        encoder.endObject()
    }
}

extension SubscriptionError: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("subscriptionID", subscriptionID)
        try encoder.member("reason", reason)
        try encoder.member("serverErrorCode", serverErrorCode)
        try encoder.member("retryAfter", retryAfter)
        try encoder.member("uuid", uuid)
        try encoder.member("redirectURL", redirectURL)
        encoder.endObject()
    }
}

extension SubscriptionsModifyRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("operations", operations)
        encoder.endObject()
    }
}

extension SubscriptionsModifyRequest.Operation: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("operationType", operationType)
        try encoder.member("subscription", subscription)
        encoder.endObject()
    }
}

extension SubscriptionsLookupRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("subscriptions", subscriptions)
        encoder.endObject()
    }
}

extension SubscriptionsLookupRequest.Item: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("subscriptionID", subscriptionID)
        encoder.endObject()
    }
}

extension SubscriptionsResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("subscriptions", subscriptions)
        encoder.endObject()
    }
}
