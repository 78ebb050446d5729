package import LarderCore
import LarderFormats

/// Imports CopyMeThat's export: a zip of `recipes.html` (one `div.recipe` per recipe, its fields in
/// elements with ids) and the photos in `images/`; or the page alone.
///
/// A recipe card holds `#name`, `#description`, `#recipeYield` (or `#servings`), `#ratingValue`,
/// `#starred`, `#original_link`, `#made_this`, lists `#recipeIngredients`, `#recipeInstructions` and
/// `#recipeNotes` (one `li` each), `span.recipeCategory` tags and an `img.recipeImage`, as the
/// CopyMeThat importers of Tandoor (cookbook/integration/copymethat.py) and Mealie
/// (mealie/services/migrations/copymethat.py) read them. Fields Larder has no field for
/// (`made_this`, other ids) are kept in `extras.copymethat`. Each recipe is isolated: one without a
/// name is rejected with its index and field path, and the rest import.
package struct CopyMeThatImporter: RecipeImporter {
    package var format: ImportFormat { .copymethat }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        try HTMLExportArchive.importCards(
            at: path, context: context, isCard: { $0.name == "div" && $0.hasClass("recipe") },
            read: { HTMLExportArchive.withPhoto(Self.fields(of: $0)) },
            recipe: { try Self.recipe(from: $0, photos: $1) })
    }

    /// A card's fields: each element with an id (a list's items as a list, else its text), the
    /// `span.recipeCategory` tags as `tags`, and the `img.recipeImage`'s `src` as `image`.
    static func fields(of card: HTMLElement) -> Fields {
        var fields = Fields()
        var tags: [Value] = []
        card.walk { element in
            if element.name == "img", element.hasClass("recipeImage") {
                if let source = element[attribute: "src"], fields["image"] == nil { fields["image"] = .string(source) }
                return false
            }
            if element.name == "span", element.hasClass("recipeCategory") {
                let tag = element.flatText
                if !tag.isEmpty, !tag.contains("Tags:") { tags.append(.string(tag)) }
                return false
            }
            guard let id = element[attribute: "id"], !id.isEmpty, fields[id] == nil else { return true }
            if element.name == "ul" || element.name == "ol" {
                fields[id] = .array(element.elements.filter { $0.name == "li" }.map { .string($0.flatText) })
            } else if element.name == "a", let link = element[attribute: "href"], id == "original_link" {
                fields[id] = .string(link)
            } else {
                fields[id] = .string(element.flatText)
            }
            return false
        }
        if !tags.isEmpty { fields["tags"] = .array(tags) }
        return fields
    }

    /// The recipe a card's fields describe, with `photos` as its images.
    /// - Throws: ``LarderError`` `malformed-record` at `name` when the recipe has no name.
    package static func recipe(from fields: Fields, photos: [ImportedRecipe.Image] = []) throws -> ImportedRecipe {
        func strings(_ key: String) -> [String] { HTMLExportArchive.texts(fields, key) }
        guard let title = strings("name").first else {
            throw LarderError(
                .malformedRecord, "the recipe has no name (id=\"name\")", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.description = strings("description").first
        if let yield = (strings("recipeYield") + strings("servings")).first {
            let text = yield.hasPrefix("Servings:") ? String(yield.dropFirst(9)).trimmingWhitespace : yield
            recipe.yieldText = RecipeYield.normalized(text) ?? text
            recipe.yieldAsWritten = text
            recipe.servings = RecipeYield.servings(text)
        }
        recipe.rating = strings("ratingValue").first.flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        recipe.isFavorite = !strings("starred").isEmpty
        if let link = strings("original_link").first {
            if link.contains("://") { recipe.sourceURL = link } else { recipe.sourceName = link }
        }
        recipe.ingredients = strings("recipeIngredients")
        recipe.steps = strings("recipeInstructions").map { ImportedRecipe.Step(text: $0) }
        let notes = strings("recipeNotes").joined(separator: "\n")
        recipe.notes = notes.isEmpty ? nil : notes
        recipe.keywords = strings("tags")
        recipe.images = photos
        var fates: [String: FieldFate] = [:]
        if recipe.sourceName != nil { fates["original_link"] = .carried("sourceName") }
        recipe.takeCensus(of: fields, table: fieldTable, overrides: fates)
        return recipe
    }

    /// What the importer does with each field of a card; any other is kept in `extras.copymethat`.
    package static let fieldTable = FieldTable(
        .copymethat,
        [
            "name": .carried("title"), "description": .carried("description"), "recipeYield": .carried("yield"),
            "servings": .carried("yield"), "ratingValue": .carried("rating"), "starred": .carried("isFavorited"),
            "original_link": .carried("sourceURL"), "recipeIngredients": .carried("ingredients"),
            "recipeInstructions": .carried("instructions"), "recipeNotes": .carried("notes"),
            "tags": .carried("tags"), "image": .carried("images"),
        ])
}
