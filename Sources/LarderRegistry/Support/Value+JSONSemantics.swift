import Foundation
import LarderCore
import LarderFormats

extension Value {
    /// JSON Schema equality: numbers compare by value (`1 == 1.0`), objects ignore key order,
    /// booleans are never numbers.
    func jsonEquals(_ other: Value) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b
        case (.double(let a), .double(let b)): return a == b
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where !x.jsonEquals(y) { return false }
            return true
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for field in a {
                guard let match = b[field.key], field.value.jsonEquals(match) else { return false }
            }
            return true
        default: return false
        }
    }

    /// The value with object keys sorted, integral doubles as integers, and text normalized
    /// (a leading BOM dropped, CRLF and CR line endings as LF): the form checksums are taken over,
    /// so formatting, key order and line endings never change a checksum.
    var normalized: Value {
        switch self {
        case .string(let s): return .string(Value.normalizeText(s))
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return .int(Int64(d))
        case .array(let a): return .array(a.map(\.normalized))
        case .object(let o):
            let sorted = o.elements.map { Field(key: Value.normalizeText($0.key), value: $0.value.normalized) }
                .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return .object(Fields(uncheckedUniqueElements: sorted))
        default: return self
        }
    }

    /// Compact JSON of ``normalized``.
    package var canonicalJSON: String {
        (try? JSONWriter.string(normalized)) ?? ""
    }

    private static func normalizeText(_ text: String) -> String {
        var s = text
        if s.hasPrefix("\u{FEFF}") { s.removeFirst() }
        guard s.utf8.contains(13) else { return s }
        return s.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// A compact JSON rendering for messages and dry-run samples, cut at `limit` characters.
    package func compactText(limit: Int = 60) -> String {
        let text = (try? JSONWriter.string(self)) ?? snippet
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }
}

/// `sha256:` and the hex SHA-256 of `text`'s UTF-8: the checksums the ledger records.
package func sha256Checksum(_ text: String) -> String {
    "sha256:"
        + SHA256.hash(Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
}
