import GRDB
import LarderCloudKit

/// The record endpoints' transactions: `records/modify`, `records/query`, `records/lookup`,
/// `records/changes`, `changes/zone`, `records/accept` and `records/resolve`.
///
/// Each method is one transaction (a write, or a read snapshot), so a route never holds the database.
extension EmulatorStore {
    /// Applies a `records/modify` request and releases the assets it orphaned, in one write.
    ///
    /// - Parameters:
    ///   - request: The decoded request body.
    ///   - call: The request's context.
    ///   - forcedConflict: A fault rule makes every operation fail with `CONFLICT`.
    /// - Returns: Each operation's record, tombstone or error.
    /// - Throws: ``CloudKitServerError`` for a request refused as a whole; the store's error.
    func modifyRecords(
        _ request: ModifyRecordsRequest, call: DatabaseOperationContext, forcedConflict: Bool
    ) async throws -> RecordsResponse {
        try await writer.write { [blobs] db in
            var operation = ModifyRecords(call: call, request: request)
            operation.forcedConflict = forcedConflict
            let answer = try operation.run(db: db)
            try AssetCatalog.collect(db: db, blobs: blobs, now: call.nowMilliseconds)
            return answer
        }
    }

    /// Makes the indexes a `records/query` request can use, once it has been checked.
    ///
    /// Indexes only for a query the caller may run, on fields the schema has (a refused query left a
    /// lasting index on the shared record table before).
    /// - Throws: ``CloudKitServerError`` for a query ``query(_:call:)`` would refuse; the store's error.
    func ensureQueryIndexes(for request: QueryRecordsRequest, call: DatabaseOperationContext) async throws {
        let fields = try await writer.read { db in
            try QueryRecords(call: call, request: request).indexableFields(db: db)
        }
        try await queryIndexes.ensure(fields: fields, in: writer)
    }

    /// Runs a `records/query` request in a read snapshot (no index is made).
    ///
    /// - Returns: One page of matching records and the marker of the next.
    /// - Throws: ``CloudKitServerError`` for a refused query; the store's error.
    func query(_ request: QueryRecordsRequest, call: DatabaseOperationContext) async throws -> QueryResponse {
        try await writer.read { db in try QueryRecords(call: call, request: request).run(db: db) }
    }

    /// Answers a `records/lookup` request.
    ///
    /// - Returns: Each requested record, or its `NOT_FOUND`.
    /// - Throws: ``CloudKitServerError`` for a request refused as a whole; the store's error.
    func lookupRecords(_ request: LookupRecordsRequest, call: DatabaseOperationContext) async throws -> RecordsResponse
    {
        try await writer.read { db in try LookupRecords(call: call, request: request).run(db: db) }
    }

    /// A page of one zone's change feed, for `records/changes`.
    ///
    /// - Returns: The changed records and the token after them.
    /// - Throws: ``CloudKitServerError`` `ZONE_NOT_FOUND`, `BAD_REQUEST` or `CHANGE_TOKEN_EXPIRED`; the store's error.
    func recordChanges(_ request: RecordChangesRequest, call: DatabaseOperationContext) async throws
        -> RecordChangesResponse
    {
        try await writer.read { db in
            let page = try RecordChanges(call: call).page(
                zoneID: request.zoneID, syncToken: request.syncToken, resultsLimit: request.resultsLimit,
                desiredKeys: request.desiredKeys, recordTypes: request.desiredRecordTypes, db: db)
            return RecordChangesResponse(
                records: page.records, syncToken: page.syncToken, moreComing: page.moreComing,
                zoneID: page.zone.zoneID)
        }
    }

    /// A page of each requested zone's change feed, for `changes/zone`, in one read snapshot.
    ///
    /// A zone that cannot be read answers with its own error; the others still answer.
    /// - Parameters:
    ///   - request: The decoded request body.
    ///   - call: The request's context.
    ///   - forceTokenExpired: A fault rule makes every zone answer `CHANGE_TOKEN_EXPIRED`.
    /// - Returns: Each zone's changes, or its error.
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED`; the store's error.
    func zoneChanges(
        _ request: ZoneChangesRequest, call: DatabaseOperationContext, forceTokenExpired: Bool
    ) async throws -> ZoneChangesResponse {
        try await writer.read { db in
            var results: [ZoneChangesResult] = []
            for options in request.zones {
                if forceTokenExpired {
                    results.append(
                        .error(
                            call.error(.changeTokenExpired, "the sync token has expired (emulator fault rule)")
                                .zoneError(zoneID: options.zoneID)))
                    continue
                }
                do {
                    let page = try RecordChanges(call: call).page(
                        zoneID: options.zoneID, syncToken: options.syncToken,
                        resultsLimit: options.resultsLimit ?? request.resultsLimit,
                        desiredKeys: options.desiredKeys ?? request.desiredKeys,
                        recordTypes: options.desiredRecordTypes ?? request.desiredRecordTypes,
                        reverse: options.reverse ?? request.reverse ?? false, db: db)
                    results.append(
                        .changes(
                            ZoneChanges(
                                zoneID: page.zone.zoneID, syncToken: page.syncToken, moreComing: page.moreComing,
                                records: page.records)))
                } catch let error as CloudKitServerError where error.code != .authenticationRequired {
                    results.append(.error(error.zoneError(zoneID: options.zoneID)))
                }
            }
            return ZoneChangesResponse(zones: results)
        }
    }

    /// Joins the caller to the shares named by short GUID (`records/accept`), in one write.
    ///
    /// - Returns: Each share's metadata, or its error.
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED`; the store's error.
    func acceptShares(_ request: ShortGUIDsRequest, call: DatabaseOperationContext) async throws
        -> ShareMetadataResponse
    {
        try await writer.write { db in try ShareOperations(call: call).run(request, accept: true, db: db) }
    }

    /// Finds the shares named by short GUID without joining them (`records/resolve`).
    ///
    /// - Returns: Each share's metadata, or its error.
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED`; the store's error.
    func resolveShares(_ request: ShortGUIDsRequest, call: DatabaseOperationContext) async throws
        -> ShareMetadataResponse
    {
        try await writer.read { db in try ShareOperations(call: call).run(request, accept: false, db: db) }
    }
}
