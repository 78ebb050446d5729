import LarderCore
import LarderFormats

/// The older layout of the Cookbook app's export: one `.yml` file per recipe.
///
/// Its keys are those Tandoor's importer read (cookbook/integration/cookbookapp.py): `name`,
/// `recipeYield` (text; the servings are its first number), `prep_time` and `cook_time` (text such
/// as `15 minutes`), `on_favorites` (a boolean), `directions` (text, a step a line), `notes`,
/// `nutritional_info`, `source` and `ingredients` (text, an ingredient a line). Another version of
/// that importer reads `description`, `directions` and `ingredients` as lists, `tags`, `servings`,
/// `nutrition` and `image` (an address); those are read too.
extension CookbookAppImporter {
    /// The recipe one YAML document describes, its image (a path) read with `images`.
    /// - Throws: ``LarderError`` `malformed-record`: at `name` when the recipe has none; at
    ///   `ingredients`, `directions` or `tags` (`ingredients[2]`) when they are not text or a list of
    ///   texts; for a document that is not a mapping.
    static func recipe(fromYAML value: Value, images: BackupArchive.ImageLoader, warn: (String) -> Void) throws
        -> ImportedRecipe
    {
        guard let fields = value.objectValue else {
            throw LarderError(
                .malformedRecord, "a Cookbook app recipe is a YAML mapping; this is \(value.kindDescription)")
        }
        func text(_ key: String) -> String? { fields[key]?.scalarText }
        guard let title = text("name") else {
            throw LarderError(.malformedRecord, "the recipe has no name", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.description = text("description")
        var fates: [String: FieldFate] = [:]
        if let yield = text("recipeYield") ?? text("servings") {
            recipe.readYield(yield)
            if text("recipeYield") != nil, text("servings") != nil { fates["servings"] = .extras }
        }
        recipe.prepMinutes = text("prep_time").flatMap(RecipeTime.minutes(from:))
        recipe.cookMinutes = text("cook_time").flatMap(RecipeTime.minutes(from:))
        switch fields["on_favorites"] {
        case .bool(true)?: recipe.isFavorite = true
        case .bool(false)?: fates["on_favorites"] = .dropped("false: not a favourite")
        case nil: break
        default: fates["on_favorites"] = .extras
        }
        for line in try lines(fields, "ingredients") {
            if line.hasSuffix(":"), !line.contains(where: \.isNumber) {
                recipe.ingredientHeadings[recipe.ingredients.count] = String(line.dropLast())
            } else {
                recipe.ingredients.append(line)
            }
        }
        recipe.steps = try lines(fields, "directions").map { ImportedRecipe.Step(text: $0) }
        recipe.notes = text("notes")
        if let nutrition = text("nutritional_info") ?? text("nutrition") {
            recipe.nutrition["text"] = nutrition
            if text("nutritional_info") != nil, text("nutrition") != nil { fates["nutrition"] = .extras }
        }
        if let source = text("source") {
            if source.contains("://") {
                recipe.sourceURL = source
            } else {
                recipe.sourceName = source
                fates["source"] = .carried("sourceName")
            }
        }
        recipe.keywords = try list(fields, "tags")
        if let image = text("image") {
            if !image.contains("://"), let bytes = try images(image) {
                recipe.images = [HTMLExportArchive.image(bytes)]
            } else {
                if !image.contains("://") { warn("the photo \(image) is not in the export") }
                recipe.images = [.url(image)]
            }
        }
        recipe.takeCensus(of: fields, table: yamlFieldTable, overrides: fates)
        return recipe
    }

    /// What the importer does with each key of a recipe's YAML file; any other key is kept in
    /// `extras.cookbookapp`.
    package static let yamlFieldTable = FieldTable(
        .cookbookapp,
        [
            "name": .carried("title"), "description": .carried("description"), "recipeYield": .carried("yield"),
            "servings": .carried("yield"), "prep_time": .carried("prepTime"), "cook_time": .carried("cookTime"),
            "on_favorites": .carried("isFavorited"), "ingredients": .carried("ingredients"),
            "directions": .carried("instructions"), "notes": .carried("notes"),
            "nutritional_info": .carried("nutrition"), "nutrition": .carried("nutrition"),
            "source": .carried("sourceURL"), "tags": .carried("tags"), "image": .carried("images"),
        ])

    /// The lines of a key that holds one text (a line each) or a list of texts (an item each).
    /// - Throws: ``LarderError`` `malformed-record` at the key, or at the list item, that is not text.
    private static func lines(_ fields: Fields, _ key: String) throws -> [String] {
        guard let value = fields[key], !value.isNull else { return [] }
        if let text = value.scalarText { return ImportText.lines(text) }
        if value.stringValue != nil { return [] }
        guard let items = value.arrayValue else {
            throw LarderError(
                .malformedRecord, "expected text or a list of texts, found \(value.kindDescription)",
                location: SourceLocation(fieldPath: FieldPath.root.appending(key)))
        }
        return try items.enumerated().compactMap { index, item -> String? in
            if item.isNull || item.stringValue != nil { return item.scalarText }
            guard let text = item.scalarText else {
                throw LarderError(
                    .malformedRecord, "expected text, found \(item.kindDescription)",
                    location: SourceLocation(fieldPath: FieldPath.root.appending(key).appending(index: index)))
            }
            return text
        }
    }

    /// The items of a list, or of one text separated by commas.
    private static func list(_ fields: Fields, _ key: String) throws -> [String] {
        if let text = fields[key]?.scalarText {
            return text.split(separator: ",").map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
        }
        return try lines(fields, key)
    }
}
