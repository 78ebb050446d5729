import GRDB

/// The store tables store maintenance adds, as table migrations after `larder-store-1`.
///
/// `larder-store-2` adds the sync state and the recipe cache:
/// - `records.cloudAckTag` / `records.cloudAckAt`: what the cloud last confirmed for the record's
///   name (its change tag and the cloud time of the confirmation, in milliseconds since 1970).
///   For a local-only record this is the cloud's tombstone, never the local data.
/// - `devices`: every device of the sync group this store knows, with its sync watermark (the
///   cloud time it has fetched changes up to), when it was last seen, and whether it expired.
/// - `pending_changes`: one change per record waiting for the cloud (save, tombstone, cloud
///   re-enable, or the purge of a compacted tombstone).
/// - `sync_meta`: small key/value facts (the device registry tag the devices table reflects).
/// - `recipe_cache`, `recipe_cache_pins`, `recipe_cache_meta`: the SnapChef-style recipe cache.
///
/// Times in these tables are integers (milliseconds since 1970) so they compare in SQL.
enum MaintenanceTables {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("larder-store-2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE records ADD COLUMN cloudAckTag TEXT;
                    ALTER TABLE records ADD COLUMN cloudAckAt INTEGER;
                    CREATE INDEX records_tombstones ON records(isDeleted) WHERE isDeleted = 1;
                    CREATE TABLE devices (
                        id TEXT PRIMARY KEY, name TEXT NOT NULL, watermark INTEGER, last_seen INTEGER NOT NULL,
                        is_expired INTEGER NOT NULL DEFAULT 0, expired_at INTEGER, epoch INTEGER NOT NULL DEFAULT 0,
                        is_self INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE pending_changes (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, id TEXT NOT NULL, record_name TEXT NOT NULL,
                        kind TEXT NOT NULL, payload TEXT, base_tag TEXT, registry_tag TEXT, created_at INTEGER NOT NULL,
                        UNIQUE (type, id));
                    CREATE TABLE sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE recipe_cache (
                        id TEXT PRIMARY KEY, title TEXT, body TEXT NOT NULL, fetched_at INTEGER, last_access INTEGER, hits INTEGER,
                        bytes INTEGER NOT NULL, is_pinned INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE recipe_cache_pins (id TEXT NOT NULL, list TEXT NOT NULL, PRIMARY KEY (id, list));
                    CREATE TABLE recipe_cache_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    """)
        }
    }
}
