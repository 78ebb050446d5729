import Foundation
import GRDB
import LarderCloudKit
import LarderCore

/// The writes of one request: hands out each zone's next change sequence number, writes record
/// rows and share memberships, and bumps the zones' sequences once at the end.
final class WriteSession {
    let call: DatabaseOperationContext
    let db: Database
    private var zoneSequences: [Int64: (zone: ZoneRow, sequence: Int64)] = [:]

    init(call: DatabaseOperationContext, db: Database) {
        self.call = call
        self.db = db
    }

    /// Forgets pending sequence numbers (after a rolled-back savepoint).
    func discardPending() { zoneSequences = [:] }

    /// The zone's next change sequence number.
    /// - Throws: `INTERNAL_ERROR` when the stored sequence has no successor (a data folder edited by hand).
    private func nextSequence(in zone: ZoneRow) throws -> Int64 {
        let current = zoneSequences[zone.id]?.sequence ?? zone.changeSeq
        let (next, overflows) = current.addingReportingOverflow(1)
        if overflows {
            throw CloudKitServerError(
                .internalError,
                "the emulator store is damaged: table zone, column changeSeq of zone '\(zone.name)' is \(current), the largest integer"
            )
        }
        zoneSequences[zone.id] = (zone, next)
        return next
    }

    /// Encodes typed fields as stored JSON: the wire `fields` map, sorted by name.
    func encode(_ fields: [String: FieldValue]) throws -> String {
        String(decoding: try WireEncoder.encode(TypedFields(fields)), as: UTF8.self)
    }

    /// Encodes a share's extra state.
    func encode(_ share: StoredShare) throws -> String {
        String(decoding: try WireEncoder.encode(share), as: UTF8.self)
    }

    /// Writes a record version (insert, update, or resurrect a tombstone) and returns the row.
    @discardableResult
    func write(
        zone: ZoneRow, name: String, type: String, fieldsJSON: String, existing: RecordRow?, parent: String?,
        shareName: String?, shortGUID: String?, share: String?
    ) throws -> RecordRow {
        let sequence = try nextSequence(in: zone)
        let tag = CloudKitNameRules.changeTag(for: sequence)
        let user = call.caller.userRecordName ?? DatabaseOperationContext.publicOwner
        let now = call.nowMilliseconds
        var row = RecordRow(
            id: existing?.id ?? 0, zoneID: zone.id, name: name, type: type, changeTag: tag, changeSeq: sequence,
            isDeleted: false, fields: fieldsJSON, createdAt: now, createdBy: user, createdDevice: call.deviceID,
            modifiedAt: now, modifiedBy: user, modifiedDevice: call.deviceID, parent: parent, shareName: shareName,
            shortGUID: shortGUID, share: share)
        if let existing {
            let isResurrection = existing.isDeleted
            if !isResurrection {
                row.createdAt = existing.createdAt
                row.createdBy = existing.createdBy
                row.createdDevice = existing.createdDevice
            }
            try db.cachedStatement(
                sql: """
                    UPDATE record SET type = ?, changeTag = ?, changeSeq = ?, isDeleted = 0, fields = ?,
                        createdAt = ?, createdBy = ?, createdDevice = ?, modifiedAt = ?, modifiedBy = ?, modifiedDevice = ?,
                        parent = ?, shareName = ?, shortGUID = ?, share = ?
                    WHERE id = ?
                    """
            ).execute(arguments: [
                type, tag, sequence, fieldsJSON,
                isResurrection ? now : existing.createdAt, isResurrection ? user : existing.createdBy,
                isResurrection ? call.deviceID : existing.createdDevice, now, user, call.deviceID,
                parent, shareName, shortGUID, share, existing.id,
            ])
        } else {
            try db.cachedStatement(
                sql: """
                    INSERT INTO record (zoneId, name, type, changeTag, changeSeq, isDeleted, fields, createdAt, createdBy,
                        createdDevice, modifiedAt, modifiedBy, modifiedDevice, parent, shareName, shortGUID, share)
                    VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                zone.id, name, type, tag, sequence, fieldsJSON, now, user, call.deviceID, now, user, call.deviceID,
                parent, shareName, shortGUID, share,
            ])
            row.id = db.lastInsertedRowID
        }
        return row
    }

    /// Turns a record into a tombstone (fields cleared; parent kept for share visibility).
    func delete(zone: ZoneRow, row: RecordRow) throws {
        let sequence = try nextSequence(in: zone)
        try db.cachedStatement(
            sql: """
                UPDATE record SET isDeleted = 1, fields = '{}', changeSeq = ?, changeTag = ?, modifiedAt = ?, modifiedBy = ?,
                    modifiedDevice = ?, shareName = NULL, shortGUID = NULL, share = NULL
                WHERE id = ?
                """
        ).execute(arguments: [
            sequence, CloudKitNameRules.changeTag(for: sequence), call.nowMilliseconds,
            call.caller.userRecordName ?? DatabaseOperationContext.publicOwner, call.deviceID, row.id,
        ])
        try AssetCatalog.unlink(recordID: row.id, db: db)
        try ReferenceEdges.remove(sourceID: row.id, db: db)
    }

    /// Re-stamps an existing row with a new change tag (its share link changed).
    func touch(zone: ZoneRow, rowID: Int64, shareName: String?, shortGUID: String?) throws {
        let sequence = try nextSequence(in: zone)
        try db.execute(
            sql:
                "UPDATE record SET changeSeq = ?, changeTag = ?, shareName = ?, shortGUID = ?, modifiedAt = ? WHERE id = ?",
            arguments: [
                sequence, CloudKitNameRules.changeTag(for: sequence), shareName, shortGUID, call.nowMilliseconds, rowID,
            ])
    }

    /// Records who may see `zone` through `shareName` (one row per participant but the owner).
    func setMembers(zone: ZoneRow, shareName: String, rootRecordName: String?, participants: [ShareParticipant]) throws
    {
        let sequence = try Counter.next("databaseSeq", in: db)
        var keep: [String] = []
        for participant in participants where participant.type != "OWNER" {
            guard let user = participant.userIdentity?.userRecordName else { continue }
            keep.append(user)
            try db.execute(
                sql: """
                    INSERT INTO shareMember (zoneId, shareName, rootRecordName, userRecordName, permission, status, seq)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(zoneId, shareName, userRecordName) DO UPDATE SET
                        rootRecordName = excluded.rootRecordName, permission = excluded.permission,
                        status = excluded.status, seq = excluded.seq
                    """,
                arguments: [
                    zone.id, shareName, rootRecordName, user, (participant.permission ?? .readOnly).rawValue,
                    participant.acceptanceStatus ?? "PENDING", sequence,
                ])
        }
        let placeholders = keep.isEmpty ? "''" : keep.map { _ in "?" }.joined(separator: ", ")
        var arguments: [any DatabaseValueConvertible] = [sequence, zone.id, shareName]
        arguments.append(contentsOf: keep)
        try db.execute(
            sql: """
                UPDATE shareMember SET status = 'REMOVED', seq = ?
                WHERE zoneId = ? AND shareName = ? AND status != 'REMOVED' AND userRecordName NOT IN (\(placeholders))
                """,
            arguments: StatementArguments(arguments))
    }

    /// Ends every membership of a share (it was deleted).
    func removeMembers(zone: ZoneRow, shareName: String) throws {
        let sequence = try Counter.next("databaseSeq", in: db)
        try db.execute(
            sql:
                "UPDATE shareMember SET status = 'REMOVED', seq = ? WHERE zoneId = ? AND shareName = ? AND status != 'REMOVED'",
            arguments: [sequence, zone.id, shareName])
    }

    /// Writes the zones' new change sequences and global sequence numbers.
    func finish() throws {
        for (id, entry) in zoneSequences {
            let global = try Counter.next("databaseSeq", in: db)
            try db.cachedStatement(sql: "UPDATE zone SET changeSeq = ?, databaseSeq = ? WHERE id = ?")
                .execute(arguments: [entry.sequence, global, id])
        }
        zoneSequences = [:]
    }
}
