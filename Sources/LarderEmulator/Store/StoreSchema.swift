import GRDB

/// The store's tables, created by a `DatabaseMigrator` (one transaction per migration).
///
/// - `zone`: one row per zone ever created; a deleted zone keeps its row (`isDeleted`) so
///   `changes/database` can report it, and a re-created one gets a new `epoch`, which expires the
///   tokens of its earlier life. `changeSeq` is the zone's monotone change sequence;
///   `databaseSeq` is the global sequence number of its last change.
/// - `record`: the latest version of every record; a deleted record stays as a tombstone
///   (`isDeleted`, fields cleared, parent kept) so change feeds can report it.
/// - `shareMember`: who may see which zone through which share, and when that last changed.
/// - `schemaRecordType` / `schemaField`: the schema per container and environment.
/// - `counter`: named monotone counters.
/// - `subscription`: each user's subscriptions per container, environment and database (the
///   subscription dictionary as JSON); `apnsToken`: the tokens of `tokens/create` and `tokens/register`.
/// - `asset`: one row per stored asset (bytes in ``AssetBlobs`` under the hex SHA-256 `checksum`);
///   `keepUntil` protects a fresh upload until a record claims it (then 0).
/// - `assetUpload`: upload tokens from `assets/upload`; once bytes arrive, the token is the receipt.
/// - `assetRef`: which record field references which asset (refcount; removed with the record).
/// - `recordRef`: the same-zone `DELETE_SELF` and `VALIDATE` references each live record holds
///   (source row, target name, action), so deletes cascade and validate without scanning records.
///   Derived from `record`: not exported; rebuilt by the migration and after an import.
enum StoreSchema {
    /// Tables in dependency order (export, import and reset use it).
    static let dataTables = [
        "counter", "schemaRecordType", "schemaField", "zone", "record", "shareMember", "subscription", "apnsToken",
        "asset", "assetUpload", "assetRef",
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE counter (name TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL);
                    CREATE TABLE schemaRecordType (
                        container TEXT NOT NULL, environment TEXT NOT NULL, recordType TEXT NOT NULL,
                        PRIMARY KEY (container, environment, recordType));
                    CREATE TABLE schemaField (
                        container TEXT NOT NULL, environment TEXT NOT NULL, recordType TEXT NOT NULL,
                        fieldName TEXT NOT NULL, type TEXT NOT NULL,
                        PRIMARY KEY (container, environment, recordType, fieldName));
                    CREATE TABLE zone (
                        id INTEGER PRIMARY KEY,
                        container TEXT NOT NULL, environment TEXT NOT NULL, database TEXT NOT NULL,
                        owner TEXT NOT NULL, name TEXT NOT NULL,
                        epoch INTEGER NOT NULL,
                        changeSeq INTEGER NOT NULL DEFAULT 0,
                        databaseSeq INTEGER NOT NULL DEFAULT 0,
                        isDeleted INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (container, environment, database, owner, name));
                    CREATE TABLE record (
                        id INTEGER PRIMARY KEY,
                        zoneID INTEGER NOT NULL REFERENCES zone(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        type TEXT NOT NULL,
                        changeTag TEXT NOT NULL,
                        changeSeq INTEGER NOT NULL,
                        isDeleted INTEGER NOT NULL DEFAULT 0,
                        fields TEXT NOT NULL DEFAULT '{}',
                        createdAt INTEGER NOT NULL, createdBy TEXT NOT NULL, createdDevice TEXT NOT NULL,
                        modifiedAt INTEGER NOT NULL, modifiedBy TEXT NOT NULL, modifiedDevice TEXT NOT NULL,
                        parent TEXT,
                        shareName TEXT,
                        shortGUID TEXT,
                        share TEXT,
                        UNIQUE (zoneId, name));
                    CREATE INDEX recordChanges ON record (zoneId, changeSeq);
                    CREATE INDEX recordType ON record (zoneId, type, isDeleted);
                    CREATE INDEX recordShortGUID ON record (shortGUID) WHERE shortGUID IS NOT NULL;
                    CREATE TABLE shareMember (
                        zoneID INTEGER NOT NULL REFERENCES zone(id) ON DELETE CASCADE,
                        shareName TEXT NOT NULL,
                        rootRecordName TEXT,
                        userRecordName TEXT NOT NULL,
                        permission TEXT NOT NULL,
                        status TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        PRIMARY KEY (zoneId, shareName, userRecordName));
                    CREATE INDEX shareMemberUser ON shareMember (userRecordName, status);
                    """)
        }
        migrator.registerMigration("subscriptions-and-tokens") { db in
            try db.execute(
                sql: """
                    CREATE TABLE subscription (
                        container TEXT NOT NULL, environment TEXT NOT NULL, database TEXT NOT NULL,
                        owner TEXT NOT NULL, subscriptionID TEXT NOT NULL,
                        body TEXT NOT NULL,
                        createdAt INTEGER NOT NULL, modifiedAt INTEGER NOT NULL,
                        PRIMARY KEY (container, environment, database, owner, subscriptionID));
                    CREATE TABLE apnsToken (
                        container TEXT NOT NULL, environment TEXT NOT NULL,
                        apnsToken TEXT NOT NULL, apnsEnvironment TEXT NOT NULL,
                        owner TEXT NOT NULL DEFAULT '',
                        isRegistered INTEGER NOT NULL DEFAULT 0,
                        createdAt INTEGER NOT NULL,
                        PRIMARY KEY (container, environment, apnsToken, owner));
                    """)
        }
        migrator.registerMigration("v2-assets") { db in
            try db.execute(
                sql: """
                    CREATE TABLE asset (
                        checksum TEXT PRIMARY KEY NOT NULL, size INTEGER NOT NULL, contentType TEXT NOT NULL,
                        keepUntil INTEGER NOT NULL);
                    CREATE TABLE assetUpload (
                        token TEXT PRIMARY KEY NOT NULL,
                        container TEXT NOT NULL, environment TEXT NOT NULL, database TEXT NOT NULL,
                        userRecordName TEXT NOT NULL, recordName TEXT NOT NULL, fieldName TEXT NOT NULL,
                        expiresAt INTEGER NOT NULL, checksum TEXT, wrappingKey TEXT);
                    CREATE TABLE assetRef (
                        recordId INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                        fieldName TEXT NOT NULL, checksum TEXT NOT NULL,
                        PRIMARY KEY (recordId, fieldName, checksum));
                    CREATE INDEX assetRefChecksum ON assetRef (checksum);
                    """)
        }
        migrator.registerMigration("v3-reference-edges") { db in
            try db.execute(
                sql: """
                    CREATE TABLE recordRef (
                        sourceId INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                        zoneId INTEGER NOT NULL,
                        targetName TEXT NOT NULL,
                        action TEXT NOT NULL,
                        PRIMARY KEY (sourceId, targetName, action));
                    CREATE INDEX recordRefTarget ON recordRef (zoneId, targetName, action);
                    """)
            try ReferenceEdges.rebuild(db: db)
        }
        return migrator
    }
}
