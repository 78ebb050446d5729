import Foundation
import GRDB
import LarderCloudKit

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

    init(row: Row) {
        id = row["id"]
        database = row["database"]
        owner = row["owner"]
        name = row["name"]
        epoch = row["epoch"]
        changeSeq = row["changeSeq"]
        databaseSeq = row["databaseSeq"]
        isDeleted = row["isDeleted"]
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
    init(row: Row) {
        self.init(
            id: row["id"], zoneID: row["zoneId"], name: row["name"], type: row["type"], changeTag: row["changeTag"],
            changeSeq: row["changeSeq"], isDeleted: row["isDeleted"], fields: row["fields"],
            createdAt: row["createdAt"],
            createdBy: row["createdBy"], createdDevice: row["createdDevice"], modifiedAt: row["modifiedAt"],
            modifiedBy: row["modifiedBy"], modifiedDevice: row["modifiedDevice"], parent: row["parent"],
            shareName: row["shareName"], shortGUID: row["shortGUID"], share: row["share"])
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
        let isLetter = { (byte: UInt8) in (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) }
        return isLetter(first) && name.utf8.allSatisfy { isLetter($0) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    static func isValidRecordType(_ name: String) -> Bool {
        name.lowercased() == Record.shareRecordType || isValidFieldName(name)
    }

    static func changeTag(for sequence: Int64) -> String { String(sequence, radix: 36) }
}

/// GRDB also has a `Record`; inside this module the name means CloudKit's record dictionary.
typealias Record = LarderCloudKit.Record
