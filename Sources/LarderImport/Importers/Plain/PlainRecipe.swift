import Foundation
package import LarderCore
import LarderFormats

/// A recipe as people write it by hand or export it from a script, read from one JSON, YAML or
/// XML record: the ``ImportedRecipe`` it describes, the source fields Larder has no field for
/// (``unmapped``), and the values that were there but could not be read.
///
/// Field names are matched whatever their case and separators, under the names ``Role`` lists
/// (`title`/`name`, `ingredients`, `steps`/`instructions`/`directions`/`method`, `prep_time`,
/// `servings`/`yield`, `tags`, `source`/`url`, `image`, `created`, …). Values are read leniently:
///
/// - ingredients: a list of lines, one text with a line each, objects (`{amount, unit, item, note}`,
///   `{original}`, Larder's ingredients), a mapping of item to amount (`flour: 200 g`), sections
///   (`{section: "For the dough", ingredients: […]}` or a mapping of heading to list). A line ending
///   in `:` or starting with `#` is a group heading.
/// - steps: a list of texts or objects (`{text, timer}`, Larder's steps, `{name, steps: […]}`
///   sections), or one text block, split at blank lines, else at numbered lines, else at each
///   line; `1.`, `2)`, `Step 3:` and bullets are dropped.
/// - durations: minutes as numbers, ISO 8601 (`PT1H30M`), or text (`15 min`, `1 h 30`, `1:30`,
///   `90 minutes`) through ``RecipeTime``; yields (`4 servings`, `makes 24`, `serves 4-6`) through
///   ``RecipeYield``; dates (ISO 8601, `March 1, 2024`, `01.03.2024`, Unix seconds) through
///   ``RecipeDate``.
///
/// A record that is not an object, has no title, or holds a value of the wrong kind where a
/// structure is expected (ingredients that are a number, a step that is `true`) throws.
package struct PlainRecipe: Sendable {
    /// A source field Larder has no place for, or whose value could not be read.
    package struct UnmappedField: Sendable, Hashable {
        /// Where it is in the record.
        package var path: FieldPath
        /// The value as read.
        package var value: Value
        /// Why it was not carried, when Larder does have a field for it (the value could not be read);
        /// `nil` when Larder has no field for it.
        package var reason: String?
    }

    /// The recipe.
    package var recipe: ImportedRecipe
    /// Fields not carried into ``recipe``, in record order: what goes into `extras` once the recipe
    /// model has them.
    package var unmapped: [UnmappedField] = []

    /// Reads a record.
    ///
    /// - Parameters:
    ///   - value: the record.
    ///   - isLarderRecord: whether the record comes from a Larder recipe file (an envelope with
    ///     `schema: recipe`); its `id` is kept as the Larder id. Otherwise an id is kept only when
    ///     it is a UUID.
    /// - Throws: ``LarderError`` `malformed-record` with the field path (`ingredients[2]`).
    package init(value: Value, isLarderRecord: Bool = false) throws {
        guard let fields = value.objectValue else {
            throw LarderError(
                .malformedRecord, "expected a recipe (an object with a title), found \(value.kindDescription)")
        }
        var reader = Reader()
        var byRole: [Role: Field] = [:]
        for field in fields {
            let path = FieldPath.root.appending(field.key)
            guard !Self.isEmpty(field.value) else { continue }
            switch Role(key: field.key) {
            case .larderFlag?, .syncState?:
                try reader.readLarderState(field, at: path)
            case let role? where byRole[role] == nil:
                byRole[role] = field
            default:
                reader.unmapped.append(UnmappedField(path: path, value: field.value))
            }
        }
        guard let titleField = byRole[.title],
            let title = try Self.text(titleField.value, at: .root.appending(titleField.key))
        else {
            throw LarderError(
                .malformedRecord, "the recipe has no title (looked for title, name, recipe_name)",
                location: SourceLocation(fieldPath: "title"))
        }
        reader.recipe.title = HTMLText.collapseWhitespace(title)
        for role in Role.allCases where role != .title {
            guard let field = byRole[role] else { continue }
            try reader.read(field.value, as: role, at: .root.appending(field.key), isLarderRecord: isLarderRecord)
        }
        recipe = reader.recipe
        // In record order; fields under one key keep the order they were found in.
        // Each key's position is looked up once (a record of 50,000 keys took minutes when every
        // comparison of the sort scanned for both).
        var positions: [String: Int] = Dictionary(minimumCapacity: fields.count)
        for (position, field) in fields.enumerated() where positions[field.key] == nil {
            positions[field.key] = position
        }
        unmapped = reader.unmapped.enumerated().map {
            (Self.order(of: $0.element.path, in: positions), $0.offset, $0.element)
        }
        .sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// The position of a path's first key in the record, to report unmapped fields in record order.
    private static func order(of path: FieldPath, in positions: [String: Int]) -> Int {
        guard case .key(let key)? = path.components.first else { return Int.max }
        return positions[key] ?? Int.max
    }

    /// Whether a value holds nothing: null, blank text, an empty list or object.
    static func isEmpty(_ value: Value) -> Bool {
        switch value {
        case .null: true
        case .string(let s): s.trimmingWhitespace.isEmpty
        case .array(let a): a.isEmpty
        case .object(let o): o.isEmpty
        default: false
        }
    }

    /// A scalar as text (numbers as written), `nil` when blank.
    /// - Throws: ``LarderError`` `malformed-record` at `path` for lists, objects and booleans.
    static func text(_ value: Value, at path: FieldPath, expected: String = "text") throws -> String? {
        switch value {
        case .null: return nil
        case .string(let s):
            let trimmed = s.trimmingWhitespace
            return trimmed.isEmpty ? nil : trimmed
        case .int(let i): return String(i)
        case .double(let d): return number(d)
        default:
            throw LarderError(
                .malformedRecord, "expected \(expected), found \(value.kindDescription)",
                location: SourceLocation(fieldPath: path))
        }
    }

    /// A number as people write it: `2`, not `2.0`; `0.5`.
    static func number(_ d: Double) -> String {
        d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}

extension PlainRecipe {
    /// Whether a record reads as a plain recipe: it has a title and ingredients or steps under the
    /// names plain files use, and ``PlainRecipe`` reads it without error.
    ///
    /// `larder convert` and `larder migrate` ask this of a record they reject, to point to
    /// `larder import`.
    package static func canRead(_ value: Value) -> Bool {
        guard let fields = value.objectValue else { return false }
        let roles = Set(fields.compactMap { Role(key: $0.key) })
        guard roles.contains(.title), roles.contains(.ingredients) || roles.contains(.steps) else { return false }
        return (try? PlainRecipe(value: value)) != nil
    }
}
