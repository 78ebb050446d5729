import Foundation
import LarderCore

/// Scores `IngredientLineParser` against the labelled lines of `corpus/ingredients/sample.csv`.
///
/// The labels tag tokens (ingredient-parser's scheme), while the parser returns one amount per line, so
/// the comparison first derives the *expected first amount* from the labels. The rules (also in
/// docs/ingredients.md):
///
/// - Quantity: the first labelled quantity (`#1$2` = ½, `1#1$2` = 1½, `2-3` a range, `2x` a multiplier
///   read as 2, number words such as `One`). A label that cannot be read as a number (`few`) counts as a
///   disagreement. No labelled quantity means the parser must return none.
/// - Unit: the labelled units are grouped into phrases (modifiers such as `large slice` or `heaped` join
///   the unit they qualify, `fl oz` is one unit, `can or box` is one choice) and mapped to canonical names
///   with `IngredientUnit`. The first phrase is the first quantity's unit, except when the line labels two
///   or more quantities and a second number stands between the first quantity and that phrase in the
///   sentence (`1 (14 ounce) can`, `One 28-ounce can`, `2 x 400g`, `1 onion (about 1 cup)`). Then the
///   first quantity's unit is the first phrase of that run of measures that does not directly follow a
///   number (`can` in `1 (14 ounce) can`), or none when a plain word ends the run first (`2 x 360g/12½oz
///   duck breasts`).
/// - Amount agreement: quantity, range end and unit all equal (both absent counts as equal).
/// - Item agreement: the parser's item equals the labelled name after `normalizedItem`: lowercase,
///   punctuation other than inner hyphens and apostrophes dropped, whitespace collapsed, each word
///   singularized by a fixed suffix rule. No line is special-cased.
enum IngredientCorpusScore {
    /// One labelled line.
    struct Row {
        var sentence: String
        var name: String
        var quantity: String
        var unit: String
        var source: String
    }

    /// The amount the labels give to the line's first quantity.
    struct Expected: Equatable {
        var quantity: Double?
        var quantityMax: Double?
        var unit: String?
        /// False when a labelled quantity cannot be read as a number.
        var isReadable = true
    }

    /// Agreement counts for one slice of the corpus.
    struct Tally {
        var lines = 0
        var amounts = 0
        var items = 0

        var amountPercent: Double { lines == 0 ? 0 : Double(amounts) * 100 / Double(lines) }
        var itemPercent: Double { lines == 0 ? 0 : Double(items) * 100 / Double(lines) }
    }

    // MARK: - CSV

    /// Reads an RFC 4180 CSV with a header into rows keyed by column name.
    static func readRows(at url: URL) throws -> [Row] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = iterator.next()
        while let c = pending {
            pending = iterator.next()
            if quoted {
                if c == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = iterator.next()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"": quoted = true
            case ",":
                record.append(field)
                field = ""
            case "\n":
                record.append(field)
                records.append(record)
                record = []
                field = ""
            case "\r": break
            default: field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        guard let header = records.first else { return [] }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let sentence = column("sentence"), let name = column("name"), let quantity = column("quantity"),
            let unit = column("unit")
        else { return [] }
        let source = column("source")
        return records.dropFirst().compactMap { fields in
            guard fields.count == header.count else { return nil }
            return Row(
                sentence: fields[sentence], name: fields[name], quantity: fields[quantity], unit: fields[unit],
                source: source.map { fields[$0] } ?? "")
        }
    }

    // MARK: - Scoring

    /// Parses every row and counts agreements, overall and per source.
    static func score(_ rows: [Row], parser: IngredientLineParser) -> (all: Tally, bySource: [String: Tally]) {
        var all = Tally()
        var bySource: [String: Tally] = [:]
        for row in rows {
            let parsed = parser.parse(row.sentence)
            let amountAgrees = amountAgrees(parsed, expectedAmount(row))
            let itemAgrees = normalizedItem(parsed.item) == normalizedItem(row.name)
            for key in ["", row.source] {
                var tally = key.isEmpty ? all : bySource[key, default: Tally()]
                tally.lines += 1
                if amountAgrees { tally.amounts += 1 }
                if itemAgrees { tally.items += 1 }
                if key.isEmpty { all = tally } else { bySource[key] = tally }
            }
        }
        return (all, bySource)
    }

    static func amountAgrees(_ parsed: Ingredient, _ expected: Expected) -> Bool {
        expected.isReadable && same(parsed.quantity, expected.quantity)
            && same(parsed.quantityMax, expected.quantityMax)
            && parsed.unit == expected.unit
    }

    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a - b) <= 1e-6 * max(1, abs(b))
        default: false
        }
    }

    // MARK: - Expected amount

    static func expectedAmount(_ row: Row) -> Expected {
        let quantities = row.quantity.split(separator: " ").map(String.init)
        let phrases = unitPhrases(row.unit)
        guard let first = quantities.first else {
            return Expected(unit: phrases.first?.canonical)
        }
        guard let amount = readQuantity(first) else { return Expected(isReadable: false) }
        var expected = Expected(quantity: amount.value, quantityMax: amount.max)
        expected.unit = unitOfFirstQuantity(sentence: row.sentence, phrases: phrases, quantities: quantities.count)
        return expected
    }

    /// A labelled quantity: `3`, `0.5`, `.2`, `#1$4`, `1#1$2`, `2-3`, `2x`, `One`.
    static func readQuantity(_ label: String) -> (value: Double, max: Double?)? {
        var text = label
        if text.hasSuffix("x"), text.dropLast().last?.isNumber == true { text.removeLast() }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return readNumber(String(parts[0])).map { ($0, nil) }
        case 2:
            guard let low = readNumber(String(parts[0])), let high = readNumber(String(parts[1])) else { return nil }
            return (low, high)
        default:
            return nil
        }
    }

    static func readNumber(_ text: String) -> Double? {
        let words: [String: Double] = [
            "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "eleven": 11, "twelve": 12, "half": 0.5,
        ]
        if let value = words[text.lowercased()] { return value }
        if let hash = text.firstIndex(of: "#"), let dollar = text.firstIndex(of: "$") {
            let whole = text[..<hash].isEmpty ? 0 : Double(text[..<hash])
            let numerator = Double(text[text.index(after: hash)..<dollar])
            let denominator = Double(text[text.index(after: dollar)...])
            guard let whole, let numerator, let denominator, denominator > 0 else { return nil }
            return whole + numerator / denominator
        }
        return Double(text)
    }

    /// A labelled unit phrase: its canonical name, the word used to find it in the sentence, and its words.
    struct Phrase {
        var canonical: String
        var words: [String]
    }

    /// Groups the labelled unit tokens into phrases (`large slice`, `fl oz`, `can or box`).
    static func unitPhrases(_ label: String) -> [Phrase] {
        let tokens = label.split(separator: " ").map(String.init)
        var phrases: [Phrase] = []
        var pending: [String] = []
        var joinNext = false
        var k = 0
        while k < tokens.count {
            var token = tokens[k]
            var canonical = IngredientUnit.canonicalName(for: token)
            let lower = token.lowercased()
            if lower == "fl" || lower == "fluid", k + 1 < tokens.count,
                IngredientUnit.canonicalName(for: "fl " + tokens[k + 1]) == "fl oz"
            {
                token += " " + tokens[k + 1]
                canonical = "fl oz"
                k += 1
            }
            k += 1
            if lower == "or" || lower == "and", !phrases.isEmpty {
                joinNext = true
                continue
            }
            guard let canonical else {
                pending.append(token)
                continue
            }
            if joinNext, var last = phrases.popLast() {
                last.words += pending + [token]
                phrases.append(last)
            } else {
                phrases.append(Phrase(canonical: canonical, words: pending + [token]))
            }
            pending = []
            joinNext = false
        }
        if !pending.isEmpty {  // a label the unit table does not know, such as `cobs`
            let words = pending.map { normalizedItem($0) }
            phrases.append(Phrase(canonical: words.joined(separator: " "), words: pending))
        }
        return phrases
    }

    /// The unit of the first quantity, following the rules in the type's documentation.
    static func unitOfFirstQuantity(sentence: String, phrases: [Phrase], quantities: Int) -> String? {
        guard let first = phrases.first else { return nil }
        guard quantities >= 2 else { return first.canonical }
        let words = sentenceWords(sentence)
        // Where each phrase's unit word stands in the sentence, in label order.
        var positions: [Range<Int>] = []
        var from = 0
        for phrase in phrases {
            let found = words.first { word in
                word.range.lowerBound >= from && matches(word.text, phrase)
            }
            guard let found else { break }
            var range = found.range
            // "fl oz" starts at "fl".
            if phrase.canonical == "fl oz", let index = words.firstIndex(where: { $0.range == found.range }), index > 0,
                ["fl", "fluid"].contains(words[index - 1].text.lowercased())
            {
                range = words[index - 1].range.lowerBound..<found.range.upperBound
            }
            positions.append(range)
            from = found.range.upperBound
        }
        guard let firstPosition = positions.first else { return first.canonical }
        let scalars = Array(sentence.unicodeScalars)
        let groups = numberGroups(scalars)
        guard groups.filter({ $0.lowerBound < firstPosition.lowerBound }).count >= 2 else { return first.canonical }
        // A number stands between: the first quantity's unit is the first phrase of the run of measures
        // that does not directly follow a number ("can" in "1 (14 ounce) can"), if any.
        for k in 0..<positions.count {
            let runStart = k == 0 ? 0 : positions[k - 1].upperBound
            if k > 0 {
                let gap = String(String.UnicodeScalarView(scalars[runStart..<positions[k].lowerBound]))
                let allowed = Set(phrases[k].words.map { $0.lowercased() } + ["fl", "fluid"])
                let gapWords = sentenceWords(gap).map { $0.text.lowercased() }.filter { !allowed.contains($0) }
                guard gapWords.isEmpty else { return nil }
            }
            let followsNumber = groups.contains { group in
                group.upperBound <= positions[k].lowerBound && group.lowerBound >= runStart
                    && scalars[group.upperBound..<positions[k].lowerBound].allSatisfy {
                        $0 == " " || $0 == "-" || $0 == "\u{2011}"
                    }
            }
            if !followsNumber { return phrases[k].canonical }
        }
        return nil
    }

    static func matches(_ word: String, _ phrase: Phrase) -> Bool {
        if phrase.canonical == "fl oz" { return IngredientUnit.canonicalName(for: word) == "oz" || word == "floz" }
        if let canonical = IngredientUnit.canonicalName(for: word) { return canonical == phrase.canonical }
        return phrase.words.last.map { normalizedItem($0) == normalizedItem(word) } ?? false
    }

    /// Letter runs of a sentence with their scalar offsets.
    static func sentenceWords(_ text: String) -> [(text: String, range: Range<Int>)] {
        var words: [(String, Range<Int>)] = []
        var current = ""
        var start = 0
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar.properties.isAlphabetic {
                if current.isEmpty { start = offset }
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append((current, start..<offset))
                current = ""
            }
        }
        if !current.isEmpty { words.append((current, start..<text.unicodeScalars.count)) }
        return words
    }

    /// Scalar ranges of the numbers in a sentence, a mixed number or range counting as one.
    static func numberGroups(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        func isNumeric(_ s: Unicode.Scalar) -> Bool {
            ("0"..."9").contains(s) || s.properties.numericType != nil && !s.properties.isAlphabetic
        }
        var runs: [Range<Int>] = []
        var k = 0
        while k < scalars.count {
            guard isNumeric(scalars[k]) else {
                k += 1
                continue
            }
            var end = k + 1
            while end < scalars.count,
                isNumeric(scalars[end])
                    || ([".", ",", "/", "\u{2044}"].contains(scalars[end]) && end + 1 < scalars.count
                        && isNumeric(scalars[end + 1]))
            {
                end += 1
            }
            runs.append(k..<end)
            k = end
        }
        // Number words count as numbers too.
        let numberWords: Set<String> = [
            "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        ]
        for word in sentenceWords(String(String.UnicodeScalarView(scalars)))
        where numberWords.contains(word.text.lowercased()) {
            runs.append(word.range)
        }
        runs.sort { $0.lowerBound < $1.lowerBound }
        var groups: [Range<Int>] = []
        for run in runs {
            if let last = groups.last {
                let between = String(String.UnicodeScalarView(scalars[last.upperBound..<run.lowerBound]))
                    .trimmingCharacters(in: .whitespaces).lowercased()
                // A mixed number: digits, a space, then a fraction such as 1/2 or ½.
                let isFraction =
                    scalars[run].contains { $0 == "/" }
                    || scalars[run].first.map { !("0"..."9").contains($0) && !$0.properties.isAlphabetic } == true
                let isWhole = scalars[last].allSatisfy { ("0"..."9").contains($0) }
                let joins =
                    ["-", "–", "—", "to", "- to", "or", "-to", "- or"].contains(between)
                    || (between.isEmpty && isFraction && isWhole)
                if joins || last.upperBound == run.lowerBound {
                    groups[groups.count - 1] = last.lowerBound..<run.upperBound
                    continue
                }
            }
            groups.append(run)
        }
        return groups
    }

    // MARK: - Item normalization

    /// Lowercase, punctuation dropped (inner hyphens and apostrophes kept, quotes around a word dropped),
    /// whitespace collapsed, and each word singularized: -ies → -y, -lves → -lf, -eaves → -eaf,
    /// -oaves → -oaf, other -ves → -ve, -oes → -o, -ches/-shes/-sses/-xes/-zes lose -es, other -s
    /// (not -ss, -us, -is) is dropped, for words longer than three letters.
    static func normalizedItem(_ text: String) -> String {
        var cleaned = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "'" {
                cleaned.unicodeScalars.append(scalar)
            } else if scalar == "\u{2019}" {
                cleaned.unicodeScalars.append("'")
            } else {
                cleaned.unicodeScalars.append(" ")
            }
        }
        return cleaned.split(separator: " ").map { word in
            singular(String(word.drop { $0 == "'" }.reversed().drop { $0 == "'" }.reversed()))
        }
        .filter { !$0.isEmpty }.joined(separator: " ")
    }

    static func singular(_ word: String) -> String {
        guard word.count > 3 else { return word }
        for (suffix, replacement) in [
            ("ies", "y"), ("lves", "lf"), ("eaves", "eaf"), ("oaves", "oaf"), ("ves", "ve"),
            ("oes", "o"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("xes", "x"), ("zes", "z"),
        ]
        where word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count)) + replacement
        }
        if word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us"), !word.hasSuffix("is") {
            return String(word.dropLast())
        }
        return word
    }
}
