import Foundation
import GRDB
public import LarderCore
public import LarderFormats
import LarderRegistry
import LarderSQLite

/// Counts that describe a store: records per type (live, local-only, tombstones and how many
/// still carry data), pending changes, devices, the recipe cache and the history.
public struct StoreStats: Sendable, Hashable, Codable {
    /// Records of one type.
    public struct TypeCounts: Sendable, Hashable, Codable {
        public var type: String
        public var version: Int?
        public var records = 0
        public var live = 0
        public var localOnly = 0
        public var tombstones = 0
        /// Tombstones still holding fields beyond the minimal ones.
        public var fatTombstones = 0
        /// Tombstones the cloud confirmed.
        public var acknowledgedTombstones = 0
        /// Bytes of the record bodies.
        public var bytes = 0
    }

    public var path: String
    public var fileBytes: Int
    public var types: [TypeCounts] = []
    /// Pending changes per kind.
    public var pending: [String: Int] = [:]
    public var devices: [Device] = []
    public var cacheEntries = 0
    public var cacheBytes = 0
    public var cachePinned = 0
    /// Cache entries past their TTL at `now`.
    public var cacheExpired = 0
    public var cacheHits: Int?
    public var cacheMisses: Int?
    /// History rows per kind, and the latest run of each.
    public var history: [String: Int] = [:]
    public var lastRun: [String: String] = [:]

    /// Reads the counts of `store` (one read transaction; O(records) for the tombstone checks).
    public init(store: Store, clock: LarderClock = .system) throws {
        let now = clock.now()
        path = store.path
        do {
            fileBytes = try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int ?? 0
        } catch {
            throw LarderError(
                .io, "\(store.path): cannot read the file's size: \(error.localizedDescription)", underlying: error)
        }
        let minimal = Tombstone.localFieldNames.sorted().map { "'\($0)'" }.joined(separator: ", ")
        var stats = self
        try store.readDatabase { db in
            let versions = Dictionary(
                try Store.states(db).map { ($0.type, $0.version) }, uniquingKeysWith: { a, _ in a })
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT type, count(*) AS records, sum(isDeleted = 0) AS live, sum(isDeleted = 0 AND isCloudEnabled = 0) AS localOnly,
                    sum(isDeleted) AS tombstones, sum(isDeleted = 1 AND cloudAckAt IS NOT NULL) AS acked, sum(length(CAST(body AS BLOB))) AS bytes,
                    sum(isDeleted = 1 AND EXISTS (SELECT 1 FROM json_each(records.body) WHERE key NOT IN (\(minimal)))) AS fat
                    FROM records GROUP BY type ORDER BY type
                    """)
            {
                let type: String = try row.decode(forColumn: "type", in: .recordCounts)
                var counts = TypeCounts(type: type, version: versions[type] ?? nil)
                counts.records = try row.decode(forColumn: "records", in: .recordCounts)
                counts.live = try row.decode(forColumn: "live", in: .recordCounts)
                counts.localOnly = try row.decode(forColumn: "localOnly", in: .recordCounts)
                counts.tombstones = try row.decode(forColumn: "tombstones", in: .recordCounts)
                counts.acknowledgedTombstones = try row.decode(forColumn: "acked", in: .recordCounts)
                counts.bytes = try row.decode(forColumn: "bytes", in: .recordCounts)
                counts.fatTombstones = try row.decode(forColumn: "fat", in: .recordCounts)
                stats.types.append(counts)
            }
            for row in try Row.fetchAll(db, sql: "SELECT kind, count(*) AS n FROM pending_changes GROUP BY kind") {
                stats.pending[try row.decode(forColumn: "kind", in: .pendingCounts)] = try row.decode(
                    forColumn: "n", in: .pendingCounts)
            }
            stats.devices = try SyncState.devices(db)
            let header = try RecipeCacheTable.header(db)
            let entries = try RecipeCacheTable.entries(db)
            stats.cacheEntries = entries.count
            stats.cacheBytes = entries.reduce(0) { $0 + $1.bytes }
            stats.cachePinned = entries.filter(\.isPinned).count
            let plan = CachePruning.plan(entries, header: header, policy: CachePolicy(now: now))
            stats.cacheExpired = plan.evictions.count + plan.pinnedExpired
            stats.cacheHits = header.hits
            stats.cacheMisses = header.misses
            for row in try Row.fetchAll(
                db, sql: "SELECT kind, count(*) AS n, max(applied_at) AS last FROM history GROUP BY kind")
            {
                let kind: String = try row.decode(forColumn: "kind", in: .historyCounts)
                stats.history[kind] = try row.decode(forColumn: "n", in: .historyCounts)
                stats.lastRun[kind] = try row.decode(forColumn: "last", in: .historyCounts)
            }
        }
        self = stats
    }
}

/// Writes a store's records of one type through a record writer, in id order, in batches (memory
/// stays at one batch).
public enum StoreExport {
    /// Streams the records of `type` to `writer` (which it finishes).
    /// - Parameters:
    ///   - store: The store to read.
    ///   - type: The record type.
    ///   - writer: Where the records go; finished at the end.
    ///   - includeTombstones: also write tombstones (as their minimal bodies).
    /// - Returns: the number of records written.
    /// - Throws: ``LarderError``: a stored body that does not parse (naming the record), the
    ///   writer's errors, `store-error` when the database fails.
    public static func write(store: Store, type: String, to writer: any RecordWriter, includeTombstones: Bool = true)
        throws -> Int
    {
        // One read transaction: the export is a consistent snapshot.
        let count = try store.readDatabase { db in
            var count = 0
            var lastID: String?
            while true {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT type, id, body FROM records WHERE type = ? AND (? IS NULL OR id > ?) \(includeTombstones ? "" : "AND isDeleted = 0")
                        ORDER BY id LIMIT 500
                        """,
                    arguments: [type, lastID, lastID])
                guard let last = rows.last else { break }
                lastID = try last.decode(forColumn: "id", in: .records)
                for value in try RecordBodies.parse(batch: rows.map(StoredBody.init(row:))) {
                    try writer.write(value)
                    count += 1
                }
            }
            return count
        }
        try writer.finish()
        return count
    }

    /// The record types the store holds, by name.
    public static func types(store: Store) throws -> [String] {
        try store.readDatabase { db in try String.fetchAll(db, sql: "SELECT DISTINCT type FROM records ORDER BY type") }
    }
}

/// The counting queries of ``StoreStats``: a row per group, named by the group's key.
extension StoredTable {
    fileprivate static let recordCounts = StoredTable("records (counted by type)", key: ["type"])
    fileprivate static let pendingCounts = StoredTable("pending_changes (counted by kind)", key: ["kind"])
    fileprivate static let historyCounts = StoredTable("history (counted by kind)", key: ["kind"])
}
