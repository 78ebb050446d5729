import Foundation
import GRDB
public import LarderCore
import LarderFormats
import LarderRegistry
import LarderSQLite

/// What kind of run a history row records.
///
/// The store-maintenance commands record their runs here too (`compaction`, `prune`), next to the migrations.
public struct HistoryKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A migration step, up or down.
    public static let migration = HistoryKind(rawValue: "migration")
    /// A type adopted at a version (`larder schema baseline`).
    public static let baseline = HistoryKind(rawValue: "baseline")
    /// The ledger realigned with the registry (`larder schema repair`).
    public static let repair = HistoryKind(rawValue: "repair")
    /// Records loaded (`larder store import`).
    public static let `import` = HistoryKind(rawValue: "import")
    /// Tombstones compacted (store maintenance).
    public static let compaction = HistoryKind(rawValue: "compaction")
    /// Cache entries pruned (store maintenance).
    public static let prune = HistoryKind(rawValue: "prune")
}

/// One row of the store's history table.
public struct HistoryEntry: Sendable, Hashable {
    public var rank: Int64
    public var kind: HistoryKind
    public var type: String?
    public var stepID: String?
    public var direction: String?
    public var fromVersion: Int?
    public var toVersion: Int?
    public var checksum: String?
    public var source: String?
    public var appliedAt: String
    public var durationMilliseconds: Int
    public var recordsTouched: Int
    public var isSuccess: Bool
    public var isRemoved: Bool
    public var details: String?

    /// Reads a `SELECT * FROM history` row.
    /// - Throws: ``StoredValueError`` naming the column whose value is not what it must hold.
    init(row: Row) throws {
        rank = try row.decode(forColumn: "rank", in: .history)
        kind = HistoryKind(rawValue: try row.decode(forColumn: "kind", in: .history))
        type = try row.decode(forColumn: "type", in: .history)
        stepID = try row.decode(forColumn: "step_id", in: .history)
        direction = try row.decode(forColumn: "direction", in: .history)
        fromVersion = try row.decode(forColumn: "from_version", in: .history)
        toVersion = try row.decode(forColumn: "to_version", in: .history)
        checksum = try row.decode(forColumn: "checksum", in: .history)
        source = try row.decode(forColumn: "source", in: .history)
        appliedAt = try row.decode(forColumn: "applied_at", in: .history)
        durationMilliseconds = try row.decode(forColumn: "duration_ms", in: .history)
        recordsTouched = try row.decode(forColumn: "records_touched", in: .history)
        isSuccess = try row.decode(forColumn: "success", in: .history)
        isRemoved = try row.decode(forColumn: "is_removed", in: .history)
        details = try row.decode(forColumn: "details", in: .history)
    }
}

/// A type's schema state in the store: its version and, between the steps of a transition,
/// how far the transition got.
public struct SchemaState: Sendable, Hashable {
    /// The type.
    public var type: String
    /// The version every record of the type is at (`nil`: not adopted yet, see baseline).
    public var version: Int?
    /// The transition in progress, when a run stopped between its steps.
    public var pendingFrom: Int?
    public var pendingTo: Int?
    /// Steps of the pending transition already committed.
    public var stepsDone: Int
}

/// A Larder store: an SQLite database holding records, their images, rejected records, each
/// type's schema version and the history of every step applied to it.
///
/// GRDB is an implementation detail: the API speaks Larder types (``StoredRecord``,
/// ``SchemaState``, ``HistoryEntry``, `Value` records), and callers that need several operations
/// in one transaction get a ``StoreTransaction`` from ``read(_:)`` or ``write(_:)``. The store's
/// own tables are created and upgraded by table migrations (`larder-store-1`, `larder-store-2`,
/// …); a store written by a newer larder (with table migrations this one does not know) is
/// refused.
///
/// ```swift
/// let store = try Store(path: "larder.db", create: true)
/// let recipes = StoreRecordReader(store: store, type: "recipe")
/// while let item = try recipes.next() { print(item.value["title"] ?? .null) }
/// ```
public final class Store: Sendable {
    /// The database file.
    public let path: String
    /// The database.
    let database: DatabaseQueue

    /// The store's table layout, one registered migration per revision.
    ///
    /// Store maintenance adds its tables (tombstones, devices, pending changes, cache) as `larder-store-2` and on.
    static var tableMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("larder-store-1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE records (
                        type TEXT NOT NULL, id TEXT NOT NULL, version INTEGER, body TEXT NOT NULL,
                        recordName TEXT, isCloudEnabled INTEGER NOT NULL DEFAULT 1, isDeleted INTEGER NOT NULL DEFAULT 0,
                        deletedAt TEXT, changeTag TEXT, updatedAt TEXT,
                        PRIMARY KEY (type, id));
                    CREATE TABLE schema_state (
                        type TEXT PRIMARY KEY, version INTEGER, pending_from INTEGER, pending_to INTEGER,
                        steps_done INTEGER NOT NULL DEFAULT 0, updated_at TEXT NOT NULL);
                    CREATE TABLE history (
                        rank INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, type TEXT, step_id TEXT, direction TEXT,
                        from_version INTEGER, to_version INTEGER, checksum TEXT, source TEXT, applied_at TEXT NOT NULL,
                        duration_ms INTEGER NOT NULL DEFAULT 0, records_touched INTEGER NOT NULL DEFAULT 0,
                        success INTEGER NOT NULL, is_removed INTEGER NOT NULL DEFAULT 0, details TEXT);
                    CREATE TABLE images (
                        ref TEXT PRIMARY KEY, type TEXT NOT NULL, record_id TEXT NOT NULL, mime TEXT NOT NULL, data BLOB NOT NULL);
                    CREATE TABLE rejects (
                        rank INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, id TEXT, version INTEGER, body TEXT NOT NULL,
                        reason TEXT NOT NULL, step_id TEXT, rejected_at TEXT NOT NULL);
                    """)
        }
        MaintenanceTables.register(in: &migrator)
        return migrator
    }

    /// Opens (and with `create`, creates) the store at `path`.
    /// - Throws: ``LarderError`` `io-error` when there is no store and `create` is false,
    ///   `store-error` when the file is not a Larder store or was written by a newer larder.
    public init(path: String, create: Bool = false) throws {
        self.path = path
        if !create && !FileManager.default.fileExists(atPath: path) {
            throw LarderError(.io, "no store at \(path) (create one with `larder store import FILES --store \(path)`)")
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            database = try DatabaseQueue(path: path, configuration: configuration)
            let migrator = Self.tableMigrator
            let (isSuperseded, isForeign) = try database.read { db in
                // Tables but no Larder revision: another program's database, left untouched.
                let tables = try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
                let isForeign = !tables.isEmpty && !tables.contains("grdb_migrations")
                return (isForeign ? false : try migrator.hasBeenSuperseded(db), isForeign)
            }
            if isForeign {
                throw LarderError(
                    .store,
                    "\(path) is not a Larder store (an SQLite database of another program; its tables were left as they are)"
                )
            }
            if isSuperseded {
                throw LarderError(
                    .store,
                    "\(path) was written by a newer larder (its tables have revisions this one does not know); upgrade larder to use it"
                )
            }
            try migrator.migrate(database)
            CommitFault.install(on: database, path: path)
        } catch let error as LarderError {
            throw error
        } catch {
            throw Self.storeError(path: path, error, doing: "cannot open the store")
        }
    }

    /// A database error as a `store-error` naming the file, in plain words; the SQLite message
    /// stays as the ``LarderError/underlying`` error.
    static func storeError(path: String, _ error: any Error, doing action: String) -> LarderError {
        if let problem = error as? StoredValueError {
            return LarderError(
                .store,
                "\(path): \(problem); the store is damaged or was edited by hand: restore it from a backup, or correct the value",
                underlying: error)
        }
        guard let database = error as? DatabaseError else {
            return LarderError(.store, "\(path): \(action): \(error)", underlying: error)
        }
        let detail = database.message.map { " (SQLite: \($0))" } ?? ""
        let message: String
        switch database.resultCode {
        case .SQLITE_NOTADB: message = "\(path) is not a Larder store (not an SQLite database)"
        case .SQLITE_CORRUPT:
            message = "\(path) is damaged: SQLite finds its contents malformed; restore it from a backup\(detail)"
        case .SQLITE_CANTOPEN:
            message = "\(path): the store cannot be opened (a missing folder, or no permission)\(detail)"
        case .SQLITE_READONLY: message = "\(path): the store is read-only; larder needs to write to it\(detail)"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            message = "\(path): the store is locked by another process; try again when it is done\(detail)"
        case .SQLITE_FULL: message = "\(path): the disk is full\(detail)"
        case .SQLITE_IOERR: message = "\(path): reading or writing the store failed\(detail)"
        default: message = "\(path): \(action)\(detail)"
        }
        return LarderError(.store, message, underlying: error)
    }

    /// Runs `body` in one write transaction: everything it does commits together, or nothing
    /// does when it throws.
    ///
    /// The transaction is valid only inside `body`.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws; ``LarderError`` `store-error` (naming the file, in plain
    ///   words) when the database fails.
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try writeDatabase { db in try body(StoreTransaction(db: db, path: path)) }
    }

    /// Runs `body` in one read transaction (a consistent snapshot; writes fail).
    /// - Throws: what `body` throws; ``LarderError`` `store-error` when the database fails.
    public func read<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try readDatabase { db in try body(StoreTransaction(db: db, path: path)) }
    }

    /// ``write(_:)`` with the GRDB connection, for the store's own operations.
    func writeDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.write(body)
        } catch let error as LarderError {
            throw error
        } catch {
            throw Self.storeError(path: path, error, doing: "the write failed")
        }
    }

    /// ``read(_:)`` with the GRDB connection, for the store's own operations.
    func readDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch let error as LarderError {
            throw error
        } catch {
            throw Self.storeError(path: path, error, doing: "the read failed")
        }
    }

    // MARK: State and history

    /// Every type's schema state.
    public func schemaStates() throws -> [SchemaState] {
        try readDatabase { db in try Self.states(db) }
    }

    static func states(_ db: Database) throws -> [SchemaState] {
        try Row.fetchAll(db, sql: "SELECT * FROM schema_state ORDER BY type").map {
            SchemaState(
                type: try $0.decode(forColumn: "type", in: .schemaState),
                version: try $0.decode(forColumn: "version", in: .schemaState),
                pendingFrom: try $0.decode(forColumn: "pending_from", in: .schemaState),
                pendingTo: try $0.decode(forColumn: "pending_to", in: .schemaState),
                stepsDone: try $0.decode(forColumn: "steps_done", in: .schemaState))
        }
    }

    static func state(_ db: Database, type: String) throws -> SchemaState? {
        try states(db).first { $0.type == type }
    }

    static func setState(_ db: Database, _ state: SchemaState, now: String) throws {
        try db.execute(
            sql: """
                INSERT INTO schema_state (type, version, pending_from, pending_to, steps_done, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(type) DO UPDATE SET version = excluded.version, pending_from = excluded.pending_from,
                pending_to = excluded.pending_to, steps_done = excluded.steps_done, updated_at = excluded.updated_at
                """,
            arguments: [state.type, state.version, state.pendingFrom, state.pendingTo, state.stepsDone, now])
    }

    /// The history, oldest first.
    public func history() throws -> [HistoryEntry] {
        try readDatabase { db in
            try Row.fetchAll(db, sql: "SELECT * FROM history ORDER BY rank").map(HistoryEntry.init(row:))
        }
    }

    /// The table migrations applied to this file (`larder-store-1`, …).
    func tableRevisions() throws -> Set<String> {
        try readDatabase { db in try Self.tableMigrator.appliedIdentifiers(db) }
    }

    /// Appends a history row (in the caller's transaction); see
    /// ``StoreTransaction/recordHistory(kind:type:stepID:direction:fromVersion:toVersion:checksum:source:appliedAt:duration:recordsTouched:success:details:)``.
    static func recordHistory(
        _ db: Database, kind: HistoryKind, type: String? = nil, stepID: String? = nil, direction: String? = nil,
        fromVersion: Int? = nil,
        toVersion: Int? = nil, checksum: String? = nil, source: String? = nil, appliedAt: Date, duration: TimeInterval,
        recordsTouched: Int,
        success: Bool, details: String? = nil
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO history (kind, type, step_id, direction, from_version, to_version, checksum, source, applied_at,
                duration_ms, records_touched, success, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                kind.rawValue, type, stepID, direction, fromVersion, toVersion, checksum, source,
                Timestamp.format(appliedAt),
                Int((duration * 1000).rounded()), recordsTouched, success, details,
            ])
    }

    // MARK: Records

    /// Inserts or replaces a record, keeping the sync columns in step with its body.
    static func upsert(_ db: Database, type: String, record: Value, version: Int?) throws {
        guard let id = record["id"]?.stringValue ?? record["id"].map({ $0.compactText(limit: 100) }) else {
            throw LarderError(
                .malformedRecord, "a stored record needs an id", location: SourceLocation(fieldPath: "id"))
        }
        try db.execute(
            sql: """
                INSERT INTO records (type, id, version, body, recordName, isCloudEnabled, isDeleted, deletedAt, changeTag, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(type, id) DO UPDATE SET version = excluded.version, body = excluded.body, recordName = excluded.recordName,
                isCloudEnabled = excluded.isCloudEnabled, isDeleted = excluded.isDeleted, deletedAt = excluded.deletedAt,
                changeTag = excluded.changeTag, updatedAt = excluded.updatedAt
                """,
            arguments: syncColumns(type: type, id: id, version: version, record: record))
    }

    static func syncColumns(type: String, id: String, version: Int?, record: Value) throws -> StatementArguments {
        [
            type, id, version, try JSONWriter.string(record), record["recordName"]?.stringValue,
            record["isCloudEnabled"] != .bool(false), record["isDeleted"] == .bool(true),
            record["deletedAt"]?.stringValue,
            record["changeTag"]?.stringValue, record["updatedAt"]?.stringValue,
        ]
    }

    static func updateBody(_ db: Database, rowID: Int64, type: String, id: String, record: Value) throws {
        var arguments = try syncColumns(type: type, id: id, version: nil, record: record)
        _ = arguments.append(contentsOf: [rowID])
        try db.execute(
            sql: """
                UPDATE records SET type = ?, id = ?, version = coalesce(?, version), body = ?, recordName = ?, isCloudEnabled = ?,
                isDeleted = ?, deletedAt = ?, changeTag = ?, updatedAt = ? WHERE rowid = ?
                """,
            arguments: arguments)
    }

    /// The number of records of `type` (every type when `nil`).
    public func recordCount(type: String? = nil) throws -> Int {
        try readDatabase { db in
            if let type {
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM records WHERE type = ?", arguments: [type]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM records") ?? 0
        }
    }

    /// The records of `type`, decoded, ordered by id (tests, export).
    ///
    /// Buffers them all: stream with ``StoreRecordReader`` or ``forEachStoredRecord(type:_:)`` instead for big stores.
    /// - Throws: ``LarderError`` naming the record (type and id) whose stored body does not parse.
    public func records(type: String) throws -> [Value] {
        try readDatabase { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT type, id, body FROM records WHERE type = ? ORDER BY id", arguments: [type])
            return try RecordBodies.parse(batch: rows.map(StoredBody.init(row:)))
        }
    }

    /// The record `type`/`id` with its sync columns, or `nil` when the store has none (a
    /// tombstone is a record too).
    public func storedRecord(type: String, id: String) throws -> StoredRecord? {
        try readDatabase { db in try StoredRecord.fetch(db, type: type, id: id) }
    }

    /// Calls `body` with every stored record (of `type`, or of every type when `nil`), tombstones
    /// included, in type and id order, in one read transaction.
    ///
    /// Streams: rows come from a database cursor, one in memory at a time (bodies are not parsed
    /// until ``StoredRecord/value()`` is called). O(records).
    /// - Throws: what `body` throws; ``LarderError`` `store-error` when the database fails.
    public func forEachStoredRecord(type: String? = nil, _ body: (StoredRecord) throws -> Void) throws {
        try readDatabase { db in
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT \(StoredRecord.columns) FROM records WHERE ? IS NULL OR type = ? ORDER BY type, id",
                arguments: [type, type])
            while let row = try cursor.next() { try body(try StoredRecord(row: row)) }
        }
    }
}

/// Stores migrated images in the store's `images` table (in the step's transaction).
final class StoreImageStore: ImageStore {
    let db: Database
    let type: String
    let isDryRun: Bool

    init(db: Database, type: String, isDryRun: Bool = false) {
        self.db = db
        self.type = type
        self.isDryRun = isDryRun
    }

    func save(_ bytes: [UInt8], recordID: String, fileExtension: String) throws -> String {
        let reference = "images/\(recordID).\(fileExtension)"
        guard !isDryRun else { return reference }
        try db.execute(
            sql: "INSERT OR REPLACE INTO images (ref, type, record_id, mime, data) VALUES (?, ?, ?, ?, ?)",
            arguments: [reference, type, recordID, ImageKind.mimeType(forExtension: fileExtension), Data(bytes)])
        return reference
    }

    func load(_ reference: String) throws -> [UInt8] {
        guard let data = try Data.fetchOne(db, sql: "SELECT data FROM images WHERE ref = ?", arguments: [reference])
        else {
            throw LarderError(.io, "no image \(reference) in the store")
        }
        return Array(data)
    }
}
