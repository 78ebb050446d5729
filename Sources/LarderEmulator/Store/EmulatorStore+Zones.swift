import GRDB
import LarderCloudKit

/// The zone endpoints' transactions: `zones/list`, `zones/lookup`, `zones/modify`, and the database
/// change feed of `changes/database` and `zones/changes`.
extension EmulatorStore {
    /// The zones of the caller's database (`zones/list`).
    ///
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED`; the store's error.
    func listZones(call: DatabaseOperationContext) async throws -> ZonesResponse {
        try await writer.read { db in try ZoneOperations(call: call).list(db: db) }
    }

    /// The requested zones, each or its `ZONE_NOT_FOUND` (`zones/lookup`).
    ///
    /// - Throws: ``CloudKitServerError`` for a request refused as a whole; the store's error.
    func lookupZones(_ request: ZonesLookupRequest, call: DatabaseOperationContext) async throws -> ZonesResponse {
        try await writer.read { db in try ZoneOperations(call: call).lookup(request, db: db) }
    }

    /// Creates and deletes zones, and releases the assets the deletes orphaned, in one write (`zones/modify`).
    ///
    /// - Throws: ``CloudKitServerError`` for a request refused as a whole; the store's error.
    func modifyZones(_ request: ZonesModifyRequest, call: DatabaseOperationContext) async throws -> ZonesResponse {
        try await writer.write { db in
            let answer = try ZoneOperations(call: call).modify(request, db: db)
            try AssetCatalog.collect(db: db, blobs: blobs, now: call.nowMilliseconds)
            return answer
        }
    }

    /// The zones whose content changed since `syncToken` (`changes/database`, `zones/changes`).
    ///
    /// - Throws: ``CloudKitServerError`` `BAD_REQUEST` or `CHANGE_TOKEN_EXPIRED` for the token; the store's error.
    func databaseChanges(
        syncToken: String?, resultsLimit: Int?, call: DatabaseOperationContext
    ) async throws -> DatabaseChangesResponse {
        try await writer.read { db in
            try DatabaseChanges(call: call).run(syncToken: syncToken, resultsLimit: resultsLimit, db: db)
        }
    }
}
