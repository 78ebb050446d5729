import LarderFormats

/// Repairs for damage recipe text commonly carries on its way through CMS plugins.
package enum TextRepair {
    /// Undoes UTF-8 that was decoded as windows-1252 (`cupÂ orange`, `crÃ¨me`, `donâ€™t`).
    ///
    /// Each run of characters whose windows-1252 bytes form one valid UTF-8 sequence becomes
    /// the character that sequence encodes. Text without such runs is returned unchanged.
    package static func mojibake(_ text: String) -> String {
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
    ///
    /// Linear in the line's length (a 160 KB line of nested parentheses took 262 s when each `((`
    /// searched the rest of the line again).
    package static func ingredientLine(_ line: String) -> String {
        guard line.contains("(") else { return line.replacingAll(" ,", with: ",") }
        let chars = Array(line)
        // nextParen[i]: the first index ≥ i holding a parenthesis (chars.count when none).
        var nextParen = [Int](repeating: chars.count, count: chars.count + 1)
        for i in stride(from: chars.count - 1, through: 0, by: -1) {
            nextParen[i] = chars[i] == "(" || chars[i] == ")" ? i : nextParen[i + 1]
        }
        // `((inner))` with no parenthesis inside becomes `(inner)`; after one that has, the search
        // goes on past its `((`.
        var out: [Character] = []
        out.reserveCapacity(chars.count)
        var i = 0
        while i < chars.count {
            if i + 1 < chars.count, chars[i] == "(", chars[i + 1] == "(" {
                let j = nextParen[i + 2]
                if j + 1 < chars.count, chars[j] == ")", chars[j + 1] == ")" {
                    out.append("(")
                    out.append(contentsOf: chars[(i + 2)..<j])
                    out.append(")")
                    i = j + 2
                } else {
                    out.append("(")
                    out.append("(")
                    i += 2
                }
                continue
            }
            out.append(chars[i])
            i += 1
        }
        return String(removeRedundantOuterParentheses(out)).replacingAll(" ,", with: ",")
    }

    /// `((a), b (c))` → `(a), b (c)`: a group that both opens and closes with an inner group
    /// was wrapped once more than it needs.
    ///
    /// One pass: groups are matched once (removing a pair leaves the others matched as they were),
    /// and the scan, as the rescanning version did, looks again at the same place after a removal.
    static func removeRedundantOuterParentheses(_ chars: [Character]) -> [Character] {
        // match[i]: where the group opened at i closes (nil when it does not).
        var match = [Int?](repeating: nil, count: chars.count)
        var open: [Int] = []
        for (index, char) in chars.enumerated() {
            if char == "(" {
                open.append(index)
            } else if char == ")", let start = open.popLast() {
                match[start] = index
            }
        }
        var removed = [Bool](repeating: false, count: chars.count)
        func next(after index: Int) -> Int {
            var k = index + 1
            while k < chars.count && removed[k] { k += 1 }
            return k
        }
        var p = 0
        while p < chars.count {
            let q = next(after: p)
            // Nothing between p and its close was removed (groups nest), so the character
            // before the close is the original one. After a removal the scan looks at q, which
            // now stands where p stood; otherwise it moves on to q: the same next step.
            if q < chars.count, chars[p] == "(", chars[q] == "(", let close = match[p], chars[close - 1] == ")" {
                removed[p] = true
                removed[close] = true
            }
            p = q
        }
        var kept: [Character] = []
        kept.reserveCapacity(chars.count)
        for (index, char) in chars.enumerated() where !removed[index] { kept.append(char) }
        return kept
    }

    /// Drops a trailing page-title suffix that only says "recipe" (`Banketstaaf – recept`).
    package static func title(_ title: String) -> String {
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
