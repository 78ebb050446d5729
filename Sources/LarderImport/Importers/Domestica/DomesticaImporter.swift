import Foundation
package import LarderCore
import LarderFormats

/// Imports Domestica's JSON export: one JSON array of recipes.
///
/// Each recipe holds `name`, `servings`, `timePrep` and `timeCook` (minutes), `ingredients` and
/// `directions` (one text, a line each), `source` (a URL or a name) and `image` (a `data:` URL of
/// a base64 JPEG), the fields Tandoor's importer reads (cookbook/integration/domestica.py). The
/// array streams one recipe at a time. Each recipe is isolated: one without a name, or with an
/// image that is not base64, is rejected with its index and field path. Fields Larder has no
/// field for are kept in `extras.domestica`.
package struct DomesticaImporter: RecipeImporter {
    package var format: ImportFormat { .domestica }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        try context.forEachJSONRecord(try FileByteSource(path: path), origin: ImportOrigin(file: path)) {
            value, origin in
            try context.records.recipe(try Self.recipe(from: value), origin: origin)
        }
    }

    /// Whether a JSON document's keys are Domestica's.
    static func claims(_ keys: ContentKeys) -> Bool {
        keys.has("name") && (keys.has("timeCook") || keys.has("timePrep"))
            && (keys.has("directions") || keys.has("ingredients"))
    }

    /// The recipe one Domestica object describes.
    /// - Throws: ``LarderError`` `malformed-record` at `name` when the recipe has no name, at
    ///   `image` when the image is not base64, or for a value that is not an object.
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        guard let fields = value.objectValue else {
            throw LarderError(.malformedRecord, "a Domestica recipe is a JSON object; this is not one")
        }
        func text(_ key: String) -> String? { fields[key]?.scalarText }
        guard let title = text("name") else {
            throw LarderError(.malformedRecord, "the recipe has no name", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: title)
        if let servings = text("servings") {
            recipe.yieldText = RecipeYield.normalized(servings) ?? servings
            recipe.yieldAsWritten = servings
            recipe.servings = RecipeYield.servings(servings)
        }
        recipe.prepMinutes = text("timePrep").flatMap(RecipeTime.minutes(from:))
        recipe.cookMinutes = text("timeCook").flatMap(RecipeTime.minutes(from:))
        recipe.ingredients = ImportText.lines(text("ingredients"))
        recipe.steps = ImportText.lines(text("directions")).map { ImportedRecipe.Step(text: $0) }
        if let source = text("source") {
            if source.contains("://") { recipe.sourceURL = source } else { recipe.sourceName = source }
        }
        if let image = text("image") {
            let encoded = image.hasPrefix("data:") ? String(image.drop { $0 != "," }.dropFirst()) : image
            guard let bytes = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters), !bytes.isEmpty else {
                throw LarderError(
                    .malformedRecord, "the image is not a base64 data URL", location: SourceLocation(fieldPath: "image")
                )
            }
            recipe.images = [HTMLExportArchive.image(Array(bytes))]
        }
        let fates: [String: FieldFate] = recipe.sourceName != nil ? ["source": .carried("sourceName")] : [:]
        recipe.takeCensus(of: fields, table: fieldTable, overrides: fates)
        return recipe
    }

    /// What the importer does with each key of a Domestica recipe; any other key is kept in
    /// `extras.domestica`.
    package static let fieldTable = FieldTable(
        .domestica,
        [
            "name": .carried("title"), "servings": .carried("yield"), "timePrep": .carried("prepTime"),
            "timeCook": .carried("cookTime"), "ingredients": .carried("ingredients"),
            "directions": .carried("instructions"), "source": .carried("sourceURL"), "image": .carried("images"),
        ])
}
