import Foundation
import GRDB
import LarderCloudKit
import LarderCore
import LarderSQLite

/// A zone the dashboard shows, found by its row id, and the context its queries run in.
///
/// Queries run as the zone's owner (private zones) or as nobody (the public database), through the
/// same ``QueryRecords`` and ``CompiledFilter`` code `records/query` uses.
struct DashboardZone {
    var row: ZoneRow
    var container: String
    var environment: DatabaseEndpoint.Environment

    /// The live zone with row id `id`, or nil.
    static func fetch(id: Int64?, db: Database) throws -> DashboardZone? {
        guard let id,
            let row = try Row.fetchOne(
                db, sql: "SELECT \(ZoneRow.columns), container, environment FROM zone WHERE id = ?", arguments: [id]),
            let environment = DatabaseEndpoint.Environment(rawValue: try row.decode(atIndex: 9, in: .zone))
        else { return nil }
        return DashboardZone(
            row: try ZoneRow(row: row), container: try row.decode(atIndex: 8, in: .zone), environment: environment)
    }

    var title: String { "\(row.name) · \(row.database) · \(row.owner)" }

    var isPublic: Bool { row.database == "public" }

    /// The zone ID a query names.
    var zoneID: RecordZoneID { isPublic ? .defaultZone : row.zoneID }

    /// The operation context of a read in this zone, as its owner.
    func call(services: EmulatorServices) -> DatabaseOperationContext {
        let scope: DatabaseEndpoint.Scope = isPublic ? .public : .private
        return DatabaseOperationContext(
            endpoint: DatabaseEndpoint(container: container, environment: environment, database: scope),
            caller: isPublic ? .anonymous : Caller(userRecordName: row.owner), configuration: services.configuration,
            nowMilliseconds: services.clock.milliseconds, deviceID: "larder-dashboard", random: services.random)
    }

    /// The record types of this zone's container and environment, and their fields with types.
    func schema(db: Database) throws -> [String: [String: FieldType]] {
        var schema: [String: [String: FieldType]] = [:]
        let arguments: StatementArguments = [container, environment.rawValue]
        for type in try String.fetchAll(
            db, sql: "SELECT recordType FROM schemaRecordType WHERE container = ? AND environment = ?",
            arguments: arguments)
        {
            schema[type] = [:]
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT recordType, fieldName, type FROM schemaField WHERE container = ? AND environment = ?",
            arguments: arguments)
        {
            let recordType: String = try row.decode(atIndex: 0, in: .schemaField)
            let fieldName: String = try row.decode(atIndex: 1, in: .schemaField)
            schema[recordType, default: [:]][fieldName] = FieldType(
                rawValue: try row.decode(atIndex: 2, in: .schemaField))
        }
        return schema
    }
}

/// Plain text for a field value (the caller escapes it).
enum DashboardValueText {
    static func text(_ field: RecordField?) -> String {
        guard let field else { return "" }
        switch field.value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .double(let number):
            if field.type == .timestamp { return Date(timeIntervalSince1970: number / 1000).formatted(.iso8601) }
            return String(number)
        case .null: return "null"
        default:
            if field.type == .reference, let name = field.value["recordName"]?.stringValue { return "→ " + name }
            return json(field.value)
        }
    }

    static func json(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}
