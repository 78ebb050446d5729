import Foundation
import GRDB
import LarderCore
import LarderRegistry
import LarderFormats

/// One row of the records table with its sync columns, for the sync-state operations.
struct StoredRecord {
    var rowID: Int64
    var type: String
    var id: String
    var version: Int?
    var body: String
    var recordName: String
    var isCloudEnabled: Bool
    var isDeleted: Bool
    var deletedAt: String?
    var updatedAt: String?
    var changeTag: String?
    var cloudAckTag: String?
    var cloudAckAt: Int64?

    static let columns = "rowid, type, id, version, body, recordName, isCloudEnabled, isDeleted, deletedAt, updatedAt, changeTag, cloudAckTag, cloudAckAt"

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
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM records WHERE type = ? AND id = ?", arguments: [type, id]).map(StoredRecord.init(row:))
    }

    /// A live record that must never leave the device.
    var isLocalOnly: Bool { !isCloudEnabled && !isDeleted }

    /// The tag of what the cloud holds for this record, as far as the store knows.
    var cloudTag: String? { cloudAckTag ?? changeTag }

    /// The body, decoded.
    func value() throws -> Value { try RecordBodies.parse(body) }
}

extension PendingChange {
    init(row: Row) throws {
        let payload: String? = row["payload"]
        self.init(
            seq: row["seq"], type: row["type"], id: row["id"], recordName: row["record_name"], kind: Kind(rawValue: row["kind"]),
            payload: try payload.map(RecordBodies.parse), baseTag: row["base_tag"], registryTag: row["registry_tag"],
            createdAt: Date(milliseconds: row["created_at"]))
    }

    static func fetch(_ db: Database, type: String, id: String) throws -> PendingChange? {
        try Row.fetchOne(db, sql: "SELECT * FROM pending_changes WHERE type = ? AND id = ?", arguments: [type, id]).map(PendingChange.init(row:))
    }

    /// Queues a change, replacing the record's earlier one (which keeps its base tag: the cloud
    /// still holds what the first change was based on). The replacement gets a new `seq`, so a
    /// late acknowledgement of the earlier one cannot confirm it.
    static func enqueue(
        _ db: Database, type: String, id: String, recordName: String, kind: Kind, payload: Value?, baseTag: String?, registryTag: String? = nil,
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
                type, id, recordName, kind.rawValue, try payload.map { try JSONWriter.string($0) }, existing.map(\.baseTag) ?? baseTag,
                registryTag, date.milliseconds,
            ])
    }

    static func discard(_ db: Database, type: String, id: String) throws {
        try db.execute(sql: "DELETE FROM pending_changes WHERE type = ? AND id = ?", arguments: [type, id])
    }
}
