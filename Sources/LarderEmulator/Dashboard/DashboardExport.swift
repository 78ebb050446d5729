import Foundation
import HTTPTypes
import Hummingbird
import LarderCloudKit
import LarderCore
import LarderFormats

/// `GET /_emulator/ui/export?zone=ID[&type=TYPE]`: a zone's records as Larder JSON.
///
/// The records of one Larder type, as the JSON envelope `larder convert`, `validate` and `upload` read (`{"schema", "version", "records"}`),
/// mapped back by ``RecordMapping`` (the uploader's own mapping, so upload then export gives the
/// same records). Streamed a page of records at a time; a download (`Content-Disposition`).
///
/// Without `type`, the zone's one Larder type; a zone holding several types answers a page linking
/// each one. A read like the other dashboard pages, behind the same ``RequestGuard`` (loopback
/// `Host` and `Origin`, the admin token or dashboard session off loopback).
struct DashboardExport {
    let services: EmulatorServices

    /// Records read per page while streaming.
    static let pageSize = 200

    func response(_ parameters: [String: String]) async throws -> Response {
        let title = "Export as Larder JSON"
        guard let zone = try await services.store.dashboardZone(id: parameters["zone"].flatMap { Int64($0) }) else {
            return DashboardPage.failure(title: title, message: "No such zone.", status: .notFound)
        }
        let type: RecordType
        if let name = parameters["type"], !name.isEmpty {
            guard let known = RecordType(rawValue: name) else {
                let types = RecordType.allCases.map(\.rawValue).joined(separator: ", ")
                return DashboardPage.failure(
                    title: title,
                    message: "\(name) is not a Larder record type (\(types)): only those export as Larder JSON.")
            }
            type = known
        } else {
            let present = try await larderTypes(in: zone)
            guard let only = present.first, present.count == 1 else {
                return present.isEmpty
                    ? DashboardPage.failure(
                        title: title, message: "This zone holds no Larder records (recipe, brewRecipe, brewLog).",
                        status: .notFound)
                    : choice(zone: zone, types: present)
            }
            type = only
        }
        return Self.download(zone: zone, type: type, services: services)
    }

    /// The streamed download of `zone`'s records of `type` (the dashboard's link and the control
    /// plane's `GET /_emulator/export/larder`).
    static func download(zone: DashboardZone, type: RecordType, services: EmulatorServices) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name.constant("X-Content-Type-Options")] = "nosniff"
        headers[.contentDisposition] = "attachment; filename=\"\(Self.fileName(zone: zone.row.name, type: type))\""
        let body = ResponseBody { writer in
            try await Self.stream(zone: zone, type: type, services: services, into: &writer)
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// `zone-type.json`, with anything but letters, digits, `-` and `_` made `_`.
    static func fileName(zone: String, type: RecordType) -> String {
        let safe = String(zone.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
        return "\(safe)-\(type.rawValue).json"
    }

    /// Writes the envelope: one record per line, read `pageSize` at a time through `records/query`.
    static func stream(
        zone: DashboardZone, type: RecordType, services: EmulatorServices, into writer: inout any ResponseBodyWriter
    ) async throws {
        try await writer.write(
            ByteBuffer(string: #"{"schema":"\#(type.rawValue)","version":\#(type.currentVersion),"records":["#))
        let mapping = RecordMapping()
        var marker: String?
        var first = true
        repeat {
            let request = QueryRecordsRequest(
                query: Query(recordType: type.rawValue), zoneID: zone.zoneID, resultsLimit: pageSize,
                continuationMarker: marker)
            let answer = try await services.store.query(request, call: zone.call(services: services))
            var text = ""
            for result in answer.records {
                guard case .success(let record) = result else { continue }
                let value: Value
                do {
                    value = try mapping.value(of: record, type: type)
                } catch {
                    throw CloudKitServerError(
                        .internalError,
                        "record \(record.recordName ?? "?") does not map back to a Larder record: \(error)")
                }
                text += (first ? "\n" : ",\n") + (try JSONWriter.string(value))
                first = false
            }
            if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
            marker = answer.continuationMarker
        } while marker != nil
        try await writer.write(ByteBuffer(string: "\n]}\n"))
    }

    /// The Larder types with at least one record in `zone`.
    private func larderTypes(in zone: DashboardZone) async throws -> [RecordType] {
        var present: [RecordType] = []
        for type in RecordType.allCases {
            let request = QueryRecordsRequest(
                query: Query(recordType: type.rawValue), zoneID: zone.zoneID, resultsLimit: 1, continuationMarker: nil)
            let answer = try await services.store.query(request, call: zone.call(services: services))
            if !answer.records.isEmpty { present.append(type) }
        }
        return present
    }

    private func choice(zone: DashboardZone, types: [RecordType]) -> Response {
        let links = types.map { type in
            "<li>" + Self.link(zone: zone.row.id, type: type.rawValue, text: type.rawValue) + "</li>"
        }
        return DashboardPage.render(
            title: "Export as Larder JSON",
            body: "<p>This zone holds several Larder record types; a Larder JSON file holds one. Export each:</p>"
                + "<ul id=\"export-types\">\(links.joined())</ul>")
    }

    /// The download link a zone (all its records of its one Larder type) or one of its Larder
    /// record types gets on the dashboard.
    static func link(zone: Int64, type: String? = nil, text: String = "Export as Larder JSON") -> String {
        let href = HTML.url(DashboardPage.root + "/export", [("zone", String(zone)), ("type", type ?? "")])
        let id = "export-\(zone)" + (type.map { "-\($0)" } ?? "")
        return
            "<a class=\"export\" id=\"\(HTML.escape(id))\" href=\"\(HTML.escape(href))\" download>\(HTML.escape(text))</a>"
    }

    /// Whether `type` exports as Larder JSON.
    static func isLarderType(_ type: String) -> Bool { RecordType(rawValue: type) != nil }
}
