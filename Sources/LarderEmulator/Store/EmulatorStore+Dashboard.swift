import GRDB
import LarderCloudKit
import LarderCore
import LarderSQLite

/// The dashboard's reads: zones, a zone's schema, records, one record and the change feed.
///
/// Each method reads one snapshot and answers plain values; no page reads more than one page of
/// rows plus one.
extension EmulatorStore {
    /// The zone with row id `id`, or nil (also for a nil `id`).
    ///
    /// - Throws: ``CloudKitServerError`` `INTERNAL_ERROR` for a damaged row; the store's error.
    func dashboardZone(id: Int64?) async throws -> DashboardZone? {
        try await writer.read { db in try Self.dashboardZone(id: id, db: db) }
    }

    /// The first `limit` zones, by container, environment, database, owner and name (an index scan
    /// of `zone`, never of `record`), and whether more follow.
    ///
    /// - Throws: ``CloudKitServerError`` `INTERNAL_ERROR` for a damaged row; the store's error.
    func zoneSummaries(limit: Int) async throws -> (zones: [ZoneSummary], hasMore: Bool) {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT z.id, z.container, z.environment, z.database, z.owner, z.name, z.changeSeq, z.isDeleted,
                      (SELECT count(*) FROM shareMember s WHERE s.zoneId = z.id AND s.status = 'ACCEPTED') AS members,
                      EXISTS (SELECT 1 FROM record r WHERE r.zoneId = z.id AND r.type = 'cloudkit.share'
                              AND r.isDeleted = 0) AS shared
                    FROM zone z ORDER BY z.container, z.environment, z.database, z.owner, z.name LIMIT ?
                    """, arguments: [limit + 1])
            let zones = try rows.prefix(limit).map { row in
                ZoneSummary(
                    id: try row.decode(atIndex: 0, in: .zone), container: try row.decode(atIndex: 1, in: .zone),
                    environment: try row.decode(atIndex: 2, in: .zone), database: try row.decode(atIndex: 3, in: .zone),
                    owner: try row.decode(atIndex: 4, in: .zone), name: try row.decode(atIndex: 5, in: .zone),
                    changeSeq: try row.decode(atIndex: 6, in: .zone), isDeleted: try row.decode(atIndex: 7, in: .zone),
                    members: try row.decode(atIndex: 8, in: .zone), isShared: try row.decode(atIndex: 9, in: .zone))
            }
            return (zones, rows.count > limit)
        }
    }

    /// The record types of `container` in `environment`, and their fields with types.
    ///
    /// - Throws: ``CloudKitServerError`` `INTERNAL_ERROR` for a damaged row; the store's error.
    func recordTypes(container: String, environment: DatabaseEndpoint.Environment) async throws
        -> [String: [String: FieldType]]
    {
        try await writer.read { db in
            try SchemaResolver(
                container: container, environment: environment.rawValue, isProduction: environment == .production,
                db: db
            ).recordTypes
        }
    }

    /// The zone with row id `id` and its record `name` (live or a tombstone), or nil when either is missing.
    ///
    /// - Throws: ``CloudKitServerError`` `INTERNAL_ERROR` for a damaged row; the store's error.
    func dashboardRecord(zoneID id: Int64?, name: String) async throws -> (zone: DashboardZone, row: RecordRow)? {
        try await writer.read { db in
            guard let zone = try Self.dashboardZone(id: id, db: db),
                let row = try RecordRow.fetch(zoneID: zone.row.id, name: name, in: db)
            else { return nil }
            return (zone, row)
        }
    }

    /// The zone with row id `id` and a page of its change feed, or nil when there is no such zone.
    ///
    /// The page: up to `limit` of the latest changes before change sequence `before` (all when nil),
    /// newest first (a keyset bound on the `(zoneId, changeSeq)` index), and whether older ones follow.
    /// - Throws: ``CloudKitServerError`` `INTERNAL_ERROR` for a damaged row; the store's error.
    func changeFeed(zoneID id: Int64?, before: Int64?, limit: Int) async throws
        -> (zone: DashboardZone, entries: [ChangeFeedEntry], hasMore: Bool)?
    {
        try await writer.read { db in
            guard let zone = try Self.dashboardZone(id: id, db: db) else { return nil }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ChangeFeedEntry.columns) FROM record
                    WHERE zoneId = ? AND changeSeq < ? ORDER BY changeSeq DESC LIMIT ?
                    """, arguments: [zone.row.id, before ?? Int64.max, limit + 1])
            let entries = try rows.prefix(limit).map(ChangeFeedEntry.init(row:))
            return (zone, entries, rows.count > limit)
        }
    }

    /// Up to `limit` live records of `zone` named after `after`, by name (a keyset bound on the
    /// `(zoneId, name)` index), rendered for `call`; `nextAfter` is the bound of the next page, when
    /// there is one.
    ///
    /// - Throws: ``CloudKitServerError`` `INTERNAL_ERROR` for a damaged row; the store's error.
    func recordsByName(
        in zone: ZoneRow, after: String, limit: Int, call: DatabaseOperationContext
    ) async throws -> (records: [Record], nextAfter: String?) {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(RecordRow.columns) FROM record
                    WHERE zoneId = ? AND name > ? AND isDeleted = 0 ORDER BY name LIMIT ?
                    """, arguments: [zone.id, after, limit + 1]
            ).map(RecordRow.init(row:))
            let page = rows.prefix(limit)
            let renderer = RecordRenderer(call: call)
            let records = try page.map { try renderer.record($0, zone: zone, desiredKeys: nil) }
            return (records, rows.count > limit ? page.last?.name : nil)
        }
    }

    /// Starts making, off the caller's path, the indexes `query` can use that are missing
    /// (``QueryIndexes/startBuilding(for:in:)``).
    ///
    /// - Returns: The fields still without an index, and the builds that failed.
    func startBuildingIndexes(for query: Query) -> QueryIndexes.Progress {
        queryIndexes.startBuilding(for: query, in: writer)
    }

    /// Whether `error` is a statement SQLite interrupted (a cancelled read).
    static func isInterruption(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_INTERRUPT
    }

    /// The live zone `name` of `owner` (``DatabaseOperationContext/publicOwner`` in the public
    /// database), or nil.
    func dashboardZone(
        container: String, environment: DatabaseEndpoint.Environment, database: String, owner: String, name: String
    ) async throws -> DashboardZone? {
        try await writer.read { db in
            let id = try Row.fetchOne(
                db,
                sql: """
                    SELECT id FROM zone WHERE container = ? AND environment = ? AND database = ? AND owner = ?
                    AND name = ? AND isDeleted = 0
                    """, arguments: [container, environment.rawValue, database, owner, name]
            ).map { row -> Int64 in try row.decode(atIndex: 0, in: .zone) }
            return try Self.dashboardZone(id: id, db: db)
        }
    }

    /// The zone with row id `id`, read in `db`.
    private static func dashboardZone(id: Int64?, db: Database) throws -> DashboardZone? {
        guard let id,
            let row = try Row.fetchOne(
                db, sql: "SELECT \(ZoneRow.columns), container, environment FROM zone WHERE id = ?", arguments: [id]),
            let environment = DatabaseEndpoint.Environment(rawValue: try row.decode(atIndex: 9, in: .zone))
        else { return nil }
        return DashboardZone(
            row: try ZoneRow(row: row), container: try row.decode(atIndex: 8, in: .zone), environment: environment)
    }
}
