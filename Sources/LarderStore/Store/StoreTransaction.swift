public import Foundation
import GRDB
import LarderCore
import LarderSQLite

/// One transaction on a store: the operations that must commit (or roll back) together, such as
/// a dedupe merge writing every cluster and its history row at once.
///
/// ``Store/write(_:)`` and ``Store/read(_:)`` hand one to their body; it is valid only inside that
/// body (do not keep it). In a read transaction the writing operations fail with `store-error`.
///
/// ```swift
/// try store.write { transaction in
///     try transaction.saveIfChanged(merged, type: "recipe", at: now)
///     try transaction.delete(type: "recipe", id: "r-2", at: now)
///     try transaction.recordHistory(kind: .import, appliedAt: now, duration: 0, recordsTouched: 2, success: true)
/// }
/// ```
public struct StoreTransaction {
    /// The connection, inside its transaction.
    let db: Database
    /// The store's file.
    public let path: String

    /// The record `type`/`id` with its sync columns, or `nil` when the store has none.
    public func storedRecord(type: String, id: String) throws -> StoredRecord? {
        try StoredRecord.fetch(db, type: type, id: id)
    }

    /// What identifies the current state of the records of `type` (see ``RecordsSnapshot``).
    ///
    /// O(records of the type).
    public func snapshot(type: String) throws -> RecordsSnapshot {
        let row = try Row.fetchOne(
            db, sql: "SELECT count(*), coalesce(max(rowid), 0), total(length(body)) FROM records WHERE type = ?",
            arguments: [type])
        return RecordsSnapshot(
            count: try row?.decode(atIndex: 0, in: .records) ?? 0,
            lastRowID: try row?.decode(atIndex: 1, in: .records) ?? 0,
            bodyLength: Int64(try row?.decode(Double.self, atIndex: 2, in: .records) ?? 0))
    }

    /// Appends a row to the store's history.
    ///
    /// Store maintenance records its runs through this with kind `compaction` or `prune`, and
    /// dedupe with kind `dedupe`, with its report as `details` (JSON).
    public func recordHistory(
        kind: HistoryKind, type: String? = nil, stepID: String? = nil, direction: String? = nil,
        fromVersion: Int? = nil, toVersion: Int? = nil,
        checksum: String? = nil, source: String? = nil, appliedAt: Date, duration: TimeInterval, recordsTouched: Int,
        success: Bool,
        details: String? = nil
    ) throws {
        try Store.recordHistory(
            db, kind: kind, type: type, stepID: stepID, direction: direction, fromVersion: fromVersion,
            toVersion: toVersion, checksum: checksum,
            source: source, appliedAt: appliedAt, duration: duration, recordsTouched: recordsTouched, success: success,
            details: details)
    }

    /// Inserts or replaces a record without queueing anything for the cloud (imports, tests);
    /// local edits go through ``save(_:type:at:)``.
    func upsert(_ record: Value, type: String, version: Int?) throws {
        try Store.upsert(db, type: type, record: record, version: version)
    }

    /// Sets a type's schema state.
    func setSchemaState(_ state: SchemaState, at date: Date) throws {
        try Store.setState(db, state, now: Timestamp.format(date))
    }
}

/// A cheap fingerprint of one type's rows (their count, the largest rowid and the bodies' total
/// length): a different snapshot means the rows changed between two transactions.
public struct RecordsSnapshot: Sendable, Hashable {
    /// The number of rows.
    public var count: Int64
    /// The largest rowid (0 without rows).
    public var lastRowID: Int64
    /// The bodies' total length (in characters, as SQLite counts text).
    public var bodyLength: Int64
}
