import LarderCore
import LarderFormats

/// Text helpers every importer shares.
enum ImportText {
    /// The non-empty lines of a text, trimmed (`\n`, `\r` and `\r\n` breaks).
    static func lines(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map {
            String($0).trimmingWhitespace
        }.filter { !$0.isEmpty }
    }

    /// The text trimmed, or nil when nothing is left.
    static func nonEmpty(_ text: String) -> String? {
        let t = text.trimmingWhitespace
        return t.isEmpty ? nil : t
    }

    /// A JSON number as a double (apps write integers and decimals).
    static func number(_ value: Value?) -> Double? {
        switch value {
        case .int(let i)?: Double(i)
        case .double(let d)?: d
        default: nil
        }
    }
}
