import Foundation

/// Turns titles and ingredient lines into the normalized forms matching compares.
///
/// Normalizing folds case and diacritics, drops apostrophes (`Mom's` → `moms`), turns every
/// other non-alphanumeric character into a separator and collapses runs of separators, so
/// `"  Spicy  Garlic-Chicken Stir Fry!"` and `"spicy garlic chicken stir-fry"` agree. ASCII
/// text takes a table-driven byte loop; other text goes through Unicode properties.
package enum TextNormalizer {
    /// Per-byte action for ASCII: 0 separator, 1 drop, otherwise the (lowercased) byte.
    private static let asciiTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 128)
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(b)] = b }
        for b in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(b)] = b }
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(b)] = b + 32 }
        table[Int(UInt8(ascii: "'"))] = 1
        table[Int(UInt8(ascii: "`"))] = 1
        return table
    }()

    /// The normalized text: lowercase words separated by single spaces, no leading or trailing space.
    package static func normalize(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var text = text
        let isASCII = text.withUTF8 { bytes -> Bool in
            for b in bytes where b >= 0x80 { return false }
            var pendingSpace = false
            for b in bytes {
                let action = asciiTable[Int(b)]
                if action == 0 {
                    pendingSpace = !out.isEmpty
                } else if action != 1 {
                    if pendingSpace {
                        out.append(0x20)
                        pendingSpace = false
                    }
                    out.append(action)
                }
            }
            return true
        }
        if isASCII { return out }
        out.removeAll(keepingCapacity: true)
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            switch scalar.value {
            case 0x27, 0x60, 0x2018, 0x2019, 0x02BC: continue  // apostrophes
            default: break
            }
            let properties = scalar.properties
            guard properties.isAlphabetic || properties.numericType != nil else {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(contentsOf: properties.lowercaseMapping.utf8)
        }
        return out
    }

    /// The words of normalized text, as byte slices.
    package static func words(_ normalized: [UInt8]) -> [ArraySlice<UInt8>] {
        normalized.split(separator: 0x20)
    }

    /// A word with a plain English plural ending removed (`eggs` → `egg`, `berries` → `berry`,
    /// `tomatoes` → `tomato`), so that singular and plural match. Short words stay as they are.
    package static func singular(_ word: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let n = word.count
        guard n > 3, word.last == UInt8(ascii: "s") else { return word }
        let s = word.startIndex
        let e = word.endIndex
        func at(_ i: Int) -> UInt8 { word[e - i] }
        if at(2) == UInt8(ascii: "u") || at(2) == UInt8(ascii: "s") || at(2) == UInt8(ascii: "i") { return word }  // asparagus, glass, anis
        if n > 4 && at(3) == UInt8(ascii: "i") && at(2) == UInt8(ascii: "e") {
            var result = Array(word[s..<(e - 3)])
            result.append(UInt8(ascii: "y"))
            return result[...]
        }
        if n > 4 && at(2) == UInt8(ascii: "e") {
            let before = at(3)
            if before == UInt8(ascii: "o") || before == UInt8(ascii: "x") || before == UInt8(ascii: "z") { return word[s..<(e - 2)] }
            if n > 5 && (before == UInt8(ascii: "h")) && (at(4) == UInt8(ascii: "c") || at(4) == UInt8(ascii: "s")) {
                return word[s..<(e - 2)]
            }
        }
        return word[s..<(e - 1)]
    }

    /// Whether a word contains a digit or a vulgar fraction (a quantity such as `2`, `½`, `200g`).
    package static func hasDigit(_ word: ArraySlice<UInt8>) -> Bool {
        var hasNonASCII = false
        for b in word {
            if b >= 0x30 && b <= 0x39 { return true }
            if b >= 0x80 { hasNonASCII = true }
        }
        guard hasNonASCII else { return false }
        return String(decoding: word, as: UTF8.self).unicodeScalars.contains { $0.properties.numericType != nil }
    }
}

