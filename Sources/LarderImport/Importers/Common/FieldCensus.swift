package import LarderCore

/// What an import did with one top-level source field of one record.
package enum FieldFate: Sendable, Hashable, CustomStringConvertible {
    /// Read into a Larder field (named as the record's JSON key: `description`, `yield`, `author.url`).
    case carried(String)
    /// Kept verbatim in the record's `extras`, under the source format's name.
    case extras
    /// Not kept, for the reason given (never without one).
    case dropped(String)

    /// `carried → title`, `kept in extras`, `dropped: reason`.
    package var description: String {
        switch self {
        case .carried(let field): "carried → \(field)"
        case .extras: "kept in extras"
        case .dropped(let reason): "dropped: \(reason)"
        }
    }
}

/// The field census of one record: for every non-empty top-level source field, in source order,
/// what the import did with it.
package struct FieldCensus: Sendable, Hashable {
    /// One source field and its fate.
    package struct Entry: Sendable, Hashable {
        package var field: String
        package var fate: FieldFate

        /// Creates an entry.
        package init(field: String, fate: FieldFate) {
            self.field = field
            self.fate = fate
        }
    }

    /// The entries, in source order.
    package var entries: [Entry] = []

    /// Creates an empty census.
    package init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// The fate of `field`, when the record had it (non-empty).
    package func fate(of field: String) -> FieldFate? {
        entries.first { $0.field == field }?.fate
    }

    /// Whether a source value counts as empty (null, blank text, an empty list or object): empty
    /// fields lose nothing and are not counted.
    package static func isEmpty(_ value: Value) -> Bool {
        switch value {
        case .null: true
        case .string(let s): s.allSatisfy(\.isWhitespace)
        case .array(let elements): elements.isEmpty
        case .object(let fields): fields.isEmpty
        default: false
        }
    }

    /// Takes the census of a record's top-level `fields` against `table`.
    ///
    /// Each non-empty field gets `overrides[key]`, else its fate in `table` (unknown fields:
    /// ``FieldFate/extras``). A field the table says is carried but whose Larder field `holds`
    /// says stayed empty (a time that is not a duration, a rating that is not a number) is kept in
    /// extras instead, so a value the importer could not read is never lost. O(fields).
    /// - Parameters:
    ///   - fields: the source record's top-level fields.
    ///   - table: the format's field table.
    ///   - overrides: fates decided for this record (a field read only in some shapes).
    ///   - holds: whether a Larder field received a value (`nil`: trust the table).
    /// - Returns: the census and the fields to keep in extras, verbatim, in source order.
    package static func take(
        of fields: Fields, table: FieldTable, overrides: [String: FieldFate] = [:],
        holds: ((String) -> Bool)? = nil
    ) -> (census: FieldCensus, extras: Fields) {
        var census = FieldCensus()
        var extras = Fields()
        for field in fields where !isEmpty(field.value) {
            var fate = overrides[field.key] ?? table.fate(of: field.key)
            if case .carried(let larderField) = fate, let holds, !holds(larderField) { fate = .extras }
            if fate == .extras, !extras.contains(key: field.key) { extras.append(key: field.key, value: field.value) }
            census.entries.append(Entry(field: field.key, fate: fate))
        }
        return (census, extras)
    }
}

/// One format's field table: what its importer does with each top-level source field it knows.
///
/// Fields the table does not name are kept in extras.
package struct FieldTable: Sendable {
    /// The format whose fields these are (its raw value names the extras entry).
    package var format: ImportFormat
    /// The fate of each known field.
    package var fates: [String: FieldFate]
    /// Fates below the top level, by folded path (`ingredients[].*.amounts[].unit`, `*` any key),
    /// for the ``LeafCensus``: a leaf the importer leaves out on purpose is dropped with its reason.
    package var leafFates: [String: FieldFate]

    /// Creates a table.
    package init(_ format: ImportFormat, _ fates: [String: FieldFate], leaves leafFates: [String: FieldFate] = [:]) {
        self.format = format
        self.fates = fates
        self.leafFates = leafFates
    }

    /// The fate of `field`: its entry, else ``FieldFate/extras``.
    package func fate(of field: String) -> FieldFate {
        fates[field] ?? .extras
    }

    /// The table with `other`'s entries added (``other`` wins).
    package func merging(_ other: [String: FieldFate]) -> FieldTable {
        FieldTable(format, fates.merging(other) { _, new in new }, leaves: leafFates)
    }
}

/// The census of a whole import: for each format and source field, how many records carried it
/// (and to which Larder field), kept it in extras, or dropped it (and why).
package struct CensusTally: Sendable, Hashable {
    /// One line of the tally.
    package struct Line: Sendable, Hashable {
        package var format: ImportFormat
        package var field: String
        package var fate: FieldFate
        package var count: Int
    }

    private struct Key: Hashable {
        var format: ImportFormat
        var field: String
        var fate: FieldFate
    }

    private var counts: [Key: Int] = [:]
    /// Records counted, by format.
    package private(set) var records: [ImportFormat: Int] = [:]
    /// The leaf census, by format.
    package private(set) var leaves = LeafTally()

    /// Creates an empty tally.
    package init() {}

    /// Counts one record's census.
    package mutating func add(_ census: FieldCensus, format: ImportFormat) {
        records[format, default: 0] += 1
        for entry in census.entries {
            counts[Key(format: format, field: entry.field, fate: entry.fate), default: 0] += 1
        }
    }

    /// Counts one record's leaf census.
    package mutating func add(_ census: LeafCensus, format: ImportFormat) {
        leaves.add(census, format: format)
    }

    /// Whether nothing was counted.
    package var isEmpty: Bool { records.isEmpty }

    /// The lines, by format, field name, then fate.
    ///
    /// O(n log n) in the number of lines.
    package var lines: [Line] {
        counts.map { Line(format: $0.key.format, field: $0.key.field, fate: $0.key.fate, count: $0.value) }.sorted {
            ($0.format.rawValue, $0.field, $0.fate.description) < ($1.format.rawValue, $1.field, $1.fate.description)
        }
    }

    /// Lines of `format` whose fate is ``FieldFate/dropped(_:)``.
    package func dropped(in format: ImportFormat) -> [Line] {
        lines.filter {
            guard $0.format == format, case .dropped = $0.fate else { return false }
            return true
        }
    }

    /// The tally as a value: `[{format, records, leaves: {carried, kept, unmapped, dropped, lost},
    /// unmapped: [{path, count}], fields: [{field, carried: {larderField: n}, extras: n,
    /// dropped: [{reason, count}], leaves}]}]` (`leaves` and `unmapped` when the format's importer
    /// gives its source leaves).
    package var value: Value {
        var formats: [Value] = []
        let all = lines
        for format in records.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            var fields: [Value] = []
            var byField: [(String, [Line])] = []
            for line in all where line.format == format {
                if byField.last?.0 == line.field {
                    byField[byField.count - 1].1.append(line)
                } else {
                    byField.append((line.field, [line]))
                }
            }
            for (field, fieldLines) in byField {
                var carried = Fields()
                var extras = 0
                var dropped: [Value] = []
                for line in fieldLines {
                    switch line.fate {
                    case .carried(let larderField): carried.append(key: larderField, value: .int(Int64(line.count)))
                    case .extras: extras += line.count
                    case .dropped(let reason):
                        dropped.append(
                            .object(
                                Fields([
                                    .init(key: "reason", value: .string(reason)),
                                    .init(key: "count", value: .int(Int64(line.count))),
                                ])))
                    }
                }
                var entry = Fields([
                    .init(key: "field", value: .string(field)), .init(key: "carried", value: .object(carried)),
                    .init(key: "extras", value: .int(Int64(extras))),
                    .init(key: "dropped", value: .array(dropped)),
                ])
                if let counts = leaves.counts(format, field: field) {
                    entry.append(key: "leaves", value: LeafTally.value(counts))
                }
                fields.append(.object(entry))
            }
            var entry = Fields([
                .init(key: "format", value: .string(format.rawValue)),
                .init(key: "records", value: .int(Int64(records[format] ?? 0))),
            ])
            if leaves.formats.contains(format) {
                entry.append(key: "leaves", value: LeafTally.value(leaves.total(format)))
                entry.append(key: "unmapped", value: LeafTally.value(leaves.unmapped(format)))
            }
            entry.append(key: "fields", value: .array(fields))
            formats.append(.object(entry))
        }
        return .array(formats)
    }

    /// The human summary: per format, one line per field (`  hash: 12 kept in extras`).
    package var summaryLines: [String] {
        var out: [String] = []
        var current: ImportFormat?
        var field: String?
        var parts: [String] = []
        func flush() {
            if let field, !parts.isEmpty { out.append("    \(field): " + parts.joined(separator: "; ")) }
            parts = []
        }
        for line in lines {
            if line.format != current {
                flush()
                field = nil
                current = line.format
                let n = records[line.format] ?? 0
                out.append("  \(line.format.displayName) (\(n) record\(n == 1 ? "" : "s")):")
                if let leafLine = leaves.summaryLine(line.format) { out.append("    " + leafLine) }
            }
            if line.field != field {
                flush()
                field = line.field
            }
            parts.append("\(line.count) \(line.fate)")
        }
        flush()
        return out
    }
}

extension ImportedRecipe {
    /// Takes the census of the source record's top-level `fields` (see
    /// ``FieldCensus/take(of:table:overrides:holds:)``), checking each carried field against this
    /// recipe, and adds the fields kept in extras to `extras[table.format.rawValue]`.
    package mutating func takeCensus(
        of fields: Fields, table: FieldTable, overrides: [String: FieldFate] = [:]
    ) {
        let current = self
        let (census, kept) = FieldCensus.take(of: fields, table: table, overrides: overrides) { current.holds($0) }
        fieldCensus = census
        leafSource = LeafSource(fields: fields, format: table.format, fates: table.leafFates)
        keepInExtras(kept, format: table.format)
    }

    /// Whether the Larder field `name` (a recipe JSON key) received a value from the source.
    func holds(_ name: String) -> Bool {
        switch name {
        case "title": !title.isEmpty
        case "description": description != nil
        case "author": author != nil
        case "author.url": authorURL != nil
        case "ingredients": !ingredients.isEmpty || !ingredientHeadings.isEmpty
        case "instructions": !steps.isEmpty
        case "servings": servings != nil
        case "yield": yieldText != nil || servings != nil
        case "totalTime": totalMinutes != nil
        case "prepTime": prepMinutes != nil
        case "cookTime": cookMinutes != nil
        case "images", "imageRef": !images.isEmpty
        case "categories": !categories.isEmpty
        case "tags": !keywords.isEmpty || !categories.isEmpty
        case "cuisines": cuisine != nil || !cuisines.isEmpty
        case "dietaryNotes": !diets.isEmpty
        case "sourceURL": sourceURL != nil
        case "sourceName": sourceName != nil
        case "nutrition": !nutrition.isEmpty
        case "rating": rating != nil
        case "rating.count": ratingCount != nil
        case "difficulty": difficulty != nil
        case "notes": notes != nil || !recipeNotes.isEmpty
        case "createdAt": createdAt != nil
        case "updatedAt": updatedAt != nil
        // A source id is carried only when it is the Larder id as it is; one the import derives
        // an id from (too short, not unique) is kept in extras, so an export can give it back.
        case "id": larderID != nil
        case "tools": !tools.isEmpty
        case "language": language != nil
        case "videoURL": videoURL != nil
        case "reviews": !reviews.isEmpty
        case "ownerID": ownerID != nil
        default: true
        }
    }
}
