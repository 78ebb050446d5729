import Foundation
import GRDB
package import LarderCloudKit
import LarderCore

/// The emulator's SQLite store: a GRDB `DatabasePool` (WAL) in a folder, or an in-memory queue.
///
/// Every request runs in one transaction: `write` for modifying endpoints, `read` (a snapshot)
/// for the others. The pool is the synchronisation point; no actor wraps it.
package struct EmulatorStore: Sendable {
    /// The database.
    let writer: any DatabaseWriter
    /// The expression indexes made for queries so far.
    let queryIndexes = QueryIndexes()
    /// The asset bytes (files under the data folder, or memory).
    let blobs: AssetBlobs

    /// Opens (creating and migrating) the store in `directory`, or in memory when nil.
    /// - Throws: ``LarderError`` `store-error`.
    package init(directory: String?) throws {
        blobs = AssetBlobs(directory: directory)
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // Checkpoint every 32 MiB of WAL instead of SQLite's 4 MiB: a bulk upload rewrites
                // the same index and tree pages request after request, and each checkpoint copies
                // them to the database and syncs it.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 8192")
            }
            configuration.busyMode = .timeout(10)
            if let directory {
                // Owner only, whatever the umask: SQLite gives the -wal and -shm files the database's mode.
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                _ = chmod(directory, 0o700)
                let path = (directory as NSString).appendingPathComponent("emulator.sqlite")
                let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
                if descriptor >= 0 {
                    _ = fchmod(descriptor, 0o600)
                    close(descriptor)
                }
                writer = try DatabasePool(path: path, configuration: configuration)
                for suffix in ["", "-wal", "-shm"] { PrivateFile.restrict(path + suffix) }
            } else {
                writer = try DatabaseQueue(configuration: configuration)
            }
            try StoreSchema.migrator.migrate(writer)
        } catch {
            throw LarderError(.store, "cannot open the emulator store: \(error)", underlying: error)
        }
    }

    /// Seeds the declared schema for every container, in both environments.
    package func seed(schema: [String: [String: FieldType]], containers: [String]) throws {
        guard !schema.isEmpty else { return }
        try writer.write { db in
            for container in containers {
                for environment in ["development", "production"] {
                    for (recordType, fields) in schema {
                        try db.execute(
                            sql:
                                "INSERT OR IGNORE INTO schemaRecordType (container, environment, recordType) VALUES (?, ?, ?)",
                            arguments: [container, environment, recordType])
                        for (field, type) in fields {
                            try db.execute(
                                sql: """
                                    INSERT OR IGNORE INTO schemaField (container, environment, recordType, fieldName, type)
                                    VALUES (?, ?, ?, ?, ?)
                                    """,
                                arguments: [container, environment, recordType, field, type.canonical.rawValue])
                        }
                    }
                }
            }
        }
    }

    /// Deletes every record, zone, share membership, schema entry and asset (with its bytes).
    ///
    /// The change counter keeps counting, so tokens handed out before the reset are expired afterwards.
    package func reset() throws {
        try writer.write { db in
            for table in StoreSchema.dataTables.reversed() where table != "counter" {
                try db.execute(sql: "DELETE FROM \(table)")
            }
            try Counter.next("storeEpoch", in: db)
            blobs.removeAll()
        }
    }
}

/// Named monotone counters (the global change sequence, the store's epoch).
enum Counter {
    @discardableResult
    static func next(_ name: String, in db: Database, by amount: Int64 = 1) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO counter (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + ?",
            arguments: [name, amount, amount])
        return try Int64.fetchOne(db, sql: "SELECT value FROM counter WHERE name = ?", arguments: [name]) ?? amount
    }

    static func current(_ name: String, in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM counter WHERE name = ?", arguments: [name]) ?? 0
    }
}
