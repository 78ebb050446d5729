import GRDB
package import LarderCloudKit

/// The store's entry points that block instead of suspending, for callers outside Swift concurrency:
/// the emulator's start and state import, and the `ck-query` fuzz target (LarderEmulatorFuzzing).
extension EmulatorStore {
    /// Creates the default zones `configuration` implies that are missing: the public database's,
    /// and each configured user's private one, in every container and both environments.
    ///
    /// Read-only requests then never need to create them.
    /// - Throws: The store's error.
    package func ensureDefaultZones(configuration: EmulatorConfiguration) throws {
        try writer.write { db in try DefaultZones.ensure(configuration: configuration, db: db) }
    }

    /// Applies a `records/modify` request in one write, as the route does but without collecting
    /// orphaned assets or fault rules (fixtures).
    ///
    /// - Returns: Each operation's record, tombstone or error.
    /// - Throws: ``CloudKitServerError`` for a request refused as a whole; the store's error.
    @discardableResult
    package func modifyRecords(_ request: ModifyRecordsRequest, call: DatabaseOperationContext) throws
        -> RecordsResponse
    {
        try writer.write { db in try ModifyRecords(call: call, request: request).run(db: db) }
    }

    /// Makes the indexes the query's filters and sorts name (unchecked, each valid field name), then
    /// runs it in a read snapshot: every SQL statement a caller's query can reach, without suspending.
    ///
    /// - Returns: One page of matching records and the marker of the next.
    /// - Throws: ``CloudKitServerError`` for a refused query; any other error is SQL that failed.
    package func indexAndQuery(_ request: QueryRecordsRequest, call: DatabaseOperationContext) throws
        -> QueryResponse
    {
        try queryIndexes.ensure(for: request.query, in: writer)
        return try writer.read { db in try QueryRecords(call: call, request: request).run(db: db) }
    }
}
