import LarderCloudKit
import LarderSQLite

/// The emulator's tables, as the errors of reading their rows name them: a value that is not what
/// its column must hold (a data folder damaged or edited by hand) is an `INTERNAL_ERROR` naming the
/// table, the column and the row, for the request that read it; the server goes on serving.
extension StoredTable {
    static let zone = StoredTable(emulatorTable: "zone", key: ["id", "name"])
    static let record = StoredTable(emulatorTable: "record", key: ["zoneId", "name"])
    static let shareMember = StoredTable(emulatorTable: "shareMember", key: ["zoneId", "shareName", "userRecordName"])
    static let schemaRecordType = StoredTable(emulatorTable: "schemaRecordType", key: ["recordType"])
    static let schemaField = StoredTable(emulatorTable: "schemaField", key: ["recordType", "fieldName"])
    static let asset = StoredTable(emulatorTable: "asset", key: ["checksum"])
    static let assetUpload = StoredTable(emulatorTable: "assetUpload", key: ["recordName", "fieldName"])

    /// An emulator table whose bad values are `INTERNAL_ERROR`s.
    init(emulatorTable name: String, key: [String]) {
        self.init(name, key: key) { CloudKitServerError(.internalError, "the emulator store is damaged: \($0)") }
    }
}
