/// Text for people's terminals: record-derived text (titles, field values, file names) must not
/// reach a terminal as control sequences, or a title like `ESC[2J` clears the screen.
///
/// Used by ``Diagnostic/description`` and the CLI's human-readable printers (summaries, dedupe
/// explanations, progress). Machine outputs (JSON, NDJSON, YAML, XML data) are never escaped.
public enum TerminalText {
    /// `text` with each control character but newline and tab shown as a Swift-style escape:
    /// C0 controls, DEL and the C1 controls (U+0080–U+009F, among them the one-byte CSI).
    ///
    /// ```swift
    /// TerminalText.escaped("\u{1B}[2JSoup")   // "\u{1B}[2JSoup", with a literal backslash
    /// ```
    /// O(n); returns `text` itself when there is nothing to escape.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0A && value != 0x09) || (value >= 0x7F && value <= 0x9F)
    }
}
