import LarderCore

extension LeafCensus {
    /// The census of `source`'s leaves against `record`, when every leaf's class follows from the
    /// mapping without looking at its tokens; `nil` when one does not (the walk decides it then).
    ///
    /// A field the census drops has its leaves dropped, one it keeps in extras has them kept, as the
    /// walk has them. A leaf of a carried field is carried when the record holds the same value at
    /// the same place under the same top-level key: its tokens are then among the record's own,
    /// which is what the walk looks for. So is a step's text that the record holds without its
    /// `Step 1:` label (``StepLabel/withoutLabel(_:wholeNumbers:)`` finds the rest). Any other leaf
    /// (a value the import changed, a field the record holds elsewhere, per-path fates) sends the
    /// record to the walk, so the proof never decides what the walk would decide otherwise: no
    /// leaf is unmapped here, and none is added to extras. A test holds the two to each other.
    ///
    /// O(source leaves), with no token hashed.
    /// - Parameters:
    ///   - source: the source record.
    ///   - declared: the field census's fate of each top-level field.
    ///   - record: the built record's value.
    /// - Returns: the census, or `nil` when a leaf's class needs the walk.
    static func proven(_ source: LeafSource, declared: [String: FieldFate], record: Value) -> LeafCensus? {
        // A declared fate below the top level (`ingredients[]`) is the walk's to apply.
        guard source.fates.isEmpty, declared.keys.allSatisfy(Self.isPlainName), let recordFields = record.objectValue
        else { return nil }
        var result = LeafCensus()
        for field in source.fields where !FieldCensus.isEmpty(field.value) {
            // A plain name cannot be a folded path below another field (`a.b`, `a[]`), which the walk
            // would look up among the declared fates.
            guard field.key != "extras", Self.isPlainName(field.key), let fate = declared[field.key] else { return nil }
            var counts = Counts()
            switch fate {
            case .dropped:
                counts.dropped = Self.leafCount(field.value, depth: 0)
            case .extras:
                counts.kept = Self.leafCount(field.value, depth: 0)
            case .carried(let larderField):
                guard let built = recordFields[field.key],
                    let carried = Self.verbatimLeaves(
                        field.value, in: built, isStep: larderField == "instructions", depth: 0)
                else { return nil }
                counts.carried = carried
            }
            if counts.carried + counts.kept + counts.dropped > 0 {
                result.fields[field.key, default: Counts()].add(counts)
            }
        }
        return result
    }

    /// Whether `key` is made of ASCII letters, digits and `_` only.
    private static func isPlainName(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F
            }
    }

    /// The leaves the walk classifies below `value` at `depth`: non-empty scalars above depth 16.
    private static func leafCount(_ value: Value, depth: Int) -> Int {
        guard depth < 16 else { return 0 }
        switch value {
        case .array(let elements):
            var count = 0
            for element in elements where !FieldCensus.isEmpty(element) {
                count += leafCount(element, depth: depth + 1)
            }
            return count
        case .object(let fields):
            var count = 0
            for member in fields where !FieldCensus.isEmpty(member.value) {
                count += leafCount(member.value, depth: depth + 1)
            }
            return count
        case .null: return 0
        default: return 1
        }
    }

    /// How many leaves of `source` the record holds as they are in `built` (the value at the same
    /// place), or `nil` when one leaf is not (its class needs the walk).
    private static func verbatimLeaves(_ source: Value, in built: Value, isStep: Bool, depth: Int) -> Int? {
        guard depth < 16 else { return 0 }
        if source == built { return leafCount(source, depth: depth) }
        switch (source, built) {
        case (.array(let elements), .array(let builtElements)):
            guard elements.count == builtElements.count else { return nil }
            var count = 0
            for (element, builtElement) in zip(elements, builtElements) where !FieldCensus.isEmpty(element) {
                guard let n = verbatimLeaves(element, in: builtElement, isStep: isStep, depth: depth + 1) else {
                    return nil
                }
                count += n
            }
            return count
        case (.object(let fields), .object(let builtFields)):
            var count = 0
            for member in fields where !FieldCensus.isEmpty(member.value) {
                guard let builtMember = builtFields[member.key],
                    let n = verbatimLeaves(member.value, in: builtMember, isStep: isStep, depth: depth + 1)
                else { return nil }
                count += n
            }
            return count
        case (.string(let text), .string(let builtText)) where isStep:
            return isLabeled(text, rest: builtText) ? 1 : nil
        default:
            return nil
        }
    }

    /// Whether `text` is `rest` after a label that only numbers the step (`Step 1: `, `step 12. `,
    /// `3) `), so that its tokens are the label's (an optional step word, then a whole number)
    /// followed by `rest`'s, as the walk reads them.
    ///
    /// The label is ASCII and ends in a space, and `rest` starts with an ASCII character: no
    /// normalisation joins the two, and the tokens restart at the space. Entities and tags (read
    /// over the whole text) and a schema.org name (read only at the start) are left to the walk.
    static func isLabeled(_ text: String, rest: String) -> Bool {
        let bytes = Array(text.utf8)
        let restBytes = Array(rest.utf8)
        guard restBytes.count < bytes.count, let first = restBytes.first, first < 0x80,
            !bytes.contains(where: { $0 == 0x26 || $0 == 0x3C }),
            bytes[(bytes.count - restBytes.count)...].elementsEqual(restBytes),
            restBytes.contains(where: Self.isASCIILetterOrDigit), !rest.hasPrefix("https://schema.org/"),
            !rest.hasPrefix("http://schema.org/")
        else { return false }
        var label = bytes[..<(bytes.count - restBytes.count)]
        // `Step`, `step` or `STEP` (one token: `StEp` would be two), then spaces.
        if label.count >= 4, ["Step", "step", "STEP"].contains(String(decoding: label.prefix(4), as: UTF8.self)) {
            label = label.dropFirst(4)
            while label.first == 0x20 { label = label.dropFirst() }
        }
        let digits = label.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty else { return false }
        label = label.dropFirst(digits.count)
        // A whole number: a point or comma then a digit would make it a decimal, and `rest`
        // starts after the spaces below.
        if let mark = label.first, [0x2E, 0x29, 0x3A, 0x2D].contains(mark) { label = label.dropFirst() }
        guard label.first == 0x20 else { return false }
        return label.allSatisfy { $0 == 0x20 }
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
