import Foundation
import LarderCloudKit
import LarderCore

/// A zone the dashboard shows (``EmulatorStore/dashboardZone(id:)`` finds it by its row id), and the
/// context its queries run in.
///
/// Queries run as the zone's owner (private zones) or as nobody (the public database), through the
/// same ``QueryRecords`` and ``CompiledFilter`` code `records/query` uses.
struct DashboardZone {
    var row: ZoneRow
    var container: String
    var environment: DatabaseEndpoint.Environment

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
