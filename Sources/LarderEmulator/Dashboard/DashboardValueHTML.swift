import Foundation
import LarderCloudKit
import LarderCore

/// A field value as HTML: in full on the record page, shortened in a records list.
///
/// Timestamps become ``HTML/time(_:)`` (ISO-8601, the epoch milliseconds on hover); a `STRING`
/// that holds a JSON object or array is pretty-printed in a `<details>` fold; an asset is previewed
/// through its emulator download URL in an `<img>` (only a same-origin path or an http(s) URL is
/// ever put in `src`, and the download endpoint serves anything but a sniffed PNG, JPEG, GIF, WebP
/// or HEIC as an `application/octet-stream` attachment, so an SVG or HTML upload is never drawn
/// as markup). Everything else is escaped text.
enum DashboardValueHTML {
    /// A list cell shows at most this many characters of a value.
    static let cellLength = 160

    /// A JSON fold is open when its pretty text has at most this many lines.
    static let openFoldLines = 24

    /// The value of `field` in full (the record page); `recordLink` makes the HTML of a link to a
    /// record by name and zone name (nil: that zone has no page here), so a reference is a link.
    static func full(_ field: RecordField?, recordLink: RecordLink? = nil) -> String {
        guard let field else { return "" }
        let type = field.type?.canonical
        switch (type?.elementType, field.value) {
        case (.reference?, .object) where recordLink != nil:
            return reference(field.value, recordLink: recordLink)
        case (.reference?, .array(let items)) where recordLink != nil:
            return items.map { reference($0, recordLink: recordLink) }.joined(separator: "<br>")
        case (.assetID?, .object): return asset(field.value)
        case (.assetID?, .array(let items)): return items.map(asset).joined()
        case (.timestamp?, .array(let items)): return items.map(time).joined(separator: "<br>")
        case (.timestamp?, _): return time(field.value)
        case (_, .string(let text)):
            guard let pretty = prettyJSON(text) else { return HTML.escape(text) }
            let lines = pretty.split(separator: "\n", omittingEmptySubsequences: false).count
            let open = lines <= openFoldLines ? " open" : ""
            return "<details class=\"json\"\(open)><summary>JSON, \(lines) lines</summary>"
                + "<pre>\(HTML.escape(pretty))</pre></details>"
        default: return HTML.escape(DashboardValueText.text(field))
        }
    }

    /// The value of `field` shortened for a records list: times as ``HTML/time(_:)``, an asset as
    /// its size, other text cut to ``cellLength`` characters (the whole text on hover).
    static func cell(_ field: RecordField?) -> String {
        guard let field else { return "" }
        switch (field.type?.canonical.elementType, field.value) {
        case (.timestamp?, .array(let items)): return items.map(time).joined(separator: ", ")
        case (.timestamp?, _): return time(field.value)
        case (.assetID?, .object):
            return "asset, " + HTML.escape(field.value["size"].map(DashboardValueText.json) ?? "?") + " bytes"
        default:
            let text = DashboardValueText.text(field)
            guard text.count > cellLength else { return HTML.escape(text) }
            return "<span title=\"\(HTML.escape(text))\">\(HTML.escape(String(text.prefix(cellLength))))…</span>"
        }
    }

    /// A reference dictionary as `→ ` and a link to its record (its name as text when
    /// `recordLink` has no link for it).
    static func reference(_ value: Value, recordLink: RecordLink?) -> String {
        guard let name = value["recordName"]?.stringValue else { return HTML.escape(DashboardValueText.json(value)) }
        let zoneName = value["zoneID"]?["zoneName"]?.stringValue
        return "→ " + (recordLink?(name, zoneName) ?? HTML.escape(name))
    }

    /// The HTML of a link to record `name` in zone `zoneName` (nil: the zone the page shows), or
    /// nil when that zone has no page here.
    typealias RecordLink = (_ name: String, _ zoneName: String?) -> String?

    /// A timestamp value (epoch milliseconds, integer or not) as ``HTML/time(_:)``.
    static func time(_ value: Value) -> String {
        switch value {
        case .int(let milliseconds): return HTML.time(milliseconds)
        case .double(let milliseconds) where milliseconds.isFinite && abs(milliseconds) < 1e17:
            return HTML.time(Int64(milliseconds.rounded()))
        default: return HTML.escape(DashboardValueText.json(value))
        }
    }

    /// `text` pretty-printed when it is a JSON object or array, else nil.
    static func prettyJSON(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let first = trimmed.first, first == "{" || first == "[",
            let value = try? WireDecoder().decode(Value.self, from: Data(trimmed.utf8))
        else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// An asset dictionary: an `<img>` of its `downloadURL` when that is a same-origin path or an
    /// http(s) URL, and the dictionary as text.
    static func asset(_ value: Value) -> String {
        let url = value["downloadURL"]?.stringValue ?? ""
        let size = value["size"].map(DashboardValueText.json) ?? "?"
        let lowered = url.lowercased()
        let text = "<pre>\(HTML.escape(DashboardValueText.json(value)))</pre>"
        let sameOrigin = lowered.hasPrefix("/") && !lowered.hasPrefix("//")
        guard sameOrigin || lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return text }
        return "<img class=\"asset\" alt=\"asset, \(HTML.escape(size)) bytes\" src=\"\(HTML.escape(url))\">" + text
    }
}
