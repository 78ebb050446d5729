import LarderCore
import LarderFormats

/// Imports ChefTap's text export: a zip whose `cheftap_export/` folder holds one `.txt` file per
/// recipe (or that folder, or one such file with `--from cheftap`).
///
/// The files have no labels. As Tandoor's importer (cookbook/integration/cheftap.py) reads them:
/// the first line is the title; a line that is only an `http:`/`https:` URL is the source; the
/// ingredients are the first paragraph (lines up to a blank one) with a line starting with a
/// digit or a fraction; the lines after it are the directions, one step per line. Lines between
/// the title and the ingredients (Tandoor sends them to the directions) become the description;
/// a step's numbering (`1.`, `2)`) is removed.
/// A file without ingredients sends everything after the title to the directions. The census
/// names these parts (`title`, `description`, `ingredients`, `directions`, `source`). Each file is
/// one record, isolated: an empty one, or one with a title alone, is rejected with its entry.
package struct ChefTapImporter: RecipeImporter {
    package var format: ImportFormat { .cheftap }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        try TextExportFiles.importRecipes(
            at: path, context: context, read: { try Self.parts(of: $0, origin: $1, context: context) }, raw: { $0 },
            recipe: Self.recipe(from:))
    }

    /// The folder ChefTap's export zip holds its files in.
    static let folderName = "cheftap_export"

    /// A file's parts, as named fields: `title`, `description`, `ingredients` and `directions`
    /// (lists of lines), `source`.
    /// - Throws: ``LarderError`` `malformed-record` at a NUL byte's line; `refused-input` past the
    ///   record size limit.
    static func parts(of source: any ByteSource, origin: ImportOrigin, context: ImportContext) throws -> Fields {
        var title: String?
        var sourceURL: String?
        var paragraphs: [[String]] = [[]]
        try TextExportFiles.forEachLine(of: source, origin: origin, context: context) { line, _ in
            let text = line.trimmingWhitespace
            if title == nil {
                if !text.isEmpty { title = text }
            } else if text.isEmpty {
                if paragraphs[paragraphs.count - 1].isEmpty == false { paragraphs.append([]) }
            } else if isURL(text) {
                sourceURL = text
            } else {
                paragraphs[paragraphs.count - 1].append(text)
            }
        }
        let chosen = paragraphs.firstIndex { $0.contains(where: startsWithQuantity) }
        var fields = Fields()
        fields["title"] = title.map(Value.string)
        if let chosen {
            let before = paragraphs[..<chosen].flatMap { $0 }
            if !before.isEmpty { fields["description"] = .string(before.joined(separator: "\n")) }
            fields["ingredients"] = .array(paragraphs[chosen].map(Value.string))
        }
        let directions = paragraphs[((chosen ?? -1) + 1)...].flatMap { $0 }
        if !directions.isEmpty { fields["directions"] = .array(directions.map(Value.string)) }
        fields["source"] = sourceURL.map(Value.string)
        return fields
    }

    /// The recipe a file's parts describe.
    /// - Throws: ``LarderError`` `malformed-record` at `title` for an empty file, at `ingredients`
    ///   for a title with nothing under it.
    static func recipe(from parts: Fields) throws -> ImportedRecipe {
        guard let title = parts["title"]?.stringValue else {
            throw LarderError(
                .malformedRecord, "the file is empty (no title line)", location: SourceLocation(fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title)
        func lines(_ key: String) -> [String] { parts[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        recipe.description = parts["description"]?.stringValue
        recipe.ingredients = lines("ingredients")
        recipe.steps = lines("directions").map { ImportedRecipe.Step(text: PlainRecipe.Reader.cleanStep($0)) }
        recipe.sourceURL = parts["source"]?.stringValue
        guard !recipe.ingredients.isEmpty || !recipe.steps.isEmpty else {
            throw LarderError(
                .malformedRecord, "the file has a title line and nothing under it (no ingredients, no directions)",
                location: SourceLocation(line: 1, fieldPath: "ingredients"))
        }
        recipe.takeCensus(of: parts, table: fieldTable)
        return recipe
    }

    /// What the importer does with each part of a file.
    package static let fieldTable = FieldTable(
        .cheftap,
        [
            "title": .carried("title"), "description": .carried("description"),
            "ingredients": .carried("ingredients"), "directions": .carried("instructions"),
            "source": .carried("sourceURL"),
        ])

    /// Whether a path lies in ChefTap's export folder.
    static func isInExportFolder(_ path: String) -> Bool {
        path.lowercased().split(separator: "/").contains { $0 == folderName }
    }

    private static func isURL(_ text: String) -> Bool {
        (text.hasPrefix("http://") || text.hasPrefix("https://")) && !text.contains(" ")
    }

    /// Whether a line starts with an amount (`2 cups`, `1/2 tsp`, `½ lemon`, `1.5 l`), as an
    /// ingredient does; a numbered step (`1. Heat`, `2) Stir`) does not.
    private static func startsWithQuantity(_ line: String) -> Bool {
        let scalars = Array(line.unicodeScalars.prefix(8))
        guard let first = scalars.first, first.properties.numericType != nil else { return false }
        let afterDigits = scalars.drop { $0.properties.numericType != nil }
        guard let mark = afterDigits.first, mark == "." || mark == ")" else { return true }
        let next = afterDigits.dropFirst().first
        return next.map { $0.properties.numericType != nil } ?? false
    }
}
