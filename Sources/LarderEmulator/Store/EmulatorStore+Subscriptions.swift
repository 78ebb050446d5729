import GRDB
import LarderCloudKit

/// The subscription and APNs token endpoints' transactions: `subscriptions/list`, `subscriptions/lookup`,
/// `subscriptions/modify`, `tokens/create` and `tokens/register`.
extension EmulatorStore {
    /// Every subscription of the signed-in caller in its database (`subscriptions/list`).
    ///
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED` (before reading); the store's error.
    func listSubscriptions(call: DatabaseOperationContext) async throws -> SubscriptionsResponse {
        let subscriptions = try SubscriptionStore(call: call)
        return try await writer.read { db in try subscriptions.list(db: db) }
    }

    /// The caller's subscriptions with the given ids, each or its `NOT_FOUND` (`subscriptions/lookup`).
    ///
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED` (before reading); the store's error.
    func lookupSubscriptions(_ ids: [String], call: DatabaseOperationContext) async throws -> SubscriptionsResponse {
        let subscriptions = try SubscriptionStore(call: call)
        return try await writer.read { db in try subscriptions.lookup(ids, db: db) }
    }

    /// Creates, replaces and deletes the caller's subscriptions in one write (`subscriptions/modify`).
    ///
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED` (before writing) or for a request
    ///   refused as a whole; the store's error.
    func modifySubscriptions(
        _ operations: [SubscriptionsModifyRequest.Operation], call: DatabaseOperationContext
    ) async throws -> SubscriptionsResponse {
        let subscriptions = try SubscriptionStore(call: call)
        return try await writer.write { db in try subscriptions.modify(operations, db: db) }
    }

    /// Makes and remembers an APNs token whose `webcourierURL` starts with `baseURL` (`tokens/create`).
    ///
    /// - Throws: ``CloudKitServerError`` `BAD_REQUEST` for a wrong `apnsEnvironment`; the store's error.
    func createAPNsToken(
        _ request: APNsTokenRequest, baseURL: String, call: DatabaseOperationContext
    ) async throws -> APNsTokenResponse {
        try await writer.write { db in try APNsTokenStore(call: call).create(request, baseURL: baseURL, db: db) }
    }

    /// Registers an APNs token for the caller (`tokens/register`).
    ///
    /// - Throws: ``CloudKitServerError`` `BAD_REQUEST` for a missing or wrong token or environment; the store's error.
    func registerAPNsToken(_ request: APNsTokenRequest, call: DatabaseOperationContext) async throws
        -> APNsTokenResponse
    {
        try await writer.write { db in try APNsTokenStore(call: call).register(request, db: db) }
    }
}
