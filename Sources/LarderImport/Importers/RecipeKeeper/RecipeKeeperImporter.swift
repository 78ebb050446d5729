package import LarderCore
import LarderFormats

/// Imports Recipe Keeper's HTML export: a zip of `recipes.html` (one `div.recipe-details` per
/// recipe, its fields in `itemprop` attributes) and the photos in `images/`; or the page alone.
///
/// Recipe Keeper's item properties are its own, not schema.org's: `recipeId`, `recipeIsFavourite`,
/// `recipeRating`, `name`, `recipeCourse`, `recipeCategory` and `recipeCollection` (one element
/// each), `recipeSource`, `recipeYield`, `prepTime`/`cookTime` (ISO 8601 in `content`),
/// `recipeIngredients`, `recipeDirections` and `recipeNotes` (a `p` per line), `recipeNut…`
/// nutrients and `photo0…` images. They are read as the importers of Tandoor
/// (cookbook/integration/recipekeeper.py) and Mealie (mealie/services/migrations/recipekeeper.py)
/// read them. The census counts every property; those Larder has no field for (`recipeShareId`)
/// are kept in `extras.recipekeeper`. Each recipe is isolated: one without a name is rejected
/// with its index and field path, and the rest import.
package struct RecipeKeeperImporter: RecipeImporter {
    package var format: ImportFormat { .recipekeeper }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        try HTMLExportArchive.importCards(
            at: path, context: context, isCard: { $0.name == "div" && $0.hasClass("recipe-details") },
            read: { (Self.properties(of: $0), Self.photoSources(in: $0)) },
            recipe: { try Self.recipe(from: $0, photos: $1) })
    }

    /// A card's item properties in document order: `meta` gives its `content`, `img` its `src`,
    /// `div` its lines (one per `p`), anything else its text; a property given twice is a list.
    static func properties(of card: HTMLElement) -> Fields {
        var fields = Fields()
        card.walk { element in
            guard let name = element[attribute: "itemprop"], !name.isEmpty else { return true }
            let value: Value =
                switch element.name {
                case "meta": .string(element[attribute: "content"] ?? "")
                case "img": .string(element[attribute: "src"] ?? "")
                case "div": .array(element.lineText.split(separator: "\n").map { .string(String($0)) })
                default: .string(element.flatText)
                }
            if let existing = fields[name] {
                fields[name] = .array((existing.arrayValue ?? [existing]) + (value.arrayValue ?? [value]))
            } else {
                fields.append(key: name, value: value)
            }
            return false
        }
        return fields
    }

    /// The `src` of the card's photos (`img.recipe-photo`, or an `itemprop` starting with `photo`).
    static func photoSources(in card: HTMLElement) -> [String] {
        var seen = Set<String>()
        return card.all { element in
            element.name == "img"
                && (element.hasClass("recipe-photo") || (element[attribute: "itemprop"] ?? "").hasPrefix("photo"))
        }.compactMap { $0[attribute: "src"] }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Recipe Keeper's nutrient properties and their Larder keys.
    static let nutrients: [String: String] = [
        "recipeNutServingSize": "servingSize", "recipeNutCalories": "calories", "recipeNutTotalFat": "fatContent",
        "recipeNutSaturatedFat": "saturatedFatContent", "recipeNutCholesterol": "cholesterolContent",
        "recipeNutSodium": "sodiumContent", "recipeNutTotalCarbohydrate": "carbohydrateContent",
        "recipeNutDietaryFiber": "fiberContent", "recipeNutSugars": "sugarContent",
        "recipeNutProtein": "proteinContent",
    ]

    /// The recipe a card's properties describe, with `photos` as its images.
    /// - Throws: ``LarderError`` `malformed-record` at `name` when the recipe has no name.
    package static func recipe(from fields: Fields, photos: [ImportedRecipe.Image] = []) throws -> ImportedRecipe {
        func strings(_ key: String) -> [String] { HTMLExportArchive.texts(fields, key) }
        guard let title = strings("name").first else {
            throw LarderError(
                .malformedRecord, "the recipe has no name (itemprop=\"name\")",
                location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.nativeID = strings("recipeId").first
        recipe.larderID = recipe.nativeID.flatMap(ImportedRecipe.usableID)
        recipe.isFavorite = strings("recipeIsFavourite").first?.lowercased() == "true"
        recipe.rating = strings("recipeRating").first.flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        recipe.categories = strings("recipeCourse") + strings("recipeCategory")
        recipe.keywords = strings("recipeCollection")
        if let source = strings("recipeSource").first {
            if source.contains("://") { recipe.sourceURL = source } else { recipe.sourceName = source }
        }
        if let yield = strings("recipeYield").first {
            recipe.yieldText = RecipeYield.normalized(yield) ?? yield
            recipe.yieldAsWritten = yield
            recipe.servings = RecipeYield.servings(yield)
        }
        recipe.prepMinutes = strings("prepTime").first.flatMap { RecipeTime.minutes(from: $0) }
        recipe.cookMinutes = strings("cookTime").first.flatMap { RecipeTime.minutes(from: $0) }
        recipe.ingredients = strings("recipeIngredients")
        recipe.steps = strings("recipeDirections").map { ImportedRecipe.Step(text: unnumbered($0)) }
        let notes = strings("recipeNotes").joined(separator: "\n")
        recipe.notes = notes.isEmpty ? nil : notes
        for (property, key) in nutrients { if let value = strings(property).first { recipe.nutrition[key] = value } }
        recipe.images = photos
        recipe.takeCensus(of: fields, table: fieldTable(for: fields), overrides: fates(fields, recipe))
        return recipe
    }

    /// The census table for a card: the fixed properties, every `photo…` and the nutrients Larder knows.
    private static func fieldTable(for fields: Fields) -> FieldTable {
        var fates: [String: FieldFate] = [
            "recipeId": .carried("id"), "recipeIsFavourite": .carried("isFavorited"),
            "recipeRating": .carried("rating"),
            "name": .carried("title"), "recipeCourse": .carried("categories"), "recipeCategory": .carried("categories"),
            "recipeCollection": .carried("tags"), "recipeSource": .carried("sourceURL"),
            "recipeYield": .carried("yield"),
            "prepTime": .carried("prepTime"), "cookTime": .carried("cookTime"),
            "recipeIngredients": .carried("ingredients"), "recipeDirections": .carried("instructions"),
            "recipeNotes": .carried("notes"),
        ]
        for key in fields.keys where key.hasPrefix("photo") { fates[key] = .carried("images") }
        for key in nutrients.keys { fates[key] = .carried("nutrition") }
        return FieldTable(.recipekeeper, fates)
    }

    /// Fates that depend on the card: a source that is a name, a zero time or rating (Recipe
    /// Keeper's way of writing none), an id that cannot be the Larder id.
    private static func fates(_ fields: Fields, _ recipe: ImportedRecipe) -> [String: FieldFate] {
        var fates: [String: FieldFate] = [:]
        if recipe.sourceName != nil { fates["recipeSource"] = .carried("sourceName") }
        for key in ["prepTime", "cookTime"] where fields[key]?.stringValue == "PT0S" {
            fates[key] = .dropped("PT0S: Recipe Keeper's way of writing no time")
        }
        if fields["recipeRating"]?.stringValue == "0" { fates["recipeRating"] = .dropped("0: not rated") }
        if recipe.larderID == nil { fates["recipeId"] = .extras }
        return fates
    }

    /// A direction without the `1.` or `1. ` Recipe Keeper numbers it with.
    static func unnumbered(_ line: String) -> String {
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, line.dropFirst(digits.count).hasPrefix(".") else { return line }
        let rest = line.dropFirst(digits.count + 1).trimmingWhitespace
        return rest.isEmpty ? line : rest
    }
}
