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
        normalize(text, into: &out)
        return out
    }

    /// Normalizes `text` into `out` (cleared first), reusing its storage.
    package static func normalize(_ text: String, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var text = text
        let isASCII = text.withUTF8 { bytes -> Bool in
            for b in bytes where b >= 0x80 { return false }
            var pendingSpace = false
            asciiTable.withUnsafeBufferPointer { table in
                for b in bytes {
                    let action = table[Int(b)]
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
            }
            return true
        }
        if isASCII { return }
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
    }

    /// Calls `body` with each word of normalized text.
    @inline(__always)
    package static func forEachWord(
        _ normalized: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var start = 0
        for i in 0...normalized.count where i == normalized.count || normalized[i] == 0x20 {
            if i > start { body(UnsafeBufferPointer(rebasing: normalized[start..<i])) }
            start = i + 1
        }
    }

    /// The hash of a word's singular form (see ``singular(_:)``), without allocating.
    @inline(__always)
    package static func singularHash(_ word: UnsafeBufferPointer<UInt8>) -> UInt64 {
        withSingular(word) { MatchVocabulary.tokenHash($0) }
    }

    /// Calls `body` with the singular form of `word`.
    ///
    /// Plural endings come off (`eggs` → `egg`, `tomatoes` → `tomato`, `peaches` → `peach`) and a
    /// final `y` or `ie` becomes `i`, so that `berry`/`berries` and `cookie`/`cookies` meet (`berri`,
    /// `cooki`). Only used for matching.
    @inline(__always)
    package static func withSingular<R>(_ word: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R)
        -> R
    {
        var n = word.count
        func at(_ k: Int) -> UInt8 { word[n - k] }
        if n > 3 && at(1) == UInt8(ascii: "s") {
            let two = at(2)
            if n > 4 && two == UInt8(ascii: "e") && at(3) == UInt8(ascii: "i") {
                n -= 2  // berries → berri
            } else if n > 4 && two == UInt8(ascii: "e")
                && (at(3) == UInt8(ascii: "o") || at(3) == UInt8(ascii: "x") || at(3) == UInt8(ascii: "z")
                    || (n > 5 && at(3) == UInt8(ascii: "h")
                        && (at(4) == UInt8(ascii: "c") || at(4) == UInt8(ascii: "s"))))
            {
                n -= 2  // tomatoes → tomato, peaches → peach
            } else if two != UInt8(ascii: "s") && two != UInt8(ascii: "u") && two != UInt8(ascii: "i") {
                n -= 1  // eggs → egg
            }
        }
        if n > 2 && at(1) == UInt8(ascii: "e") && at(2) == UInt8(ascii: "i") {
            n -= 1  // cookie → cooki
        } else if n > 3 && at(1) == UInt8(ascii: "y") {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { buffer in
                for k in 0..<(n - 1) { buffer[k] = word[k] }
                buffer[n - 1] = UInt8(ascii: "i")  // berry → berri
                return body(UnsafeBufferPointer(buffer))
            }
        }
        return body(UnsafeBufferPointer(rebasing: word[0..<n]))
    }

    /// The singular form of a word (see ``withSingular(_:_:)``).
    package static func singular(_ word: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        Array(word).withUnsafeBufferPointer { buffer in withSingular(buffer) { Array($0)[...] } }
    }

    /// Whether a word contains a digit or a vulgar fraction (a quantity such as `2`, `½`, `200g`).
    package static func hasDigit(_ word: some Collection<UInt8>) -> Bool {
        var hasNonASCII = false
        for b in word {
            if b >= 0x30 && b <= 0x39 { return true }
            if b >= 0x80 { hasNonASCII = true }
        }
        guard hasNonASCII else { return false }
        return String(decoding: word, as: UTF8.self).unicodeScalars.contains { $0.properties.numericType != nil }
    }
}
