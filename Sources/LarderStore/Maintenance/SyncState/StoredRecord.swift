public import Foundation
import GRDB
public import LarderCore
import LarderFormats
import LarderRegistry

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

    init(row: Row) {
        rowID = row["rowid"]
        type = row["type"]
        id = row["id"]
        version = row["version"]
        body = row["body"]
        recordName = Tombstone.recordName(type: type, id: id, explicit: row["recordName"])
        isCloudEnabled = row["isCloudEnabled"]
        isDeleted = row["isDeleted"]
        deletedAt = row["deletedAt"]
        updatedAt = row["updatedAt"]
        changeTag = row["changeTag"]
        cloudAckTag = row["cloudAckTag"]
        cloudAckAt = row["cloudAckAt"]
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
    init(row: Row) throws {
        let payload: String? = row["payload"]
        self.init(
            seq: row["seq"], type: row["type"], id: row["id"], recordName: row["record_name"],
            kind: Kind(rawValue: row["kind"]),
            payload: try payload.map { try RecordBodies.parse($0, type: row["type"], id: row["id"]) },
            baseTag: row["base_tag"], registryTag: row["registry_tag"],
            createdAt: Date(milliseconds: row["created_at"]))
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
