import Foundation
import GRDB
import LarderCloudKit
import LarderCore

/// `subscriptions/list`, `subscriptions/lookup` and `subscriptions/modify`: each signed-in user's
/// subscriptions per container, environment and database, stored as the subscription dictionary.
///
/// Nothing ever fires: the emulator stores and answers subscriptions but delivers no push
/// notifications.
struct SubscriptionStore {
    let call: DatabaseOperationContext
    let owner: String

    /// - Throws: `AUTHENTICATION_REQUIRED` (with `redirectURL`) when nobody is signed in.
    init(call: DatabaseOperationContext) throws(CloudKitServerError) {
        self.call = call
        owner = try call.requireUser()
    }

    private var scope: StatementArguments { [call.container, call.environment, call.scope.rawValue, owner] }
    private static let whereScope = "container = ? AND environment = ? AND database = ? AND owner = ?"

    /// Every subscription of the caller, oldest first.
    ///
    /// O(n) in the caller's subscriptions.
    func list(db: Database) throws -> SubscriptionsResponse {
        let bodies = try String.fetchAll(
            db, sql: "SELECT body FROM subscription WHERE \(Self.whereScope) ORDER BY rowid",
            arguments: scope)
        return SubscriptionsResponse(subscriptions: try bodies.map { .success(try decode($0)) })
    }

    /// The named subscriptions in request order; a missing one is a `NOT_FOUND` item.
    func lookup(_ ids: [String], db: Database) throws -> SubscriptionsResponse {
        var results: [SubscriptionResult] = []
        for id in ids {
            if let found = try find(id, db: db) {
                results.append(.success(found))
            } else {
                results.append(.failure(error(.notFound, "subscription '\(id)' does not exist", id: id)))
            }
        }
        return SubscriptionsResponse(subscriptions: results)
    }

    /// Applies the operations in order; each answers the subscription (as saved, or as it was
    /// before a delete) or its own error.
    func modify(_ operations: [SubscriptionsModifyRequest.Operation], db: Database) throws -> SubscriptionsResponse {
        guard operations.count <= call.limits.maxOperationsPerRequest else {
            throw call.error(
                .badRequest,
                "\(operations.count) operations in one subscriptions/modify (limit \(call.limits.maxOperationsPerRequest))"
            )
        }
        var results: [SubscriptionResult] = []
        for operation in operations {
            do {
                results.append(.success(try apply(operation, db: db)))
            } catch let failure as SubscriptionError {
                results.append(.failure(failure))
            }
        }
        return SubscriptionsResponse(subscriptions: results)
    }

    private func apply(_ operation: SubscriptionsModifyRequest.Operation, db: Database) throws -> Subscription {
        var subscription = operation.subscription
        switch operation.operationType {
        case "create":
            let id = subscription.subscriptionID ?? call.random.uuid()
            subscription.subscriptionID = id
            try validate(subscription)
            guard try find(id, db: db) == nil else {
                throw error(.exists, "subscription '\(id)' already exists", id: id)
            }
            try db.execute(
                sql: """
                    INSERT INTO subscription (container, environment, database, owner, subscriptionID, body, createdAt, modifiedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: scope + [id, try encode(subscription), call.nowMilliseconds, call.nowMilliseconds])
        case "update":
            let id = try requireID(subscription)
            try validate(subscription)
            guard try find(id, db: db) != nil else {
                throw error(.notFound, "subscription '\(id)' does not exist", id: id)
            }
            try db.execute(
                sql: "UPDATE subscription SET body = ?, modifiedAt = ? WHERE \(Self.whereScope) AND subscriptionID = ?",
                arguments: [try encode(subscription), call.nowMilliseconds] + scope + [id])
        case "delete":
            let id = try requireID(subscription)
            guard let existing = try find(id, db: db) else {
                throw error(.notFound, "subscription '\(id)' does not exist", id: id)
            }
            try db.execute(
                sql: "DELETE FROM subscription WHERE \(Self.whereScope) AND subscriptionID = ?", arguments: scope + [id]
            )
            subscription = existing
        default:
            throw error(
                .badRequest, "operationType '\(operation.operationType)' is not create, update or delete",
                id: subscription.subscriptionID)
        }
        return subscription
    }

    private func requireID(_ subscription: Subscription) throws(SubscriptionError) -> String {
        guard let id = subscription.subscriptionID, !id.isEmpty else {
            throw error(.badRequest, "subscription.subscriptionID is required for update and delete", id: nil)
        }
        return id
    }

    /// The checks Apple's subscription dictionary implies: a known type, a query with a record type
    /// for query subscriptions, known `firesOn` events.
    private func validate(_ subscription: Subscription) throws(SubscriptionError) {
        let id = subscription.subscriptionID
        switch subscription.subscriptionType {
        case "query":
            guard subscription.query?["recordType"]?.stringValue?.isEmpty == false else {
                throw error(.badRequest, "a query subscription needs query.recordType", id: id)
            }
        case "zone":
            guard call.scope != .public else {
                throw error(.badRequest, "zone subscriptions need a custom zone; the public database has none", id: id)
            }
        case "database":
            // CloudKit JS's SubscriptionType has DATABASE (CKDatabaseSubscription natively): every
            // change in the private or shared database.
            guard call.scope != .public else {
                throw error(.badRequest, "database subscriptions watch the private or shared database", id: id)
            }
        default:
            throw error(
                .badRequest, "subscriptionType '\(subscription.subscriptionType)' is not query, zone or database",
                id: id)
        }
        for event in subscription.firesOn ?? [] where !["create", "update", "delete"].contains(event) {
            throw error(.badRequest, "firesOn: '\(event)' is not create, update or delete", id: id)
        }
    }

    private func find(_ id: String, db: Database) throws -> Subscription? {
        guard
            let body = try String.fetchOne(
                db, sql: "SELECT body FROM subscription WHERE \(Self.whereScope) AND subscriptionID = ?",
                arguments: scope + [id])
        else { return nil }
        return try decode(body)
    }

    private func encode(_ subscription: Subscription) throws -> String {
        String(decoding: try WireEncoder.encode(subscription), as: UTF8.self)
    }

    private func decode(_ body: String) throws -> Subscription {
        try WireDecoder(name: "stored subscription").decode(Subscription.self, from: Array(body.utf8))
    }

    private func error(_ code: ServerErrorCode, _ reason: String, id: String?) -> SubscriptionError {
        SubscriptionError(subscriptionID: id, serverErrorCode: code, reason: reason, uuid: call.random.uuid())
    }
}
