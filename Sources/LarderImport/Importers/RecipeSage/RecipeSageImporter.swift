package import LarderCore
import LarderFormats

/// Imports RecipeSage's JSON-LD export: schema.org `Recipe` objects with RecipeSage's additions.
///
/// RecipeSage (packages/util/server/src/general/jsonLD.ts, `recipeToJSONLD`) writes each recipe as
/// a schema.org Recipe with `identifier` (its UUID), `creditText` (the source's name), `isBasedOn`
/// (the source URL), `comment` (one `Comment` named `Author Notes` holding the notes),
/// `recipeCategory` (its labels) and `aggregateRating`; ingredient and instruction headings are
/// lines in brackets (`[For the dough]`), instruction headings as `HowToSection`s whose `text`
/// is the bracketed line. The export is `{"recipes": [...]}`; older exports (and Tandoor's
/// RecipeSage exporter) write a bare array. Both are read.
///
/// Every field goes through ``SchemaOrgRecipeParser``, with ``fieldTable`` for the census; what
/// Larder has no field for is kept in `extras.recipesage`. A bare array streams one recipe at a
/// time; the `{"recipes": […]}` document is read whole, within the record size limit. Each recipe
/// is isolated: one without a name is rejected with its index and field path, and the rest import.
package struct RecipeSageImporter: RecipeImporter {
    package var format: ImportFormat { .recipesage }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let decoded = TranscodingByteSource(try FileByteSource(path: path), encoding: nil)
        let reader = JSONReader(source: decoded, lenient: true, limits: context.readerLimits)
        let fileOrigin = ImportOrigin(file: path)
        defer { if decoded.usedFallback { context.warnEncodingFallback(fileOrigin) } }
        var index = 0
        while let item = try reader.next() {
            for value in item.value["recipes"]?.arrayValue ?? [item.value] {
                let origin = fileOrigin.item(index)
                index += 1
                try context.isolating(origin, raw: value) {
                    try context.records.recipe(try Self.recipe(from: value), origin: origin)
                }
            }
        }
    }

    /// The recipe one RecipeSage JSON-LD object describes.
    /// - Throws: ``LarderError`` `malformed-record`: at `name` when the recipe has no name; for
    ///   a value that is not an object.
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        guard var node = value.objectValue else {
            throw LarderError(.malformedRecord, "a RecipeSage recipe is a JSON object; this is not one")
        }
        if let steps = node["recipeInstructions"]?.arrayValue {
            node["recipeInstructions"] = .array(steps.map(section))
        }
        let parser = SchemaOrgRecipeParser()
        let id = parser.text(node["identifier"])
        let notes = authorNotes(node["comment"])
        return try parser.parse(.object(node), table: fieldTable, overriding: fates(node, id: id, notes: notes)) {
            recipe in
            recipe.nativeID = id
            recipe.larderID = id.flatMap(ImportedRecipe.usableID)
            if let credit = parser.text(node["creditText"]) { recipe.sourceName = credit }
            if let link = parser.text(node["isBasedOn"]), link.contains("://") { recipe.sourceURL = link }
            recipe.notes = notes
            takeBracketedHeadings(&recipe)
        }
    }

    /// What the importer does with each property of a RecipeSage recipe: schema.org's table, plus
    /// RecipeSage's `creditText`, `isBasedOn`, `comment` and `identifier`; any other property is
    /// kept in `extras.recipesage`.
    package static let fieldTable = FieldTable(.recipesage, SchemaOrgRecipeParser.fieldTable.fates).merging([
        "creditText": .carried("sourceName"), "isBasedOn": .carried("sourceURL"), "comment": .carried("notes"),
        "identifier": .carried("id"),
    ])

    /// Fates that depend on the recipe: a UUID `identifier` is the Larder id; a `comment` list with
    /// anything but the author notes is kept whole in extras; an empty author-notes comment (what
    /// RecipeSage writes for a recipe without notes) is dropped.
    private static func fates(_ node: Fields, id: String?, notes: String?) -> [String: FieldFate] {
        var fates: [String: FieldFate] = [:]
        fates["identifier"] = id.flatMap(ImportedRecipe.usableID) != nil ? .carried("id") : .extras
        let comments = node["comment"]?.arrayValue ?? []
        if comments.contains(where: { $0["name"]?.stringValue != authorNotesName }) {
            fates["comment"] = .extras
        } else if notes == nil {
            fates["comment"] = .dropped("RecipeSage's empty Author Notes comment")
        }
        return fates
    }

    /// The name of the comment RecipeSage keeps a recipe's notes in.
    static let authorNotesName = "Author Notes"

    /// The text of the `Author Notes` comment, when it has any.
    private static func authorNotes(_ value: Value?) -> String? {
        let comments = value?.arrayValue ?? value.map { [$0] } ?? []
        let text = comments.first { $0["name"]?.stringValue == authorNotesName }?["text"]?.stringValue
        return text.flatMap { $0.trimmingWhitespace.isEmpty ? nil : $0.trimmingWhitespace }
    }

    /// A `HowToSection` whose heading is in `text` (`[For the sauce]`) as one with a `name`.
    private static func section(_ step: Value) -> Value {
        guard var fields = step.objectValue, SchemaOrgNodeFinder.hasType(step, "HowToSection"), fields["name"] == nil,
            let text = fields["text"]?.stringValue
        else { return step }
        fields["name"] = .string(bracketed(text) ?? text)
        fields["text"] = nil
        return .object(fields)
    }

    /// The heading inside `[` `]`, or `nil` when the line is not one.
    static func bracketed(_ line: String) -> String? {
        let trimmed = line.trimmingWhitespace
        guard trimmed.count > 2, trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return nil }
        return String(trimmed.dropFirst().dropLast()).trimmingWhitespace
    }

    /// Ingredient lines in brackets become group headings, and instruction steps in brackets
    /// become section headings.
    private static func takeBracketedHeadings(_ recipe: inout ImportedRecipe) {
        var lines: [String] = []
        var headings: [Int: String] = [:]
        for (index, line) in recipe.ingredients.enumerated() {
            if let heading = recipe.ingredientHeadings[index] { headings[lines.count] = heading }
            if let heading = bracketed(line) {
                headings[lines.count] = heading
            } else {
                lines.append(line)
            }
        }
        if let trailing = recipe.ingredientHeadings[recipe.ingredients.count] { headings[lines.count] = trailing }
        recipe.ingredients = lines
        recipe.ingredientHeadings = headings
        recipe.steps = recipe.steps.map { step in
            guard !step.isSection, let heading = bracketed(step.text) else { return step }
            return ImportedRecipe.Step(text: heading, isSection: true)
        }
    }
}
