import Foundation

/// Splits a free-text ingredient line into quantity, unit, item and note.
///
/// The parser reads the first amount of the line (`1½ cups`, `2-3 tbsp`, `150g/5oz`, `1 (14 ounce) can`)
/// as the quantity, its range end and its canonical unit (see ``IngredientUnit``), skips the
/// equivalents written beside it (`/5oz`, `(60 g)`), and splits the rest into the ingredient name
/// and a note: text after the first comma, text in parentheses, sizes (`large`), leading or trailing
/// preparations (`finely chopped`) and purposes (`to taste`, `for garnish`). The line itself is always
/// kept verbatim in ``Ingredient/original``. Parsing never fails: a line with no amount becomes an item.
/// German and French lines read the same way (`2 EL Olivenöl`, `1 Prise(n) Salz`, `2 c. à soupe
/// d'huile d'olive`, `450 à 500 g`); see ``IngredientUnit`` for the spellings.
///
/// It is a pure function over the line's UTF-8 bytes (no regular expressions, no allocation beyond
/// the token array and the output strings), safe to share across threads. Complexity: O(n) in the
/// line's length.
///
/// ```swift
/// let parser = IngredientLineParser()
/// let butter = parser.parse("1 cup (2 sticks) unsalted butter, melted")
/// // quantity 1, unit "cup", item "unsalted butter", note "melted"
/// let tomatoes = parser.parse("1 (14 ounce) can diced tomatoes")
/// // quantity 1, unit "can", item "diced tomatoes", note "14 ounce"
/// ```
public struct IngredientLineParser: Sendable {
    /// Creates a parser.
    ///
    /// The word tables are built once per process and shared.
    public init() {}

    /// Parses one ingredient line.
    ///
    /// - Parameter line: the line as written, such as `2-3 tbsp olive oil, plus extra to serve`.
    /// - Returns: the structured ingredient; `original` is `line` unchanged, and `item` is never empty
    ///   for a line with any text (it falls back to the trimmed line).
    public func parse(_ line: String) -> Ingredient {
        let parsed = line.utf8.withContiguousStorageIfAvailable { bytes in
            var scan = LineScan(bytes: bytes)
            return scan.run(original: line)
        }
        if let parsed { return parsed }
        let bytes = Array(line.utf8)  // a bridged string without contiguous UTF-8
        return bytes.withUnsafeBufferPointer { buffer in
            var scan = LineScan(bytes: buffer)
            return scan.run(original: line)
        }
    }
}

/// The state of parsing one line: its tokens, the amount found so far and the byte ranges of the note.
private struct LineScan {
    typealias Token = IngredientLineParser.Token
    typealias WordClass = IngredientLineParser.WordClass

    /// The line's UTF-8, valid while the scan runs.
    let b: UnsafeBufferPointer<UInt8>
    let t: [Token]
    var quantity: Double?
    var quantityMax: Double?
    var unit: IngredientUnit.ID = 0
    /// Byte ranges of the note's pieces, in any order (sorted when the note is built).
    var notes: [Range<Int>] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        b = bytes
        t = IngredientLineParser.tokenize(bytes)
    }

    mutating func run(original: String) -> Ingredient {
        var item: String
        if let itemStart = parseHead() {
            item = parseRest(from: itemStart, to: t.count, allowTailAsItem: true)
        } else if let itemFirst = parseAmountAfterItem() {
            item = itemFirst
        } else {
            item = parseRest(from: 0, to: t.count, allowTailAsItem: true)
        }
        if item.isEmpty {
            item = trimmed(original)
            notes.removeAll()
        }
        return Ingredient(
            quantity: quantity, quantityMax: quantityMax, unit: IngredientUnit.name(of: unit), item: item,
            note: makeNote(),
            original: original)
    }

    // MARK: - Token predicates

    func isSymbol(_ i: Int, _ symbol: UInt8) -> Bool {
        i >= 0 && i < t.count && t[i].kind == .symbol && t[i].symbol == symbol
    }

    func isWord(_ i: Int, _ keyword: IngredientLineParser.Keyword) -> Bool {
        i >= 0 && i < t.count && t[i].word.keyword == keyword
    }

    func isAnyWord(_ i: Int) -> Bool {
        i >= 0 && i < t.count && t[i].kind == .word
    }

    func classes(_ i: Int) -> WordClass {
        i >= 0 && i < t.count ? t[i].word.classes : WordClass(rawValue: 0)
    }

    func isMultiplier(_ i: Int) -> Bool {
        isWord(i, .x) || isSymbol(i, 0x78)
    }

    /// Whether a word may stand between a quantity and its unit: `2 large slices`, `1 tightly packed cup`.
    func isUnitModifier(_ i: Int) -> Bool {
        let c = classes(i)
        return c.contains(.unitModifier) || c.contains(.size) || c.contains(.preparationAdverb) || isWord(i, .packed)
            || (isWord(i, .extra) && classes(i + 1).contains(.size))
    }

    // MARK: - Numbers, quantities, units

    /// A number at `i`: digits, a decimal, a fraction, a mixed number (`1 1/2`, `1 ½`, `1-1/2`) or a number word.
    func number(at i: Int) -> (value: Double, end: Int)? {
        guard i >= 0, i < t.count else { return nil }
        let token = t[i]
        switch token.kind {
        case .number:
            if token.isInteger, i + 1 < t.count {
                let next = t[i + 1]
                if next.kind == .number, next.isFraction { return (token.value + next.value, i + 2) }
                if next.kind == .symbol, next.symbol == 0x2D, !next.spaceBefore, i + 2 < t.count,
                    t[i + 2].kind == .number, t[i + 2].isFraction, !t[i + 2].spaceBefore,
                    t[i + 2].end - t[i + 2].start > 2
                {
                    return (token.value + t[i + 2].value, i + 3)  // "1-1/2"
                }
            }
            return (token.value, i + 1)
        case .word:
            guard let value = token.word.number else { return nil }
            return (value, i + 1)
        case .symbol:
            return nil
        }
    }

    /// A quantity at `i`: a number or a range (`2-3`, `2 to 3`, `2–3`, `1 or 2`, `12- to 16-`, `10- or 12-`).
    func quantity(at i: Int) -> (value: Double, max: Double?, end: Int)? {
        guard let low = number(at: i) else { return nil }
        var j = low.end
        if isSymbol(j, 0x2D) {
            j += 1
            if isWord(j, .to) || isWord(j, .or) { j += 1 }
        } else if isWord(j, .to) || isWord(j, .or) {
            j += 1
        } else {
            return (low.value, nil, low.end)
        }
        if let high = number(at: j), high.value > low.value { return (low.value, high.value, high.end) }
        return (low.value, nil, low.end)
    }

    /// Where a unit may be read.
    enum UnitContext {
        /// Right after a number: every unit, one-letter shorthands included.
        case afterNumber
        /// After an article or before `of` (`a tablespoon of`): every unit word of two letters or more.
        case word
        /// At the start of a line: only units that can stand alone (`pinch`, `handful`, `sprig`).
        case countable
    }

    /// A unit at `i` and the index after it (a trailing period of an abbreviation included).
    func unit(at i: Int, _ context: UnitContext) -> (id: IngredientUnit.ID, end: Int)? {
        guard i >= 0, i < t.count, t[i].kind == .word else { return nil }
        let token = t[i]
        var end = i + 1
        var id: IngredientUnit.ID = 0
        if let spoon = frenchSpoon(at: i) {
            id = spoon.id
            end = spoon.end
        } else if token.word.keyword == .fl || token.word.keyword == .fluid {
            var k = i + 1
            if isSymbol(k, 0x2E) { k += 1 }
            guard k < t.count, t[k].word.unit == Self.ounce else { return nil }
            id = Self.fluidOunce
            end = k + 1
        } else if token.end - token.start == 1 {
            guard context == .afterNumber else { return nil }
            switch b[token.start] {
            case 0x54: id = Self.tablespoon  // T
            case 0x74: id = Self.teaspoon  // t
            default: id = token.word.unit  // c, g, l
            }
        } else {
            id = token.word.unit
            if token.word.keyword == .in, token.spaceBefore {
                // "in" is a preposition unless glued to its number or followed by punctuation or a unit.
                let next = i + 1
                let isUnitContext = next >= t.count || t[next].kind == .symbol || t[next].word.unit != 0
                if !isUnitContext { return nil }
            }
        }
        guard id != 0 else { return nil }
        if context == .countable, !IngredientUnit.isCountable(id) { return nil }
        if isSymbol(end, 0x2E), !t[end].spaceBefore { end += 1 }
        return (id, end)
    }

    /// A French spoon measure at `i` and the index after it: `c. à soupe`, `c.à.s.`, `c à c`, `cuil. à café`,
    /// `cuillères à soupe` (a lead word, an optional period, `à` or `a`, an optional period, the kind).
    func frenchSpoon(at i: Int) -> (id: IngredientUnit.ID, end: Int)? {
        guard classes(i).contains(.spoonLead) else { return nil }
        var k = i + 1
        if isSymbol(k, 0x2E) { k += 1 }
        guard k < t.count, t[k].kind == .word,
            isWord(k, .to) || (classes(k).contains(.article) && t[k].end - t[k].start == 1)
        else { return nil }
        k += 1
        if isSymbol(k, 0x2E) { k += 1 }
        guard k < t.count, t[k].kind == .word, t[k].word.spoonUnit != 0 else { return nil }
        var end = k + 1
        if isSymbol(end, 0x2E), !t[end].spaceBefore { end += 1 }
        return (t[k].word.spoonUnit, end)
    }

    static let ounce = IngredientUnit.id(of: "oz")
    static let fluidOunce = IngredientUnit.id(of: "fl oz")
    static let tablespoon = IngredientUnit.id(of: "tablespoon")
    static let teaspoon = IngredientUnit.id(of: "teaspoon")

    /// The end of the measure at `i`, or `nil` when there is none.
    ///
    /// A measure is a quantity, an optional joining hyphen (`28-ounce`), and a unit (or a hyphenated word
    /// that starts with one, `½-inch-thick`).
    func measure(at i: Int) -> Int? {
        guard let amount = quantity(at: i) else { return nil }
        var k = amount.end
        if isSymbol(k, 0x2D), !t[k].spaceBefore { k += 1 }
        if let found = unit(at: k, .afterNumber) { return found.end }
        if k < t.count, t[k].prefixUnit != 0 { return k + 1 }
        return nil
    }

    /// The index of the `)` closing the `(` at `open`, or `limit` when it is not closed.
    func closingParenthesis(_ open: Int, limit: Int) -> Int {
        var depth = 0
        var k = open
        while k < limit {
            if t[k].kind == .symbol {
                if t[k].symbol == 0x28 { depth += 1 }
                if t[k].symbol == 0x29 {
                    depth -= 1
                    if depth == 0 { return k }
                }
            }
            k += 1
        }
        return limit
    }

    /// Whether a parenthesis at `open` holds a measure first (`(60 g)`, `(about 250 ml)`), and its end.
    func parenthesizedMeasure(at open: Int) -> (close: Int, hasUnit: Bool)? {
        guard isSymbol(open, 0x28) else { return nil }
        var k = open + 1
        while classes(k).contains(.approximation) || isSymbol(k, 0x7E) { k += 1 }
        guard quantity(at: k) != nil else { return nil }
        let close = closingParenthesis(open, limit: t.count)
        return (close, measure(at: k) != nil)
    }

    /// Skips the equivalents written after the first amount: `/5oz`, a repeated unit in a range
    /// (`110ml-150ml`), a composite (`1lb 2oz`), a parenthesized measure (`(60 g)`), an addition
    /// (`plus 2 tablespoons`, noted) and a second unit for the piece measured (`5cm/2in piece`, noted).
    mutating func skipEquivalents(from start: Int) -> Int {
        var i = start
        while i < t.count {
            if quantityMax == nil, isSymbol(i, 0x2D) || isWord(i, .to), let low = quantity,
                let high = quantity(at: i + 1), high.value > low, let repeated = unit(at: high.end, .afterNumber),
                repeated.id == unit
            {
                quantityMax = high.value
                i = repeated.end
                continue
            }
            if isSymbol(i, 0x2F) || isSymbol(i, 0x2D), let end = measure(at: i + 1) {
                i = end
                continue
            }
            if isSymbol(i, 0x2F), let bare = quantity(at: i + 1) {  // "125g/4½ plain flour"
                i = bare.end
                continue
            }
            if let end = measure(at: i) {
                i = end
                continue
            }
            if let parenthesis = parenthesizedMeasure(at: i), parenthesis.hasUnit {
                i = parenthesis.close + 1
                continue
            }
            let isAddition =
                isWord(i, .plus) || isWord(i, .and) || isWord(i, .minus) || isWord(i, .to) || isSymbol(i, 0x2B)
            if isAddition, let end = measure(at: i + 1) {  // "1 cup plus 2 tablespoons", "2 teaspoons to 1 tablespoon"
                addNote(i, end)
                i = end
                continue
            }
            break
        }
        // "5cm/2in piece fresh ginger", "25g chunk ginger": the piece the measure describes.
        if let piece = unit(at: i, .word), t[i].end - t[i].start > 2, isAnyWord(piece.end), t[piece.end].word.unit == 0
        {
            addNote(i, piece.end)
            i = piece.end
        }
        return i
    }

    // MARK: - The amount at the head of the line

    /// Reads the amount at the start of the line and returns where the item starts, or `nil` when the
    /// line starts with neither a quantity nor a unit.
    mutating func parseHead() -> Int? {
        var i = 0
        while classes(i).contains(.approximation) || classes(i).contains(.unitModifier) || isSymbol(i, 0x7E) {
            i += 1
        }
        if i > 0, number(at: i) != nil {
            addNote(0, i)  // "about 2 cups", "scant 1 cup"
        } else {
            i = 0
        }
        if let amount = quantity(at: i) {
            return parseAfterQuantity(amount)
        }
        // "Zest of 1 lemon", "Finely grated zest and juice of 1 clementine": a lead-in before the amount.
        for k in 1...6 where isWord(k, .of) || isWord(k, .from) {
            if t[0..<k].allSatisfy({ $0.kind == .word }), let amount = quantity(at: k + 1) {
                addNote(0, k + 1)
                return parseAfterQuantity(amount)
            }
        }
        // No number: "pinch of salt", "a handful of basil", "a couple pinches salt", "good pinch sea salt".
        var j = i
        var hasArticle = false
        if classes(j).contains(.article) {
            j += 1
            hasArticle = true
        }
        while classes(j).contains(.vagueAmount) || (j > i && isWord(j, .of) && classes(j - 1).contains(.vagueAmount)) {
            j += 1
            hasArticle = true
        }
        let modifiers = j
        while isUnitModifier(j) { j += 1 }
        let context: UnitContext = hasArticle || isWord(j + 1, .of) ? .word : .countable
        if let found = unit(at: j, context), isAnyWord(found.end) {
            unit = found.id
            if modifiers > i + 1 || !hasArticle { addNote(i, modifiers) }  // "a couple", not a lone "a"
            addNote(modifiers, j)
            return isWord(found.end, .of) ? found.end + 1 : found.end
        }
        return nil
    }

    /// Reads what follows the quantity: a multiplier, sizes, the unit and its equivalents.
    mutating func parseAfterQuantity(_ amount: (value: Double, max: Double?, end: Int)) -> Int {
        quantity = amount.value
        quantityMax = amount.max
        var i = amount.end
        if isMultiplier(i) { i += 1 }  // "2 x 400g tins": 2 tins of 400 g each
        if isWord(i, .of), classes(i + 1).contains(.article) { i += 2 }  // "1/3 of a bunch"
        if amount.value < 1, classes(i).contains(.article) { i += 1 }  // "half a teaspoon"
        var j = i
        while isUnitModifier(j) { j += 1 }
        let hyphen = j == i && isSymbol(j, 0x2D) && !t[j].spaceBefore ? 1 : 0  // "2¾-pound chicken"
        if let found = unit(at: j + hyphen, .afterNumber) {
            unit = found.id
            addNote(i, j)
            var afterUnit = found.end
            // A unit written twice by a site's template: "200 g g Feta", "6 El El Olivenöl".
            if let repeated = unit(at: afterUnit, .afterNumber), repeated.id == found.id { afterUnit = repeated.end }
            while classes(afterUnit).contains(.trailingUnitModifier), isAnyWord(afterUnit + 1) {  // "c. à café rase"
                addNote(afterUnit, afterUnit + 1)
                afterUnit += 1
            }
            let end = skipEquivalents(from: skipAlternativeUnit(afterUnit))
            return isWord(end, .of) ? end + 1 : end
        }
        // A size before the unit or item: "1 (14 ounce) can", "One 28-ounce can", "1 3-4 ounce tomato".
        guard let size = sizeMeasure(at: j) else { return i }
        addNote(i, j)
        addNote(size.note.lowerBound, size.note.upperBound)
        var k = size.end
        while isUnitModifier(k) { k += 1 }
        if let found = unit(at: k, .word) {
            unit = found.id
            addNote(size.end, k)
            let end = skipAlternativeUnit(found.end)
            return isWord(end, .of) ? end + 1 : end
        }
        return size.end
    }

    /// Skips `or can` in `1 12-oz bottle or can of beer` and `or more` in `5 dashes or more of bitters`.
    mutating func skipAlternativeUnit(_ start: Int) -> Int {
        guard isWord(start, .or) else { return start }
        if let alternative = unit(at: start + 1, .word) {
            addNote(start, alternative.end)
            return alternative.end
        }
        if isWord(start + 1, .more) || isWord(start + 1, .less) || isWord(start + 1, .so) {
            addNote(start, start + 2)
            return start + 2
        }
        return start
    }

    /// A size at `i` and its end: a parenthesized measure (`(14 ounce)`, `(12-15) pound`) or a measure
    /// with its equivalents (`28-ounce`, `360g/12½oz`).
    func sizeMeasure(at i: Int) -> (end: Int, note: Range<Int>)? {
        if let parenthesis = parenthesizedMeasure(at: i) {
            let after = parenthesis.close + 1
            if !parenthesis.hasUnit, let unitAfter = unit(at: after, .afterNumber) {
                return (unitAfter.end, i..<unitAfter.end)
            }
            return (after, (i + 1)..<parenthesis.close)
        }
        guard var end = measure(at: i) else { return nil }
        while true {
            if isSymbol(end, 0x2F) || isSymbol(end, 0x2D), let next = measure(at: end + 1) {
                end = next
            } else if let next = measure(at: end) {
                end = next
            } else if let parenthesis = parenthesizedMeasure(at: end), parenthesis.hasUnit {
                end = parenthesis.close + 1
            } else {
                return (end, i..<end)
            }
        }
    }

    /// Parses a line that names the item first.
    ///
    /// Such lines are `Heavy cream, 1½ cups`, `Sugar 2 cups (400 grams)`, `Optional: 2 small squid`.
    /// Returns the item, or `nil` (with nothing changed) when the line is not one.
    mutating func parseAmountAfterItem() -> String? {
        var k = 0
        while k < min(t.count, 12) {
            let token = t[k]
            if token.kind == .number { break }
            if token.kind == .symbol, token.symbol == 0x28 {
                k = closingParenthesis(k, limit: t.count) + 1
                continue
            }
            guard token.kind == .word || token.symbol == 0x2C || token.symbol == 0x3A else { return nil }
            k += 1
        }
        guard k > 0, k < t.count, t[k].kind == .number else { return nil }
        var amountStart = k
        while amountStart > 0, classes(amountStart - 1).contains(.approximation) { amountStart -= 1 }
        guard let amount = quantity(at: k) else { return nil }
        let saved = self
        if isSymbol(amountStart - 1, 0x3A) {  // "Optional: 2 small squid": the lead-in is a note
            addNote(0, amountStart)
            let start = parseAfterQuantity(amount)
            let item = parseRest(from: start, to: t.count, allowTailAsItem: true)
            if !item.isEmpty { return item }
            self = saved  // "Beurre doux : 120 g", "Oeuf(s) : 1 pièce(s)": nothing follows, the lead-in is the item
        }
        let end = parseAfterQuantity(amount)
        guard unit != 0, end >= t.count || isSymbol(end, 0x2C) || isSymbol(end, 0x28) || isSymbol(end, 0x3B)
        else {
            self = saved
            return nil
        }
        addNote(amountStart, amount.end)
        notes.removeAll { $0.lowerBound == t[amountStart].start }
        if amountStart < k { addNote(amountStart, k) }
        addNote(end, t.count)
        return parseRest(from: 0, to: amountStart, allowTailAsItem: false)
    }

    // MARK: - Item and note

    /// Splits the tokens `start..<end` into the item (returned) and note pieces.
    mutating func parseRest(from start: Int, to end: Int, allowTailAsItem: Bool) -> String {
        var kept: [Int] = []
        kept.reserveCapacity(max(end - start, 0))
        var tail: Int?
        var k = start
        while k < end {
            let token = t[k]
            if token.kind == .symbol {
                switch token.symbol {
                case 0x28:  // ( ... ) is a comment
                    let close = closingParenthesis(k, limit: end)
                    addNote(k + 1, close)
                    k = close + 1
                    continue
                case 0x2C where continuesList(afterComma: k, end: end):  // "canola, sunflower, or olive oil"
                    break
                case 0x2C where continuesAdjectives(kept, afterComma: k, end: end):  // "boneless, skinless thighs"
                    break
                case 0x2C, 0x3B, 0x3A:  // , ; : end the item
                    tail = k + 1
                case 0x2D where token.spaceBefore && k + 1 < end && t[k + 1].spaceBefore:  // " - "
                    tail = k + 1
                case 0x29, 0x2A, 0x22, 0x2E, 0x3F, 0x21:  // stray ) * " . ? !
                    k += 1
                    continue
                default:
                    break
                }
                if tail != nil { break }
            }
            kept.append(k)
            k += 1
        }
        trimItem(&kept)
        if kept.isEmpty, allowTailAsItem, let tail {
            return parseRest(from: tail, to: end, allowTailAsItem: false)  // "1 teaspoon, vanilla paste"
        }
        if let tail { addNote(tail, end) }
        return join(kept)
    }

    /// Whether the comma at `comma` separates alternatives of the item (`canola, sunflower, or olive
    /// oil`, `fresh, or frozen sweetcorn`) rather than starting the note.
    func continuesList(afterComma comma: Int, end: Int) -> Bool {
        var k = comma + 1
        for _ in 0..<5 {
            if isWord(k, .or) || isWord(k, .and) {
                let next = k + 1
                return isAnyWord(next) && number(at: next) == nil && !startsNote(next)
                    && ![.more, .less, .use, .to, .as, .so, .substitute].contains(t[next].word.keyword)
            }
            // A plain segment of words, then another comma.
            var segment = k
            while segment < end, isAnyWord(segment), !startsNote(segment), number(at: segment) == nil,
                !classes(segment).contains(.conjunction)
            {
                segment += 1
            }
            guard segment > k, isSymbol(segment, 0x2C) else { return false }
            k = segment + 1
        }
        return false
    }

    /// Whether the comma at `comma` separates adjectives before the item's noun (`boneless, skinless
    /// chicken`, `peeled, chopped, English cucumber`): everything kept so far describes, and a later
    /// segment reaches a noun before any preposition or comment.
    func continuesAdjectives(_ kept: [Int], afterComma comma: Int, end: Int) -> Bool {
        guard !kept.isEmpty, kept.allSatisfy({ t[$0].kind == .symbol || isAdjectiveLike($0) }) else { return false }
        var k = comma + 1
        while k < end {
            guard isAnyWord(k), !classes(k).contains(.comment), !classes(k).contains(.commentLead),
                !classes(k).contains(.preposition), !isWord(k, .plus), !isWord(k, .or), !isWord(k, .and)
            else { return false }
            if !isAdjectiveLike(k) { return true }
            k += 1
            if isSymbol(k, 0x2C) { k += 1 }
        }
        return false
    }

    /// A word that describes rather than names: a preparation, size, adverb or a typical adjective
    /// ending (`-ed`, `-less`, `-y`, `-ish`, `-old`).
    func isAdjectiveLike(_ i: Int) -> Bool {
        guard isAnyWord(i) else { return false }
        let c = classes(i)
        if c.contains(.preparation) || c.contains(.weakPreparation) || c.contains(.preparationAdverb)
            || c.contains(.size) || c.contains(.unitModifier)
        {
            return true
        }
        return t[i].hasAdjectiveEnding
    }

    /// Whether the word at `i` starts a note when it follows a comma: a preparation, an adverb, a
    /// purpose or a comment.
    func startsNote(_ i: Int) -> Bool {
        let c = classes(i)
        return c.contains(.preparation) || c.contains(.preparationAdverb) || c.contains(.comment)
            || c.contains(.commentLead) || c.contains(.preposition) || isWord(i, .plus)
    }

    static let containers: Set<IngredientUnit.ID> = Set(
        [
            "can", "tin", "jar", "bottle", "package", "packet", "pack", "bag", "box", "carton", "tub", "container",
            "envelope", "sachet",
        ].map(IngredientUnit.id(of:)))

    /// Moves sizes, preparations, purposes and a trailing unit out of the item's tokens.
    mutating func trimItem(_ kept: inout [Int]) {
        while let first = kept.first, isWord(first, .of) || t[first].kind == .symbol { kept.removeFirst() }
        // Leading sizes: "large onion", "extra large eggs", "medium to large onions".
        var sizes = 0
        while sizes < kept.count - 1 {
            let i = kept[sizes]
            if classes(i).contains(.size) || (isWord(i, .extra) && classes(kept[sizes + 1]).contains(.size))
                || (sizes > 0 && (isWord(i, .to) || isWord(i, .or)) && classes(kept[sizes + 1]).contains(.size))
            {
                sizes += 1
            } else if sizes > 0, isWord(i, .or), let alternative = number(at: kept[sizes + 1]),
                alternative.end == kept[sizes + 1] + 1, sizes + 2 < kept.count
            {
                sizes += 2  // "2 large or 3 small blood oranges"
            } else {
                break
            }
        }
        noteTokens(kept, 0, sizes)
        kept.removeFirst(sizes)
        // Preparations at the start and after "and"/"or": "finely chopped parsley", "salt and freshly
        // ground pepper". What comes in a container comes prepared: "can diced tomatoes" keeps "diced".
        let isContainer = Self.containers.contains(unit)
        var p = 0
        while p < kept.count, !isContainer {
            if p == 0 || (classes(kept[p - 1]).contains(.conjunction) && classes(kept[p]).contains(.preparationAdverb))
            {
                let length = preparationRun(kept, from: p)
                if length > 0, p + length < kept.count {
                    noteTokens(kept, p, p + length)
                    kept.removeSubrange(p..<(p + length))
                    if p > 0, p < kept.count, classes(kept[p]).contains(.conjunction) { continue }
                }
            }
            p += 1
        }
        while let first = kept.first, t[first].kind == .symbol { kept.removeFirst() }
        // The item ends where a purpose, comment, alternative amount or preparation starts.
        for p in 1..<max(kept.count, 1) where startsComment(kept, p) {
            noteTokens(kept, p, kept.count)
            kept.removeSubrange(p...)
            break
        }
        // Trailing preparations: "1 small red onion finely chopped".
        if kept.count > 1 {
            var p = kept.count - 1
            while p > 0, isPreparationWord(kept[p]) { p -= 1 }
            if p < kept.count - 1, preparationRun(kept, from: p + 1) == kept.count - p - 1 {
                noteTokens(kept, p + 1, kept.count)
                kept.removeSubrange((p + 1)...)
            }
        }
        // A unit after the item: "2 garlic cloves", "3 rosemary sprigs".
        if unit == 0, quantity != nil, kept.count >= 2, let last = kept.last, classes(last).contains(.trailingUnit),
            !isWord(kept[kept.count - 2], .whole), !isWord(kept[kept.count - 2], .ground)
        {
            unit = t[last].word.unit
            kept.removeLast()
        }
        while let last = kept.last, t[last].kind == .symbol || classes(last).contains(.conjunction) {
            kept.removeLast()
        }
    }

    func isPreparationWord(_ i: Int) -> Bool {
        let c = classes(i)
        return c.contains(.preparation) || c.contains(.weakPreparation) || c.contains(.preparationAdverb)
            || c.contains(.conjunction)
    }

    /// The length of the preparation run starting at `kept[from]`, or zero when there is none.
    ///
    /// A run is adverbs and participles joined by `and`/`or`/commas, ending on a participle
    /// (`finely chopped`, `peeled and diced`). A weak participle (`ground`) counts only after an adverb.
    func preparationRun(_ kept: [Int], from start: Int) -> Int {
        var length = 0
        var p = start
        var afterAdverb = false
        while p < kept.count {
            let c = classes(kept[p])
            if c.contains(.preparationAdverb) {
                afterAdverb = true
            } else if c.contains(.preparation) || (c.contains(.weakPreparation) && afterAdverb) {
                afterAdverb = false
                length = p - start + 1
            } else if !((c.contains(.conjunction) || isSymbol(kept[p], 0x2C)) && (length > 0 || afterAdverb)) {
                break
            }
            p += 1
        }
        return length
    }

    /// Whether `kept[p]` starts a purpose, comment, alternative amount or preparation that runs to the
    /// end of the item: `to taste`, `for garnish`, `optional`, `plus extra`, `at room temperature`,
    /// `or 1 shallot`, `soaked in milk`, `10 mL`.
    func startsComment(_ kept: [Int], _ p: Int) -> Bool {
        let i = kept[p]
        let c = classes(i)
        let next = p + 1 < kept.count ? kept[p + 1] : nil
        if isWord(i, .for) || isWord(i, .plus) || isWord(i, .per) || isSymbol(i, 0x2B) { return true }
        if c.contains(.comment) || (c.contains(.commentLead) && next != nil) { return true }
        if isWord(i, .to), let next { return classes(next).contains(.purposeVerb) }
        if isWord(i, .as) || isWord(i, .if), let next {
            return classes(next).contains(.condition)
        }
        if isWord(i, .or), let next, number(at: next) != nil { return true }  // "6 stalks thyme or ½ teaspoon dried"
        if t[i].kind == .number, measure(at: i) != nil { return true }  // "sesame oil 10 mL"
        // A participle followed by a preposition: "steak cut into cubes", "saffron soaked in milk".
        if let next, classes(next).contains(.preposition), t[i].hasParticipleEnding || c.contains(.preparation) {
            return true
        }
        return false
    }

    // MARK: - Output

    mutating func addNote(_ from: Int, _ to: Int) {
        guard from >= 0, from < to, from < t.count else { return }
        notes.append(t[from].start..<t[min(to, t.count) - 1].end)
    }

    mutating func noteTokens(_ kept: [Int], _ from: Int, _ to: Int) {
        guard from < to else { return }
        // Kept indices may skip removed parentheses; note each contiguous run separately.
        var runStart = kept[from]
        var previous = kept[from]
        for p in (from + 1)..<to {
            if kept[p] != previous + 1 {
                addNote(runStart, previous + 1)
                runStart = kept[p]
            }
            previous = kept[p]
        }
        addNote(runStart, previous + 1)
    }

    /// The kept tokens as written, with one space wherever the line had space or a piece was removed.
    func join(_ kept: [Int]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var previous = -2
        for i in kept {
            if !out.isEmpty, t[i].spaceBefore || i != previous + 1 { out.append(0x20) }
            out.append(contentsOf: b[t[i].start..<t[i].end])
            previous = i
        }
        return String(decoding: out, as: UTF8.self)
    }

    func makeNote() -> String? {
        guard !notes.isEmpty else { return nil }
        let pieces = notes.sorted { $0.lowerBound < $1.lowerBound }
        var out: [UInt8] = []
        var covered = 0
        for piece in pieces where piece.upperBound > covered {
            let range = max(piece.lowerBound, covered)..<piece.upperBound
            let text = trimmedBytes(range)
            guard !text.isEmpty else { continue }
            if !out.isEmpty { out.append(contentsOf: [0x2C, 0x20]) }
            out.append(contentsOf: text)
            covered = piece.upperBound
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `range` without surrounding whitespace and separators.
    func trimmedBytes(_ range: Range<Int>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, Self.isEdge(b[lower]) { lower += 1 }
        while upper > lower, Self.isEdge(b[upper - 1]) { upper -= 1 }
        return b[lower..<upper]
    }

    /// Whitespace and separators trimmed from the ends of a note piece.
    static func isEdge(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x3B, 0x3A, 0x2D: true
        default: false
        }
    }

    func trimmed(_ text: String) -> String {
        String(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
