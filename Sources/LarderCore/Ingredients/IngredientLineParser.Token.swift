extension IngredientLineParser {
    /// One token of an ingredient line: a number, a word or a symbol, with its UTF-8 byte range.
    struct Token {
        enum Kind: UInt8 { case number, word, symbol }

        var kind: Kind
        /// The first byte of the token in the line's UTF-8.
        var start: Int
        /// One past the last byte.
        var end: Int
        /// Whether whitespace (or the start of the line) comes right before the token.
        var spaceBefore: Bool
        /// A number's value.
        var value: Double = 0
        /// A number written as digits only (`2`, not `2.5`, `1/2` or `1½`).
        var isInteger = false
        /// A proper fraction (`1/2`, `½`) that can follow a whole number to make a mixed number.
        var isFraction = false
        /// A symbol, normalized: brackets become `(` `)`, every dash becomes `-`, `×` becomes `x`, `⁄` becomes `/`.
        var symbol: UInt8 = 0
        /// What the lexicon knows about a word (empty for unknown words, numbers and symbols).
        var word = Word()
        /// The unit a hyphenated word starts with (`inch` in `inch-thick`), for sizes such as `½-inch-thick`.
        var prefixUnit: IngredientUnit.ID = 0
        /// A word ending like an adjective or participle (`-ed`, `-less`, `-y`, `-ish`, `-old`), four letters or more.
        var hasAdjectiveEnding = false
        /// A word ending in `-ed`.
        var hasParticipleEnding = false
    }

    /// Splits a line into tokens in one pass over its UTF-8 bytes.
    ///
    /// Digits followed by letters split (`50g` → `50`, `g`); a whole number glued to a vulgar fraction
    /// merges (`1½` → 1.5); `1/2`, `1.5` and `1,5` are single numbers; hyphens and apostrophes inside a
    /// word stay in it (`flat-leaf`, `goats'`), except a French elided `d'` before a lowercase letter
    /// (`d'huile` → `d'`, `huile`); a plural marker glued to a word is dropped (`Kartoffel(n)` →
    /// `Kartoffel`). Complexity: O(n) in the line's length.
    static func tokenize(_ b: UnsafeBufferPointer<UInt8>) -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity(b.count / 3 + 4)
        var i = 0
        var space = true
        let n = b.count
        while i < n {
            let (scalar, length) = decodeScalar(b, i)
            if isSpace(scalar) {
                space = true
                i += length
                continue
            }
            if isDigit(b[i]) || (b[i] == 0x2E && i + 1 < n && isDigit(b[i + 1]) && !precededByDigit(tokens, i)) {
                let token = scanNumber(b, i, spaceBefore: space)
                if token.isInteger, token.end < n {
                    let (next, nextLength) = decodeScalar(b, token.end)
                    if let fraction = vulgarFraction(next) {
                        var mixed = token
                        mixed.value += fraction
                        mixed.isInteger = false
                        mixed.end += nextLength
                        tokens.append(mixed)
                        i = mixed.end
                        space = false
                        continue
                    }
                }
                tokens.append(token)
                i = token.end
            } else if let fraction = vulgarFraction(scalar) {
                tokens.append(
                    Token(
                        kind: .number, start: i, end: i + length, spaceBefore: space, value: fraction, isFraction: true)
                )
                i += length
            } else if isLetter(scalar) {
                let end = scanWord(b, i)
                if let elided = elisionEnd(b, i, end) {
                    // "d'huile": "d'" (read as "of") and the word, which is scanned next.
                    tokens.append(wordToken(b, i, elided, spaceBefore: space))
                    i = elided
                    space = false
                    continue
                }
                tokens.append(wordToken(b, i, end, spaceBefore: space))
                // A plural marker glued to the word is dropped: "Kartoffel(n)", "Prise(n)", "oignon(s)".
                i = end
                while let after = pluralMarkerEnd(b, i) { i = after }  // "fumé(e)(s)"
            } else {
                var token = Token(kind: .symbol, start: i, end: i + length, spaceBefore: space)
                token.symbol = normalizedSymbol(scalar)
                tokens.append(token)
                i += length
            }
            space = false
        }
        return tokens
    }

    /// A word token with its lexicon entry.
    ///
    /// A hyphenated word the lexicon does not know may start with a unit (`inch-thick`) or join an adverb
    /// and a participle (`well-drained`, read as a preparation).
    private static func wordToken(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, spaceBefore: Bool)
        -> Token
    {
        var token = Token(kind: .word, start: start, end: end, spaceBefore: spaceBefore)
        if let word = lexicon[lowercased(b, start, end)] {
            token.word = word
        } else if let hyphen = (start..<end).first(where: { b[$0] == 0x2D }) {
            token.prefixUnit = IngredientUnit.ids[lowercased(b, start, hyphen)] ?? 0
            let lastHyphen = (start..<end).last(where: { b[$0] == 0x2D }) ?? hyphen
            let first = lexicon[lowercased(b, start, lastHyphen)]?.classes ?? WordClass(rawValue: 0)
            let last = lexicon[lowercased(b, lastHyphen + 1, end)]?.classes ?? WordClass(rawValue: 0)
            if first.contains(.preparationAdverb), last.contains(.preparation) || last.contains(.weakPreparation) {
                token.word.classes = .preparation
            }
        }
        let length = end - start
        if length > 3 {
            func endsWith(_ suffix: StaticString) -> Bool {
                let count = suffix.utf8CodeUnitCount
                guard length >= count else { return false }
                let base = suffix.utf8Start
                for k in 0..<count where b[end - count + k] | 0x20 != base[k] { return false }
                return true
            }
            token.hasParticipleEnding = endsWith("ed")
            token.hasAdjectiveEnding =
                token.hasParticipleEnding || endsWith("less") || endsWith("y") || endsWith("ish") || endsWith("-old")
        }
        return token
    }

    /// The end of the elided `d'` or `d’` starting the word `start..<end`, else `nil`.
    ///
    /// Only before a lowercase letter (`d'huile`, `d’oignons`); names keep theirs (`fourme d’Ambert`, `d'Anjou`).
    private static func elisionEnd(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard b[start] | 0x20 == 0x64, start + 1 < end else { return nil }  // d or D
        let apostrophe: Int
        if b[start + 1] == 0x27 {
            apostrophe = 1
        } else if start + 3 < end, b[start + 1] == 0xE2, b[start + 2] == 0x80, b[start + 3] == 0x99 {
            apostrophe = 3
        } else {
            return nil
        }
        let next = start + 1 + apostrophe
        guard next < end else { return nil }
        let byte = b[next]
        let startsLowercase = (byte >= 0x61 && byte <= 0x7A) || byte >= 0xC0
        return startsLowercase ? next : nil
    }

    /// Plural (and French feminine) markers written in parentheses right after a word.
    private static let pluralMarkers: Set<String> = ["s", "es", "ies", "n", "en", "e", "er", "r", "x", "ern", "nen"]

    /// The index after a plural marker glued to the word ending at `end` (`(n)` in `Kartoffel(n)`,
    /// `(s)` in `oignon(s)`, `(er)` in `Ei(er)`), when one is there and no letter follows it.
    private static func pluralMarkerEnd(_ b: UnsafeBufferPointer<UInt8>, _ end: Int) -> Int? {
        let n = b.count
        guard end < n, b[end] == 0x28 else { return nil }
        var k = end + 1
        while k < n, k - end <= 4, b[k] >= 0x61 && b[k] <= 0x7A { k += 1 }
        guard k > end + 1, k < n, b[k] == 0x29 else { return nil }
        let marker = String(decoding: UnsafeBufferPointer(rebasing: b[(end + 1)..<k]), as: UTF8.self)
        guard pluralMarkers.contains(marker) else { return nil }
        let after = k + 1
        if after < n, isLetter(decodeScalar(b, after).0) { return nil }
        return after
    }

    private static func scanNumber(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, spaceBefore: Bool) -> Token {
        let n = b.count
        var i = start
        var whole = 0.0
        var digits = 0
        while i < n, isDigit(b[i]), digits < 15 {  // longer digit runs split into more numbers
            whole = whole * 10 + Double(b[i] - 0x30)
            digits += 1
            i += 1
        }
        var token = Token(kind: .number, start: start, end: i, spaceBefore: spaceBefore, value: whole, isInteger: true)
        guard i + 1 < n else { return token }
        let separator = b[i]
        if separator == 0x2E || separator == 0x2C, isDigit(b[i + 1]) {  // "1.5", ".5", "1,5", "1,000"
            var j = i + 1
            var fractionDigits = 0
            var fraction = 0.0
            var scale = 1.0
            while j < n, isDigit(b[j]), fractionDigits < 15 {
                fraction = fraction * 10 + Double(b[j] - 0x30)
                scale *= 10
                fractionDigits += 1
                j += 1
            }
            if separator == 0x2C, fractionDigits == 3, digits > 0, digits <= 3 {
                token.value = whole * 1000 + fraction  // a thousands separator
                token.end = j
            } else if separator == 0x2E || fractionDigits <= 2 {
                token.value = whole + fraction / scale
                token.isInteger = false
                token.end = j
            }
            return token
        }
        let (scalar, length) = decodeScalar(b, i)
        if digits > 0, scalar == 0x2F || scalar == 0x2044, i + length < n, isDigit(b[i + length]) {  // "1/2"
            var j = i + length
            var denominator = 0.0
            while j < n, isDigit(b[j]), j - i < 16 {
                denominator = denominator * 10 + Double(b[j] - 0x30)
                j += 1
            }
            if denominator > 0 {
                token.value = whole / denominator
                token.isInteger = false
                token.isFraction = whole < denominator
                token.end = j
            }
        }
        return token
    }

    private static func scanWord(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var i = start
        let n = b.count
        while i < n {
            let (scalar, length) = decodeScalar(b, i)
            if isLetter(scalar) {
                i += length
                continue
            }
            // Inner hyphens and apostrophes (flat-leaf, goats', chef's) belong to the word.
            let isJoiner = scalar == 0x2D || scalar == 0x27 || scalar == 0x2019 || scalar == 0x2010
            guard isJoiner, i > start else { break }
            let next = i + length
            if next < n, isLetter(decodeScalar(b, next).0) {
                i = next
                continue
            }
            if scalar != 0x2D, scalar != 0x2010 { i = next }  // a trailing apostrophe: "goats'"
            break
        }
        return i
    }

    /// The Unicode scalar at `i` and its length in bytes (a malformed byte counts as one scalar).
    static func decodeScalar(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
        let lead = b[i]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let n = b.count
        if lead & 0xE0 == 0xC0, i + 1 < n {
            return ((UInt32(lead & 0x1F) << 6) | UInt32(b[i + 1] & 0x3F), 2)
        }
        if lead & 0xF0 == 0xE0, i + 2 < n {
            return ((UInt32(lead & 0x0F) << 12) | (UInt32(b[i + 1] & 0x3F) << 6) | UInt32(b[i + 2] & 0x3F), 3)
        }
        if lead & 0xF8 == 0xF0, i + 3 < n {
            let value =
                (UInt32(lead & 0x07) << 18) | (UInt32(b[i + 1] & 0x3F) << 12) | (UInt32(b[i + 2] & 0x3F) << 6)
                | UInt32(b[i + 3] & 0x3F)
            return (value, 4)
        }
        return (UInt32(lead), 1)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func precededByDigit(_ tokens: [Token], _ i: Int) -> Bool {
        guard let last = tokens.last else { return false }
        return last.kind == .number && last.end == i
    }

    private static func isSpace(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0xA0, 0x2007, 0x2009, 0x200A, 0x202F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    private static func isLetter(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return (scalar | 0x20) >= 0x61 && (scalar | 0x20) <= 0x7A }
        // Latin-1 and other letters; the punctuation, dashes, quotes and fractions handled elsewhere are not.
        if scalar == 0xD7 || scalar == 0xF7 { return false }
        if scalar < 0xC0 { return false }
        if scalar >= 0x2000 && scalar <= 0x2BFF { return false }
        if vulgarFraction(scalar) != nil { return false }
        return true
    }

    private static func normalizedSymbol(_ scalar: UInt32) -> UInt8 {
        switch scalar {
        case 0x28, 0x5B, 0x7B: 0x28  // ( [ {
        case 0x29, 0x5D, 0x7D: 0x29  // ) ] }
        case 0x2010...0x2015, 0x2212, 0x2D: 0x2D  // dashes and minus
        case 0xD7: 0x78  // ×
        case 0x2044: 0x2F  // fraction slash
        case 0x2018, 0x2019: 0x27
        case 0x201C, 0x201D: 0x22
        case 0..<0x80: UInt8(scalar)
        default: 0x3F  // any other symbol
        }
    }

    private static func lowercased(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        var hasUpper = false
        for i in start..<end where b[i] >= 0x41 && b[i] <= 0x5A {
            hasUpper = true
            break
        }
        if !hasUpper { return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self) }
        return String(unsafeUninitializedCapacity: end - start) { buffer in
            for i in start..<end {
                let byte = b[i]
                buffer[i - start] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            }
            return end - start
        }
    }
}
