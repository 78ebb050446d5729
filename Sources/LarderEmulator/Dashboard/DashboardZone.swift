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

    /// The page title: zone name, database and owner (by name when `users` knows it).
    func title(users: DashboardUsers) -> String { "\(row.name) · \(row.database) · \(users.text(row.owner))" }

    var isPublic: Bool { row.database == "public" }

    /// The zone ID a query names.
    var zoneID: RecordZoneID { isPublic ? .defaultZone : row.zoneID }

    /// The operation context of a read in this zone, as its owner, or of a write as `user` (in the
    /// public database, where nobody owns the zone, writes act as the record's creator).
    ///
    /// Asset fields get same-origin download URLs (`/_assets/download/…`), so an `<img>` on a
    /// dashboard page loads them from whatever address the browser used.
    func call(services: EmulatorServices, as user: String? = nil) -> DatabaseOperationContext {
        let scope: DatabaseEndpoint.Scope = isPublic ? .public : .private
        var context = DatabaseOperationContext(
            endpoint: DatabaseEndpoint(container: container, environment: environment, database: scope),
            caller: Caller(userRecordName: user ?? (isPublic ? nil : row.owner)),
            configuration: services.configuration, nowMilliseconds: services.clock.milliseconds,
            deviceID: "larder-dashboard", random: services.random)
        context.assetLinks = AssetLinks(baseURL: "", tickets: services.assetTickets)
        return context
    }
}

/// Plain text for a field value (the caller escapes it).
enum DashboardValueText {
    /// `field`'s value as text: a string as it is, a timestamp as ISO-8601, a reference as
    /// `→ name`, anything else as compact JSON.
    static func text(_ field: RecordField?) -> String {
        guard let field else { return "" }
        switch field.value {
        case .string(let text): return text
        case .int(let number):
            if field.type == .timestamp {
                return Date(timeIntervalSince1970: Double(number) / 1000).formatted(.iso8601)
            }
            return String(number)
        case .double(let number):
            if field.type == .timestamp { return Date(timeIntervalSince1970: number / 1000).formatted(.iso8601) }
            return String(number)
        case .null: return "null"
        default:
            if field.type == .reference, let name = field.value["recordName"]?.stringValue { return "→ " + name }
            return json(field.value)
        }
    }

    /// `value` as compact JSON with sorted keys.
    static func json(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}
