import Foundation
import LarderFormats

/// YAML front matter as Jekyll sites (Chowdown) keep it at the top of a Markdown file: a
/// mapping of plain scalars and block lists between `---` lines.
struct FrontMatter {
    private(set) var text = ""

    /// Adds `key: value` (nothing for `nil` or empty text).
    mutating func add(_ key: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        text += "\(key): \(Self.scalar(value))\n"
    }

    /// Adds `key:` and a block list of `values` (nothing when there are none).
    mutating func add(_ key: String, list values: [String]) {
        guard !values.isEmpty else { return }
        text += "\(key):\n" + values.map { "- \(Self.scalar($0))\n" }.joined()
    }

    /// Adds `key:` and an indented mapping of `pairs` (nothing when there are none).
    mutating func add(_ key: String, mapping pairs: [(String, String)]) {
        guard !pairs.isEmpty else { return }
        text += "\(key):\n" + pairs.map { "  \($0.0): \(Self.scalar($0.1))\n" }.joined()
    }

    /// Adds an empty line, as Chowdown's files have between groups of keys (never two in a row).
    mutating func gap() {
        if !text.isEmpty && !text.hasSuffix("\n\n") { text += "\n" }
    }

    /// `value` as a YAML scalar: plain when every YAML 1.1 and 1.2 reader takes it back as the
    /// same string (`1 cup flour`), else double-quoted with escapes (`"Dough:"`, `"4"`, `"yes"`,
    /// `"a: b"`, line breaks as `\n`).
    static func scalar(_ value: String) -> String {
        isPlainSafe(value) ? value : quoted(value)
    }

    /// Whether `value` reads back as itself unquoted: no indicator first, no `: ` or ` #`, no
    /// surrounding space, no control or line-break characters, and nothing a reader would take
    /// for a number, Boolean, null or date.
    static func isPlainSafe(_ value: String) -> Bool {
        guard let first = value.first, let last = value.last else { return false }
        if first.isWhitespace || last.isWhitespace || last == ":" { return false }
        if "-?:,[]{}#&*!|>'\"%@`".contains(first) { return false }
        if value.contains(": ") || value.contains(" #") { return false }
        if value.unicodeScalars.contains(where: needsEscape) { return false }
        let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"]
        if reserved.contains(value.lowercased()) { return false }
        // `4`, `1.5`, `2024-01-01`, `12:30`, `+1`, `.5`: numbers, dates and times in some reader.
        if first.isNumber || first == "." || first == "+", !value.contains(" ") { return false }
        return true
    }

    /// `value` in double quotes: `\` and `"` escaped, control, line-break and BOM characters as escapes.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            if let escape = escapes[scalar] {
                out += escape
            } else if needsEscape(scalar) {
                out += String(format: "\\u%04X", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// YAML's short escapes for the characters ``quoted(_:)`` must escape.
    private static let escapes: [Unicode.Scalar: String] = [
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r",
    ]

    /// Control characters, YAML's line breaks (NEL, U+2028, U+2029) and the byte-order mark.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029 || scalar.value == 0xFEFF
    }

    /// A duration as ISO 8601, the way Chowdown's `preptime` and `cooktime` hold it: `PT15M`, `PT1H30M`.
    static func duration(_ minutes: Int?) -> String? {
        guard let minutes, minutes > 0 else { return nil }
        return RecipeTime.iso8601(minutes: minutes)
    }
}
