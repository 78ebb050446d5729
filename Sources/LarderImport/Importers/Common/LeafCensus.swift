package import LarderCore
import LarderFormats

/// One source record as the leaf census reads it: its top-level fields, its format, and the fates
/// its importer declares below the top level.
package struct LeafSource: Sendable, Hashable {
    /// The record's top-level fields, as the importer read them.
    package var fields: Fields
    /// The format (its raw value names the extras entry).
    package var format: ImportFormat
    /// Fates by folded path below the top level (`ingredients[].*.amounts[].unit`; `*` is any key).
    package var fates: [String: FieldFate]

    /// Creates a source.
    package init(fields: Fields, format: ImportFormat, fates: [String: FieldFate] = [:]) {
        self.fields = fields
        self.format = format
        self.fates = fates
    }
}

/// The census of one record's source leaves: every path from a top-level field down to a
/// scalar (list indices folded: `ingredients[].name`), classified after the record is built.
///
/// A leaf is **carried** when its value survives in the record: its tokens (``LeafText``: entities,
/// tags, whitespace, case, compatibility forms and number spellings normalised) all occur among
/// the record's own, or it is a duration whose minutes the record holds (`PT1H30M`, `1 h 30`), or
/// a yield whose numbers it holds (`Serves 4`). It is **kept** when the field census put it (or
/// a field above it) in extras, or its tokens occur in the record's extras; **dropped** when the
/// census drops it, or the importer's per-path fates drop it and the record does not carry it, with
/// their reason. Any other leaf is
/// **unmapped**: nothing consumed it, so the census itself keeps it in
/// `extras[<format>][<exact path>]` (`ingredients[2/5].brand`, the path
/// ``MemberCensus`` writes) and counts it as kept. A leaf whose place there is taken by another
/// value is **lost**, which the corpus test forbids.
///
/// Booleans and blobs (a text of over 1 KiB without a space: embedded image data) follow the field
/// census; they carry no words to find.
package struct LeafCensus: Sendable, Hashable {
    /// Leaf counts.
    package struct Counts: Sendable, Hashable {
        package var carried = 0
        package var kept = 0
        package var dropped = 0
        /// Of `kept`: leaves the census itself kept, no mapping having consumed them.
        package var unmapped = 0
        /// Leaves neither carried, kept nor dropped (their extras place was taken).
        package var lost = 0

        /// Creates zero counts.
        package init() {}

        /// Adds `other`'s counts.
        package mutating func add(_ other: Counts) {
            carried += other.carried
            kept += other.kept
            dropped += other.dropped
            unmapped += other.unmapped
            lost += other.lost
        }
    }

    /// Counts by top-level source field.
    package var fields: [String: Counts] = [:]
    /// The folded paths of the unmapped leaves, in source order.
    package var unmapped: [String] = []
    /// The folded paths of the lost leaves.
    package var lost: [String] = []

    /// Creates an empty census.
    package init() {}

    /// The counts over all fields.
    package var total: Counts {
        var sum = Counts()
        for counts in fields.values { sum.add(counts) }
        return sum
    }

    /// Takes the census of `source`'s leaves against `record`, whose value is `value`; the
    /// unmapped leaves are added to the record's extras (and `value` rebuilt when there are any).
    ///
    /// A record whose every leaf the mapping accounts for (``proven(_:declared:record:)``) is not
    /// walked; `proving: false` walks it all the same (the test holding the two to each other).
    ///
    /// O(source leaves + record size).
    package static func take(
        _ source: LeafSource, census: FieldCensus, record: inout Recipe, value: inout Value, proving: Bool = true
    ) -> LeafCensus {
        var declared: [String: FieldFate] = [:]
        for entry in census.entries { declared[entry.field] = entry.fate }
        if proving, let proven = proven(source, declared: declared, record: value) { return proven }
        var walker = LeafWalker(index: LeafIndex(record: value), declared: declared, leafFates: source.fates)
        for field in source.fields where !FieldCensus.isEmpty(field.value) {
            walker.top = field.key
            walker.walk(field.value, folded: field.key, exact: field.key, fate: declared[field.key], depth: 0)
        }
        var result = walker.result
        guard !walker.additions.isEmpty else { return result }
        let name = source.format.rawValue
        var entry = record.extras[name]?.objectValue ?? Fields()
        for addition in walker.additions {
            if let existing = entry[addition.path] {
                // Another value holds the place: an importer's, or a leaf with the same exact path.
                guard existing != addition.value else { continue }
                result.lost.append(addition.folded)
                result.fields[addition.top, default: Counts()].kept -= 1
                result.fields[addition.top, default: Counts()].unmapped -= 1
                result.fields[addition.top, default: Counts()].lost += 1
                continue
            }
            entry.append(key: addition.path, value: addition.value)
        }
        record.extras[name] = .object(Value.object(entry).replacingNonFiniteNumbers().objectValue ?? entry)
        value = record.value
        return result
    }
}

/// Walks one record's source leaves for ``LeafCensus``.
private struct LeafWalker {
    var index: LeafIndex
    let declared: [String: FieldFate]
    var top = ""

    /// The importer's per-path fates, for leaves the record does not carry.
    let leafFates: [String: FieldFate]

    init(index: LeafIndex, declared: [String: FieldFate], leafFates: [String: FieldFate]) {
        self.index = index
        self.declared = declared
        self.leafFates = leafFates
    }

    /// The per-path fate of a folded path: an exact entry, else one whose `*` segments match.
    private func leafFate(_ folded: String) -> FieldFate? {
        guard !leafFates.isEmpty else { return nil }
        if let fate = leafFates[folded] { return fate }
        let segments = folded.split(separator: ".", omittingEmptySubsequences: false)
        for (pattern, fate) in leafFates where pattern.contains("*") {
            let parts = pattern.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == segments.count else { continue }
            if zip(parts, segments).allSatisfy({ $0 == "*" || $0 == "*[]" && $1.hasSuffix("[]") || $0 == $1 }) {
                return fate
            }
        }
        return nil
    }
    var result = LeafCensus()
    /// The unmapped leaves to keep: exact path, value, folded path, top-level field.
    var additions: [(path: String, value: Value, folded: String, top: String)] = []
    private var added = Set<String>()

    /// Words a duration is written with besides its numbers.
    static let timeWords: Set<String> = [
        "p", "pt", "t", "h", "hr", "hrs", "hour", "hours", "m", "min", "mins", "minute", "minutes", "s", "sec", "secs",
        "second", "seconds", "d", "day", "days", "and", "to", "about", "std", "stunde", "stunden", "minuten", "heure",
        "heures", "uur", "minuti", "ora", "ore", "mn", "dt",
    ]
    /// Words a yield is written with besides its numbers.
    static let yieldWords: Set<String> = [
        "serves", "serving", "servings", "makes", "yield", "yields", "portion", "portions", "person", "persons",
        "people", "about", "approx", "approximately", "for", "to", "or", "personnes", "portionen", "personen",
        "porties", "personas", "porzioni",
    ]

    mutating func walk(_ value: Value, folded: String, exact: String, fate: FieldFate?, depth: Int) {
        guard depth < 16 else { return }
        switch value {
        case .array(let elements):
            let elementFolded = folded + "[]"
            let elementFate = declared[elementFolded] ?? fate
            for (i, element) in elements.enumerated() where !FieldCensus.isEmpty(element) {
                let elementExact = elements.count == 1 ? exact : "\(exact)[\(i)/\(elements.count)]"
                walk(element, folded: elementFolded, exact: elementExact, fate: elementFate, depth: depth + 1)
            }
        case .object(let fields):
            for member in fields where !FieldCensus.isEmpty(member.value) {
                let memberFolded = folded + "." + member.key
                let memberFate = declared[memberFolded] ?? declared[folded + ".*"] ?? fate
                walk(
                    member.value, folded: memberFolded, exact: exact + "." + member.key, fate: memberFate,
                    depth: depth + 1)
            }
        case .null:
            break
        default:
            classify(value, folded: folded, exact: exact, fate: fate)
        }
    }

    private mutating func classify(_ value: Value, folded: String, exact: String, fate: FieldFate?) {
        switch fate {
        case .extras:
            result.fields[top, default: .init()].kept += 1
            return
        case .dropped:
            result.fields[top, default: .init()].dropped += 1
            return
        case .carried, nil:
            break
        }
        let field: String? = if case .carried(let larderField) = fate { larderField } else { nil }
        if followsCensus(value, into: field) || carries(value, into: field) {
            result.fields[top, default: .init()].carried += 1
        } else if index.keeps(LeafText.hashes(value)) {
            result.fields[top, default: .init()].kept += 1
        } else if case .dropped = leafFate(folded) {
            result.fields[top, default: .init()].dropped += 1
        } else {
            result.fields[top, default: .init()].kept += 1
            result.fields[top, default: .init()].unmapped += 1
            result.unmapped.append(folded)
            if added.insert(exact).inserted { additions.append((exact, value, folded, top)) }
        }
    }

    /// Whether a leaf has no words to look for, so the field census decides.
    ///
    /// A boolean, a blob (embedded image data), a flag written as a word, an image file's name
    /// when the record has the image.
    private func followsCensus(_ value: Value, into field: String?) -> Bool {
        switch value {
        case .bool: return true
        case .string(let s):
            // A flag, and an id the field census checked is the record's id (`urn:larder:recipe:…`).
            if field == "isFavorited" || field == "id" { return true }
            if field == "images" || field == "imageRef", index.hasImage { return true }
            return s.utf8.count >= 64 && !s.contains(where: \.isWhitespace)
                && (s.hasPrefix("data:") || s.utf8.allSatisfy { Self.base64.contains($0) })
        default: return false
        }
    }

    /// The Larder fields whose leaves are read further than their tokens (durations, dates, yields, ratings).
    private static let fieldsReadFurther: Set<String> = [
        "totalTime", "prepTime", "cookTime", "instructions", "createdAt", "updatedAt", "yield", "servings", "rating",
    ]

    /// The bytes of base64 text.
    private static let base64 = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8))

    /// Whether the record carries the leaf: its tokens; else, by the Larder field it went to, its
    /// duration in minutes, its date, or its words but a yield's or rating's own (`Serves`, `stars`).
    private func carries(_ value: Value, into field: String?) -> Bool {
        guard case .string(let text) = value else { return index.carries(LeafText.hashes(value)) }
        var wholeNumbers: [Bool]? = field == "instructions" ? [] : nil
        let hashes = LeafText.hashes(text, wholeNumbers: &wholeNumbers)
        if index.carries(hashes) { return true }
        // A step's own label (`Step 1:`, `2.`) is dropped by the importers: the steps' order says it.
        // Looked for in the hashes: the token strings cost a tenth of a whole import of labelled steps.
        if let wholeNumbers, let unlabeled = StepLabel.withoutLabel(hashes, wholeNumbers: wholeNumbers),
            index.carries(unlabeled)
        {
            return true
        }
        guard let field, Self.fieldsReadFurther.contains(field) else { return false }
        let tokens = LeafText.tokens(text)
        let words = tokens.filter { !($0.first?.isNumber ?? false) }
        switch field {
        case "totalTime", "prepTime", "cookTime", "instructions":
            guard
                RecipeTime.iso8601Seconds(text.trimmingWhitespace) != nil || words.allSatisfy(Self.timeWords.contains),
                let minutes = RecipeTime.minutes(from: text)
            else { return false }
            return index.carries([LeafText.hash(String(minutes))])
        case "createdAt", "updatedAt":
            guard let date = RecipeDate.parse(text) else { return false }
            return index.dates.contains(date)
        case "yield", "servings":
            return index.carries(tokens.filter { !Self.yieldWords.contains($0) }.map(LeafText.hash))
        case "rating":
            return index.carries(tokens.filter { !["star", "stars", "out", "of"].contains($0) }.map(LeafText.hash))
        default:
            return false
        }
    }
}

extension ImportedRecipe {
    /// The leaf census of this recipe's source against `record`, built from it (see
    /// ``LeafCensus``); `nil` when the importer gave no source (``leafSource``).
    ///
    /// `proving: false` walks every leaf, even of a record the mapping accounts for.
    package func takeLeafCensus(record: inout Recipe, value: inout Value, proving: Bool = true) -> LeafCensus? {
        guard let leafSource else { return nil }
        return LeafCensus.take(leafSource, census: fieldCensus, record: &record, value: &value, proving: proving)
    }
}
