import LarderFormats

/// Repairs for damage recipe text commonly carries on its way through CMS plugins.
public enum TextRepair {
    /// Undoes UTF-8 that was decoded as windows-1252 (`cupÂ orange`, `crÃ¨me`, `donâ€™t`).
    ///
    /// Each run of characters whose windows-1252 bytes form one valid UTF-8 sequence becomes
    /// the character that sequence encodes. Text without such runs is returned unchanged.
    public static func mojibake(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { $0.value >= 0xC2 && $0.value <= 0xF4 }) else { return text }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if let lead = windows1252Byte(scalars[i]), lead >= 0xC2, lead <= 0xF4 {
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                if i + length <= scalars.count {
                    var bytes = [lead]
                    for j in 1..<length {
                        guard let b = windows1252Byte(scalars[i + j]), b >= 0x80, b <= 0xBF else { break }
                        bytes.append(b)
                    }
                    if bytes.count == length, let decoded = String(validating: bytes, as: UTF8.self),
                        decoded.unicodeScalars.count == 1
                    {
                        out.append(contentsOf: decoded.unicodeScalars)
                        i += length
                        continue
                    }
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }

    private static let windows1252Reverse: [UInt32: UInt8] = {
        var table: [UInt32: UInt8] = [:]
        for (offset, scalar) in TextEncoding.cp1252High.enumerated() {
            if let scalar { table[scalar.value] = UInt8(0x80 + offset) }
        }
        return table
    }()

    /// `text` in Windows-1252, or nil when a character has no byte there.
    static func windows1252Bytes(of text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            guard let byte = windows1252Byte(scalar) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    private static func windows1252Byte(_ scalar: Unicode.Scalar) -> UInt8? {
        if scalar.value < 0x80 || (scalar.value >= 0xA0 && scalar.value <= 0xFF) { return UInt8(scalar.value) }
        return windows1252Reverse[scalar.value]
    }

    /// Tidies an ingredient line as recipe plugins publish it: a note wrapped twice in
    /// parentheses (`((softened))` → `(softened)`) and spaces before commas (`onion , chopped`).
    public static func ingredientLine(_ line: String) -> String {
        var text = line
        var searchStart = text.startIndex
        while let open = text[searchStart...].firstRange(of: "(("),
            let close = text[open.upperBound...].firstRange(of: "))")
        {
            let inner = text[open.upperBound..<close.lowerBound]
            // Only a plain doubled wrapper: the inside must not open or close parentheses itself.
            guard !inner.contains("(") && !inner.contains(")") else {
                searchStart = open.upperBound
                continue
            }
            let prefix = String(text[..<open.lowerBound]) + "(" + inner + ")"
            text = prefix + String(text[close.upperBound...])
            searchStart = text.index(text.startIndex, offsetBy: prefix.count)
        }
        return removeRedundantOuterParentheses(text).replacingAll(" ,", with: ",")
    }

    /// `((a), b (c))` → `(a), b (c)`: a group that both opens and closes with an inner group
    /// was wrapped once more than it needs.
    private static func removeRedundantOuterParentheses(_ text: String) -> String {
        var chars = Array(text)
        var i = 0
        while i + 1 < chars.count {
            guard chars[i] == "(", chars[i + 1] == "(" else {
                i += 1
                continue
            }
            var depth = 0
            var close: Int?
            for j in i..<chars.count {
                if chars[j] == "(" {
                    depth += 1
                } else if chars[j] == ")" {
                    depth -= 1
                    if depth == 0 {
                        close = j
                        break
                    }
                }
            }
            if let close, chars[close - 1] == ")" {
                chars.remove(at: close)
                chars.remove(at: i)
            } else {
                i += 1
            }
        }
        return String(chars)
    }

    /// Drops a trailing page-title suffix that only says "recipe" (`Banketstaaf – recept`).
    public static func title(_ title: String) -> String {
        let words: Set<String> = [
            "recipe", "recept", "rezept", "receta", "ricetta", "recette", "opskrift", "oppskrift", "resepti", "przepis",
        ]
        for separator in [" – ", " - ", " | ", " — "] {
            guard let range = title.lastRange(of: separator) else { continue }
            let tail = String(title[range.upperBound...]).trimmingWhitespace.lowercased()
            if words.contains(tail) {
                let head = String(title[..<range.lowerBound]).trimmingWhitespace
                if !head.isEmpty { return head }
            }
        }
        return title
    }
}

extension String {
    fileprivate func lastRange(of target: String) -> Range<String.Index>? {
        var found: Range<String.Index>?
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            found = range
            rest = rest[range.upperBound...]
        }
        return found
    }
}
