import Foundation
import LarderCore

/// The one escaping function every dashboard page uses, and small builders over it.
///
/// Nothing from the store, the request log or the configuration reaches a page except through
/// ``escape(_:)``: `&`, `<`, `>`, `"` and `'` become entities, so a stored `<script>` shows as text
/// in element content and in quoted attribute values alike.
enum HTML {
    /// The characters that could end a text run or a quoted attribute, and their entities.
    private static let entities: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ]

    /// `text` with `& < > " '` replaced by entities.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let entity = entities[scalar] { out += entity } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// A link: `href` is built from `path` and percent-encoded query items, then escaped.
    static func link(_ text: String, _ path: String, _ query: [(String, String)] = [], id: String? = nil) -> String {
        let idText = id.map { " id=\"\(escape($0))\"" } ?? ""
        return "<a href=\"\(escape(url(path, query)))\"\(idText)>\(escape(text))</a>"
    }

    /// `path?name=value&…` with names and values percent-encoded; empty values are left out.
    static func url(_ path: String, _ query: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let items = query.filter { !$0.1.isEmpty }.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }
        return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
    }

    /// A table: escaped header cells, and rows of cells that are already HTML.
    static func table(_ headers: [String], _ rows: [[String]], id: String) -> String {
        var out = "<table id=\"\(escape(id))\"><thead><tr>"
        out += headers.map { "<th>\(escape($0))</th>" }.joined()
        out += "</tr></thead><tbody>"
        for row in rows { out += "<tr>" + row.map { "<td>\($0)</td>" }.joined() + "</tr>" }
        return out + "</tbody></table>"
    }

    /// A hidden input.
    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">"
    }

    /// A `<select>` with `selected` preselected; option labels and values escaped.
    static func select(_ name: String, _ options: [(value: String, label: String)], selected: String) -> String {
        var out = "<select name=\"\(escape(name))\" id=\"\(escape(name))\">"
        for option in options {
            let mark = option.value == selected ? " selected" : ""
            out += "<option value=\"\(escape(option.value))\"\(mark)>\(escape(option.label))</option>"
        }
        return out + "</select>"
    }

    /// A millisecond timestamp as a `<time>` element: UTC ISO-8601 text (milliseconds when not
    /// zero), the epoch milliseconds on hover (its `title`).
    static func time(_ milliseconds: Int64) -> String {
        let iso = escape(Timestamp.format(Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
        return "<time datetime=\"\(iso)\" title=\"\(milliseconds) ms since 1970\">\(iso)</time>"
    }
}
