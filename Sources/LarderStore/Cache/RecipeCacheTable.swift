import Foundation
import GRDB
public import LarderCore
import LarderFormats
import LarderRegistry
import LarderSQLite

/// The recipe cache as tables of the store: `recipe_cache` (one row per entry: the recipe body,
/// fetch and access times, hits, size, pinned), `recipe_cache_pins` (the user's saved and created
/// ids) and `recipe_cache_meta` (the cache's fetch time, TTL and hit/miss counts).
///
/// Pruning reads only the entries' facts (not the bodies), plans with ``CachePruning``, and
/// deletes the evicted rows in one transaction with its history row.
public struct RecipeCacheTable: Sendable {
    /// The store.
    public let store: Store

    /// Creates the cache view of `store`.
    public init(store: Store) {
        self.store = store
    }

    /// Replaces the store's cache with the cache file at `path`, in one transaction (streamed:
    /// one entry in memory at a time).
    ///
    /// An entry's size is its recipe body's.
    /// - Returns: the number of entries loaded.
    /// - Throws: ``LarderError`` for a malformed file (nothing changes then).
    @discardableResult
    public func importFile(path: String, clock: LarderClock = .system) throws -> Int {
        let date = clock.now()
        let started = clock.monotonicSeconds()
        return try store.writeDatabase { db in
            try db.execute(
                sql: "DELETE FROM recipe_cache; DELETE FROM recipe_cache_pins; DELETE FROM recipe_cache_meta")
            let insert = try db.makeStatement(
                sql:
                    "INSERT OR REPLACE INTO recipe_cache (id, body, fetched_at, last_access, hits, bytes, is_pinned, title) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            )
            var count = 0
            let header = try RecipeCacheFile.read(path: path) { value, info, _ in
                let body = try JSONWriter.string(value["recipe"] ?? .null)
                try insert.execute(arguments: [
                    info.id, body, info.fetchedAt, info.lastAccess, info.hits, body.utf8.count, info.isPinned,
                    info.title,
                ])
                count += 1
            }
            for (list, ids) in [("saved", header.pinnedSaved), ("created", header.pinnedCreated)] {
                for id in ids {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO recipe_cache_pins (id, list) VALUES (?, ?)", arguments: [id, list])
                }
            }
            try db.execute(sql: "UPDATE recipe_cache SET is_pinned = 1 WHERE id IN (SELECT id FROM recipe_cache_pins)")
            let meta: [(String, String?)] = [
                ("name", header.name), ("fetched_at", header.fetchedAt.map { String($0.milliseconds) }),
                ("ttl_seconds", header.ttl.map { String($0) }),
                ("hits", header.hits.map(String.init)), ("misses", header.misses.map(String.init)),
            ]
            for case (let key, let value?) in meta {
                try db.execute(
                    sql: "INSERT INTO recipe_cache_meta (key, value) VALUES (?, ?)", arguments: [key, value])
            }
            try Store.recordHistory(
                db, kind: .import, source: "cache import \(path)", appliedAt: date,
                duration: clock.monotonicSeconds() - started, recordsTouched: count,
                success: true, details: "recipe cache")
            return count
        }
    }

    /// The cache's own facts (fetch time, TTL, hit and miss counts).
    public func header() throws -> RecipeCacheFile.Header {
        try store.readDatabase { db in try Self.header(db) }
    }

    static func header(_ db: Database) throws -> RecipeCacheFile.Header {
        let meta = Dictionary(
            try Row.fetchAll(db, sql: "SELECT key, value FROM recipe_cache_meta").map {
                (
                    try $0.decode(String.self, atIndex: 0, in: .recipeCacheMeta),
                    try $0.decode(String.self, atIndex: 1, in: .recipeCacheMeta)
                )
            },
            uniquingKeysWith: { a, _ in a })
        var header = RecipeCacheFile.Header()
        header.name = meta["name"]
        header.fetchedAt = meta["fetched_at"].flatMap(Int64.init).map(Date.init(milliseconds:))
        header.ttl = meta["ttl_seconds"].flatMap(Double.init)
        header.hits = meta["hits"].flatMap(Int.init)
        header.misses = meta["misses"].flatMap(Int.init)
        header.pinnedSaved = try String.fetchAll(
            db, sql: "SELECT id FROM recipe_cache_pins WHERE list = 'saved' ORDER BY id")
        header.pinnedCreated = try String.fetchAll(
            db, sql: "SELECT id FROM recipe_cache_pins WHERE list = 'created' ORDER BY id")
        return header
    }

    /// Every entry's facts, by id.
    public func entries() throws -> [CacheEntryInfo] {
        try store.readDatabase { db in try Self.entries(db) }
    }

    static func entries(_ db: Database) throws -> [CacheEntryInfo] {
        var entries: [CacheEntryInfo] = []
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT id, fetched_at, last_access, bytes, hits, is_pinned, title FROM recipe_cache ORDER BY id")
        while let row = try cursor.next() {
            entries.append(
                CacheEntryInfo(
                    id: try row.decode(atIndex: 0, in: .recipeCache),
                    fetchedAt: try row.decode(atIndex: 1, in: .recipeCache),
                    lastAccess: try row.decode(atIndex: 2, in: .recipeCache),
                    bytes: try row.decode(atIndex: 3, in: .recipeCache),
                    hits: try row.decode(atIndex: 4, in: .recipeCache),
                    isPinned: try row.decode(atIndex: 5, in: .recipeCache),
                    title: try row.decode(atIndex: 6, in: .recipeCache)))
        }
        return entries
    }

    /// Prunes the cache table under `policy` in one transaction (a read transaction for a dry
    /// run), recording the run in the history (not for a dry run).
    public func prune(policy: CachePolicy, isDryRun: Bool = false, clock: LarderClock = .system) throws
        -> CachePruneResult
    {
        let startedAt = clock.now()
        let started = clock.monotonicSeconds()
        let body: (Database) throws -> CachePruneResult = { db in
            let header = try Self.header(db)
            let entries = try Self.entries(db)
            let plan = CachePruning.plan(entries, header: header, policy: policy)
            let result = CachePruneResult(
                plan: plan, entries: entries, hits: header.hits, misses: header.misses, isDryRun: isDryRun)
            guard !isDryRun else { return result }
            let delete = try db.makeStatement(sql: "DELETE FROM recipe_cache WHERE id = ?")
            for eviction in plan.evictions {
                try delete.execute(arguments: [entries[eviction.index].id])
                CrashSwitch.step()
            }
            try Store.recordHistory(
                db, kind: .prune, source: "cache prune --store", appliedAt: startedAt,
                duration: clock.monotonicSeconds() - started,
                recordsTouched: plan.evictions.count, success: true, details: try result.summary.jsonText())
            CrashSwitch.step()
            return result
        }
        return isDryRun ? try store.readDatabase(body) : try store.writeDatabase(body)
    }
}
