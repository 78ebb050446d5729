public import Foundation
import GRDB
public import LarderCore
import LarderFormats
import LarderRegistry
import LarderSQLite

/// One record as the store holds it: its identity, schema version and sync columns, with the
/// body parsed on demand (``value()``).
///
/// A tombstone (``isDeleted``) is a stored record too, holding only the minimal fields.
public struct StoredRecord: Sendable, Hashable {
    var rowID: Int64
    /// The record type.
    public let type: String
    /// The record's id.
    public let id: String
    /// The schema version the record is at (`nil`: not adopted yet, see baseline).
    public let version: Int?
    /// The body as stored (JSON).
    let body: String
    /// The record's cloud name (its `recordName`, else `TYPE-ID`).
    public let recordName: String
    /// Whether the record syncs (`false`: local-only).
    public let isCloudEnabled: Bool
    /// Whether the record is a tombstone.
    public let isDeleted: Bool
    /// When it was deleted (a tombstone's timestamp text).
    public let deletedAt: String?
    /// When it last changed (timestamp text).
    public let updatedAt: String?
    /// The change tag the body carries.
    public let changeTag: String?
    /// The change tag the cloud last confirmed for the record's name.
    public let cloudAckTag: String?
    /// The cloud time of that confirmation (milliseconds since 1970).
    let cloudAckAt: Int64?

    static let columns =
        "rowid, type, id, version, body, recordName, isCloudEnabled, isDeleted, deletedAt, updatedAt, changeTag, cloudAckTag, cloudAckAt"

    /// Reads a row of `SELECT \(columns)` (the columns in that order).
    /// - Throws: ``StoredValueError`` naming the column whose value is not what it must hold.
    init(row: Row) throws {
        rowID = try row.decode(atIndex: 0, in: .records)
        type = try row.decode(atIndex: 1, in: .records)
        id = try row.decode(atIndex: 2, in: .records)
        version = try row.decode(atIndex: 3, in: .records)
        body = try row.decode(atIndex: 4, in: .records)
        recordName = Tombstone.recordName(type: type, id: id, explicit: try row.decode(atIndex: 5, in: .records))
        isCloudEnabled = try row.decode(atIndex: 6, in: .records)
        isDeleted = try row.decode(atIndex: 7, in: .records)
        deletedAt = try row.decode(atIndex: 8, in: .records)
        updatedAt = try row.decode(atIndex: 9, in: .records)
        changeTag = try row.decode(atIndex: 10, in: .records)
        cloudAckTag = try row.decode(atIndex: 11, in: .records)
        cloudAckAt = try row.decode(atIndex: 12, in: .records)
    }

    static func fetch(_ db: Database, type: String, id: String) throws -> StoredRecord? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM records WHERE type = ? AND id = ?", arguments: [type, id])
            .map(StoredRecord.init(row:))
    }

    /// When the cloud confirmed the record's current state, if it did.
    public var acknowledgedAt: Date? { cloudAckAt.map(Date.init(milliseconds:)) }

    /// A live record that must never leave the device.
    public var isLocalOnly: Bool { !isCloudEnabled && !isDeleted }

    /// The tag of what the cloud holds for this record, as far as the store knows.
    public var cloudTag: String? { cloudAckTag ?? changeTag }

    /// The body, parsed.
    /// - Throws: ``LarderError`` naming the record (type and id) when the stored body is not one
    ///   JSON object.
    public func value() throws -> Value { try RecordBodies.parse(body, type: type, id: id) }
}

extension PendingChange {
    /// Reads a `SELECT * FROM pending_changes` row.
    /// - Throws: ``StoredValueError`` naming the column whose value is not what it must hold;
    ///   ``LarderError`` naming the record when the payload is not a JSON object.
    init(row: Row) throws {
        let type: String = try row.decode(forColumn: "type", in: .pendingChanges)
        let id: String = try row.decode(forColumn: "id", in: .pendingChanges)
        let payload: String? = try row.decode(forColumn: "payload", in: .pendingChanges)
        self.init(
            seq: try row.decode(forColumn: "seq", in: .pendingChanges), type: type, id: id,
            recordName: try row.decode(forColumn: "record_name", in: .pendingChanges),
            kind: Kind(rawValue: try row.decode(forColumn: "kind", in: .pendingChanges)),
            payload: try payload.map { try RecordBodies.parse($0, type: type, id: id) },
            baseTag: try row.decode(forColumn: "base_tag", in: .pendingChanges),
            registryTag: try row.decode(forColumn: "registry_tag", in: .pendingChanges),
            createdAt: Date(milliseconds: try row.decode(forColumn: "created_at", in: .pendingChanges)))
    }

    static func fetch(_ db: Database, type: String, id: String) throws -> PendingChange? {
        try Row.fetchOne(db, sql: "SELECT * FROM pending_changes WHERE type = ? AND id = ?", arguments: [type, id]).map(
            PendingChange.init(row:))
    }

    /// Queues a change, replacing the record's earlier one (which keeps its base tag: the cloud
    /// still holds what the first change was based on).
    ///
    /// The replacement gets a new `seq`, so a late acknowledgement of the earlier one cannot confirm it.
    static func enqueue(
        _ db: Database, type: String, id: String, recordName: String, kind: Kind, payload: Value?, baseTag: String?,
        registryTag: String? = nil,
        at date: Date
    ) throws {
        let existing = try fetch(db, type: type, id: id)
        if existing != nil { try discard(db, type: type, id: id) }
        try db.execute(
            sql: """
                INSERT INTO pending_changes (type, id, record_name, kind, payload, base_tag, registry_tag, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                type, id, recordName, kind.rawValue, try payload.map { try JSONWriter.string($0) },
                existing.map(\.baseTag) ?? baseTag,
                registryTag, date.milliseconds,
            ])
    }

    static func discard(_ db: Database, type: String, id: String) throws {
        try db.execute(sql: "DELETE FROM pending_changes WHERE type = ? AND id = ?", arguments: [type, id])
    }
}
