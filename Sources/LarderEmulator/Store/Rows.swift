import Foundation
import GRDB
import LarderCloudKit
import LarderSQLite

/// A `zone` row.
struct ZoneRow: Sendable, Hashable {
    var id: Int64
    var database: String
    var owner: String
    var name: String
    var epoch: Int64
    var changeSeq: Int64
    var databaseSeq: Int64
    var isDeleted: Bool

    /// Reads a row whose first columns are ``columns``, in that order.
    /// - Throws: `INTERNAL_ERROR` naming the column whose value is not what it must hold.
    init(row: Row) throws {
        id = try row.decode(atIndex: 0, in: .zone)
        database = try row.decode(atIndex: 1, in: .zone)
        owner = try row.decode(atIndex: 2, in: .zone)
        name = try row.decode(atIndex: 3, in: .zone)
        epoch = try row.decode(atIndex: 4, in: .zone)
        changeSeq = try row.decode(atIndex: 5, in: .zone)
        databaseSeq = try row.decode(atIndex: 6, in: .zone)
        isDeleted = try row.decode(atIndex: 7, in: .zone)
    }

    /// The zone ID as clients see it.
    var zoneID: RecordZoneID { RecordZoneID(zoneName: name, ownerRecordName: owner) }
    var isDefault: Bool { name == RecordZoneID.defaultZoneName }

    /// A token that has seen every change up to `sequence`.
    func token(at sequence: Int64) -> String {
        ChangeToken(kind: .zone, scope: id, epoch: epoch, sequence: sequence).encoded
    }

    static let columns = "id, database, owner, name, epoch, changeSeq, databaseSeq, isDeleted"
}

/// A `record` row.
struct RecordRow: Sendable {
    var id: Int64
    var zoneID: Int64
    var name: String
    var type: String
    var changeTag: String
    var changeSeq: Int64
    var isDeleted: Bool
    var fields: String
    var createdAt: Int64
    var createdBy: String
    var createdDevice: String
    var modifiedAt: Int64
    var modifiedBy: String
    var modifiedDevice: String
    var parent: String?
    var shareName: String?
    var shortGUID: String?
    var share: String?

    var isShare: Bool { type == Record.shareRecordType }

    static let columns = """
        id, zoneId, name, type, changeTag, changeSeq, isDeleted, fields, createdAt, createdBy, createdDevice, \
        modifiedAt, modifiedBy, modifiedDevice, parent, shareName, shortGUID, share
        """

    static func fetch(zoneID: Int64, name: String, in db: Database) throws -> RecordRow? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(columns) FROM record WHERE zoneId = ? AND name = ?"),
            arguments: [zoneID, name]
        ).map(RecordRow.init(row:))
    }
}

extension RecordRow {
    /// Reads a row whose first columns are ``columns``, in that order.
    /// - Throws: `INTERNAL_ERROR` naming the column whose value is not what it must hold.
    init(row: Row) throws {
        self.init(
            id: try row.decode(atIndex: 0, in: .record), zoneID: try row.decode(atIndex: 1, in: .record),
            name: try row.decode(atIndex: 2, in: .record), type: try row.decode(atIndex: 3, in: .record),
            changeTag: try row.decode(atIndex: 4, in: .record), changeSeq: try row.decode(atIndex: 5, in: .record),
            isDeleted: try row.decode(atIndex: 6, in: .record), fields: try row.decode(atIndex: 7, in: .record),
            createdAt: try row.decode(atIndex: 8, in: .record), createdBy: try row.decode(atIndex: 9, in: .record),
            createdDevice: try row.decode(atIndex: 10, in: .record),
            modifiedAt: try row.decode(atIndex: 11, in: .record),
            modifiedBy: try row.decode(atIndex: 12, in: .record),
            modifiedDevice: try row.decode(atIndex: 13, in: .record), parent: try row.decode(atIndex: 14, in: .record),
            shareName: try row.decode(atIndex: 15, in: .record), shortGUID: try row.decode(atIndex: 16, in: .record),
            share: try row.decode(atIndex: 17, in: .record))
    }
}

/// What a `cloudkit.share` record stores besides its fields.
struct StoredShare: Sendable, Codable, Hashable {
    /// The root record of a record share; nil for a zone-wide share.
    var rootRecordName: String?
    var publicPermission: SharePermission
    var participants: [ShareParticipant]
}

extension StoredShare: WireEncodable {
    /// The share `name` stores.
    ///
    /// A damaged share is an error everywhere, never "not found" or "no root".
    /// - Throws: `INTERNAL_ERROR` naming the share when its stored state does not read.
    static func decode(_ json: String, share name: String) throws(CloudKitServerError) -> StoredShare {
        guard let share = StoredShare(json: json) else {
            throw CloudKitServerError(.internalError, "the stored state of share \(name) is damaged")
        }
        return share
    }

    /// Reads the stored state of a share row (nil when `json` is not one), in place with the wire decoder.
    init?(json: String) {
        var text = json
        guard
            let share = text.withUTF8({ try? WireDecoder().decode(StoredShare.self, from: UnsafeRawBufferPointer($0)) })
        else {
            return nil
        }
        self = share
    }

    func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("rootRecordName", rootRecordName)
        try encoder.member("publicPermission", publicPermission)
        try encoder.member("participants", participants)
        encoder.endObject()
    }
}

/// Record and zone names CloudKit accepts.
enum CloudKitNameRules {
    static func isValidRecordName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && name.utf8.allSatisfy { $0 > 32 && $0 < 127 }
    }

    static func isValidFieldName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 255 else { return false }
        func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
        func isNameByte(_ byte: UInt8) -> Bool { isLetter(byte) || (48...57).contains(byte) || byte == 95 }
        return isLetter(first) && name.utf8.allSatisfy(isNameByte)
    }

    static func isValidRecordType(_ name: String) -> Bool {
        name.lowercased() == Record.shareRecordType || isValidFieldName(name)
    }

    static func changeTag(for sequence: Int64) -> String { String(sequence, radix: 36) }
}

/// GRDB also has a `Record`; inside this module the name means CloudKit's record dictionary.
typealias Record = LarderCloudKit.Record
