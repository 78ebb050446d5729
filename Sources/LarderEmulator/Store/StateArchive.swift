package import Foundation
import GRDB
import LarderCloudKit
import LarderCore

/// The whole store as one JSON document, for `/_emulator/export`, `/_emulator/import`,
/// `--import` and `--export-on-exit`: `{"format": "larder-emulator-state", "version": 1, "tables": {…},
/// "assets": {"<hex SHA-256>": "<base64 bytes>", …}}` (`assets` is absent from documents made before assets).
package enum StateArchive {
    static let format = "larder-emulator-state"

    /// Serialises every table (one read transaction).
    package static func export(_ store: EmulatorStore) throws -> Data {
        let (tables, assets): (Value, Value) = try store.writer.read { db in
            var tables = Fields()
            for table in StoreSchema.dataTables {
                var rows: [Value] = []
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid") {
                    var fields = Fields()
                    for (column, value) in row {
                        let json: Value =
                            switch value.storage {
                            case .null: .null
                            case .int64(let int): .int(int)
                            case .double(let double): .double(double)
                            case .string(let string): .string(string)
                            case .blob(let data): .string(data.base64EncodedString())
                            }
                        fields.append(key: column, value: json)
                    }
                    rows.append(.object(fields))
                }
                tables.append(key: table, value: .array(rows))
            }
            return (.object(tables), try exportAssets(store, db: db))
        }
        let document: Value = ["format": .string(format), "version": 1, "tables": tables, "assets": assets]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    /// Replaces the store's content with an exported document, in one transaction.
    /// - Throws: ``LarderError`` `malformed-record` naming the table, row and column that is wrong;
    ///   the store is unchanged then.
    package static func restore(_ data: Data, into store: EmulatorStore) throws {
        let document: Value
        do {
            document = try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw LarderError(.syntax, "emulator state is not JSON: \(error)")
        }
        guard document["format"]?.stringValue == format else {
            throw LarderError(.malformedRecord, "emulator state: format must be \"\(format)\"")
        }
        guard case .int(1)? = document["version"] else {
            throw LarderError(.malformedRecord, "emulator state: version must be 1")
        }
        guard let tables = document["tables"]?.objectValue else {
            throw LarderError(.malformedRecord, "emulator state: tables must be an object")
        }
        for key in tables.keys where !StoreSchema.dataTables.contains(key) {
            throw LarderError(.malformedRecord, "emulator state: unknown table \"\(key)\"")
        }
        let assets = try decodeAssets(document["assets"])
        try store.writer.write { db in
            for table in StoreSchema.dataTables.reversed() { try db.execute(sql: "DELETE FROM \(table)") }
            for table in StoreSchema.dataTables {
                let columns = Set(try db.columns(in: table).map(\.name))
                for (index, row) in (tables[table]?.arrayValue ?? []).enumerated() {
                    guard let fields = row.objectValue, !fields.isEmpty else {
                        throw LarderError(.malformedRecord, "emulator state: \(table)[\(index)] is not an object")
                    }
                    var arguments: [DatabaseValue] = []
                    for field in fields {
                        guard columns.contains(field.key) else {
                            throw LarderError(
                                .malformedRecord, "emulator state: \(table)[\(index)].\(field.key) is not a column")
                        }
                        switch field.value {
                        case .null: arguments.append(.null)
                        case .bool(let bool): arguments.append((bool ? 1 : 0).databaseValue)
                        case .int(let int): arguments.append(int.databaseValue)
                        case .double(let double): arguments.append(double.databaseValue)
                        case .string(let string): arguments.append(string.databaseValue)
                        default:
                            throw LarderError(
                                .malformedRecord, "emulator state: \(table)[\(index)].\(field.key) must be a scalar")
                        }
                    }
                    let names = fields.keys.map { "\"\($0)\"" }.joined(separator: ", ")
                    let marks = fields.keys.map { _ in "?" }.joined(separator: ", ")
                    do {
                        try db.execute(
                            sql: "INSERT INTO \(table) (\(names)) VALUES (\(marks))",
                            arguments: StatementArguments(arguments))
                    } catch {
                        throw LarderError(.malformedRecord, "emulator state: \(table)[\(index)]: \(error)")
                    }
                }
            }
            try ReferenceEdges.rebuild(db: db)
            // Bytes last: a document refused above leaves the old bytes in place.
            store.blobs.removeAll()
            for (hex, bytes) in assets { try store.blobs.store(bytes, hex: hex) }
        }
    }

    private static func exportAssets(_ store: EmulatorStore, db: Database) throws -> Value {
        var assets = Fields()
        for hex in try String.fetchAll(db, sql: "SELECT checksum FROM asset ORDER BY checksum") {
            guard let bytes = try store.blobs.read(hex) else {
                throw LarderError(.store, "emulator state: the bytes of asset \(hex) are missing from the data folder")
            }
            assets.append(key: hex, value: .string(bytes.base64EncodedString()))
        }
        return .object(assets)
    }

    /// The asset bytes of a document, each checked against its SHA-256 name.
    private static func decodeAssets(_ value: Value?) throws -> [(String, Data)] {
        guard let value, !value.isNull else { return [] }
        guard let fields = value.objectValue else {
            throw LarderError(.malformedRecord, "emulator state: assets must be an object")
        }
        var result: [(String, Data)] = []
        for field in fields {
            guard let text = field.value.stringValue, let bytes = Data(base64Encoded: text) else {
                throw LarderError(.malformedRecord, "emulator state: assets.\(field.key) must be base64 text")
            }
            guard AssetDigest.sha256Hex(bytes) == field.key else {
                throw LarderError(
                    .malformedRecord, "emulator state: assets.\(field.key): the bytes do not have that SHA-256")
            }
            result.append((field.key, bytes))
        }
        return result
    }
}
