import Foundation
package import LarderCore
import LarderFormats

/// Imports BigOven recipes: the recipe JSON of BigOven's REST API (one object, an array of them,
/// or a search response `{"ResultCount": …, "Results": […]}`), or a CSV whose header uses the
/// API's field names (``CSVProfile/bigOven``).
///
/// A recipe object is the API's `BigOvenModelAPIRecipe` (api2.bigoven.com, its swagger
/// definitions): `RecipeID`, `Title`, `Description`, `Cuisine`, `Category`, `Subcategory`,
/// `Microcategory`, `PrimaryIngredient`, `StarRating`, `ReviewCount`, `WebURL`, `ImageURL`,
/// `Instructions` (text), `YieldNumber` and `YieldUnit`, `TotalMinutes`, `ActiveMinutes`,
/// `CreationDate`, `LastModified`, `Poster` (the user who posted it), `NutritionInfo` and
/// `Ingredients` (`BigOvenModelAPIIngredient`: `IsHeading` lines head a section; `Quantity`,
/// `Unit`, `Name` and `PreparationNotes` are the structured ingredient, and `DisplayQuantity`,
/// `Unit`, `Name` and `, PreparationNotes` its line as written), else `IngredientsTextBlock`. The members of `Ingredients`, `Poster` and
/// `NutritionInfo` Larder has no field for are kept under their path, and every other field
/// (`IsPrivate`, `MedalCount`, `AdTags`, `ImageSquares`, …) whole, in `extras.bigoven`.
///
/// An array streams one recipe at a time; a single object or a search response is read whole,
/// within the record size limit. Each recipe is isolated: one without a title is rejected with its
/// index and field path, and the rest import.
package struct BigOvenImporter: RecipeImporter {
    package var format: ImportFormat { .bigoven }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let head = try FileByteSource(path: path).readPrefix(4096)
        let first = head.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            try CSVImporter(profile: .bigOven).importItems(at: path, context: context)
            return
        }
        try context.forEachJSONRecord(
            try FileByteSource(path: path), origin: ImportOrigin(file: path), unwrapping: "Results"
        ) { value, origin in
            try context.records.recipe(try Self.recipe(from: value), origin: origin)
        }
    }

    /// Whether a JSON document's keys are BigOven's: `Title` and one of the API's own names
    /// (`RecipeID`, `IngredientsTextBlock`, `YieldNumber`).
    static func claims(_ keys: ContentKeys) -> Bool {
        keys.has("Title") && (keys.has("RecipeID") || keys.has("IngredientsTextBlock") || keys.has("YieldNumber"))
    }

    /// The recipe one BigOven recipe object describes.
    /// - Throws: ``LarderError`` `malformed-record`: at `Title` when the recipe has none; at
    ///   `Ingredients` (`Ingredients[3]`) when it is not a list of ingredient objects; for a value
    ///   that is not an object.
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        guard let fields = value.objectValue else {
            throw LarderError(.malformedRecord, "a BigOven recipe is a JSON object; this is \(value.kindDescription)")
        }
        func text(_ key: String) -> String? { fields[key]?.scalarText }
        func number(_ key: String) -> Double? { ImportText.number(fields[key]) }
        guard let title = text("Title") else {
            throw LarderError(.malformedRecord, "the recipe has no title", location: SourceLocation(fieldPath: "Title"))
        }
        var recipe = ImportedRecipe(title: title)
        var fates: [String: FieldFate] = [:]
        recipe.nativeID = text("RecipeID")
        recipe.description = text("Description")
        if let cuisine = text("Cuisine") {
            recipe.cuisine = cuisine
            recipe.cuisines = [cuisine]
        }
        recipe.categories = ["Category", "Subcategory", "Microcategory"].compactMap(text)
        recipe.keywords = text("PrimaryIngredient").map { [$0] } ?? []
        recipe.rating = number("StarRating").flatMap { $0 > 0 ? $0 : nil }
        if number("StarRating") == 0 { fates["StarRating"] = .dropped("0: not rated") }
        // A number past Int's range (`1e300`) is none; the census keeps the field as written in extras.
        if recipe.rating != nil, let count = number("ReviewCount"), count > 0 {
            recipe.ratingCount = Int(rounding: count, .towardZero)
        }
        recipe.sourceURL = text("WebURL")
        let imageKeys = ["ImageURL", "HeroPhotoUrl", "PhotoUrl", "BookmarkImageURL"].filter { text($0) != nil }
        if let key = imageKeys.first, let url = text(key) { recipe.images = [.url(url)] }
        for key in imageKeys.dropFirst() { fates[key] = .extras }
        recipe.steps = ImportText.lines(text("Instructions")).map { ImportedRecipe.Step(text: $0) }
        if let count = number("YieldNumber"), count > 0 {
            recipe.readYield([Self.text(count), text("YieldUnit")].compactMap { $0 }.joined(separator: " "))
        }
        recipe.totalMinutes = number("TotalMinutes").flatMap { $0 > 0 ? Int(rounding: $0) : nil }
        recipe.prepMinutes = number("ActiveMinutes").flatMap { $0 > 0 ? Int(rounding: $0) : nil }
        recipe.createdAt = text("CreationDate").flatMap(RecipeDate.parse)
        recipe.updatedAt = text("LastModified").flatMap(RecipeDate.parse)
        if let poster = fields["Poster"]?.objectValue {
            (recipe.author, recipe.authorURL) = author(poster)
        }
        recipe.nutrition = nutrition(fields["NutritionInfo"]?.objectValue ?? Fields())
        if let ingredients = fields["Ingredients"], !FieldCensus.isEmpty(ingredients) {
            try readIngredients(ingredients, into: &recipe)
            if text("IngredientsTextBlock") != nil { fates["IngredientsTextBlock"] = .extras }
        } else {
            readIngredientLines(ImportText.lines(text("IngredientsTextBlock")), into: &recipe)
        }
        recipe.takeCensus(of: fields, table: fieldTable, overrides: fates)
        recipe.takeMemberCensus(of: fields, roots: structuredFields, format: .bigoven, census: memberCensus(recipe))
        return recipe
    }

    /// What the importer does with each field of a BigOven recipe; any other field is kept in
    /// `extras.bigoven`.
    package static let fieldTable = FieldTable(
        .bigoven,
        [
            "RecipeID": .carried("id"), "Title": .carried("title"), "Description": .carried("description"),
            "Cuisine": .carried("cuisines"), "Category": .carried("categories"), "Subcategory": .carried("categories"),
            "Microcategory": .carried("categories"), "PrimaryIngredient": .carried("tags"),
            "StarRating": .carried("rating"), "ReviewCount": .carried("rating.count"), "WebURL": .carried("sourceURL"),
            "ImageURL": .carried("images"), "HeroPhotoUrl": .carried("images"), "PhotoUrl": .carried("images"),
            "BookmarkImageURL": .carried("images"), "Instructions": .carried("instructions"),
            "YieldNumber": .carried("yield"), "YieldUnit": .carried("yield"), "TotalMinutes": .carried("totalTime"),
            "ActiveMinutes": .carried("prepTime"), "CreationDate": .carried("createdAt"),
            "LastModified": .carried("updatedAt"), "Poster": .carried("author"), "NutritionInfo": .carried("nutrition"),
            "Ingredients": .carried("ingredients"), "IngredientsTextBlock": .carried("ingredients"),
        ],
        leaves: [
            "Ingredients[].DisplayIndex": .dropped("the line's position, which the order of the ingredients keeps")
        ])

    /// The author a `Poster` names: first and last name, else the user name; and their page.
    private static func author(_ poster: Fields) -> (String?, String?) {
        let full = ["FirstName", "LastName"].compactMap { poster[$0]?.scalarText }.joined(separator: " ")
        return (full.isEmpty ? poster["UserName"]?.scalarText : full, poster["WebUrl"]?.scalarText)
    }

    /// `NutritionInfo`'s members and the Larder nutrition key and unit of each (per serving).
    static let nutrients: [String: (key: String, unit: String)] = [
        "TotalCalories": ("calories", "kcal"), "TotalFat": ("fatContent", "g"), "SatFat": ("saturatedFatContent", "g"),
        "TransFat": ("transFatContent", "g"), "Cholesterol": ("cholesterolContent", "mg"),
        "Sodium": ("sodiumContent", "mg"), "TotalCarbs": ("carbohydrateContent", "g"),
        "DietaryFiber": ("fiberContent", "g"), "Sugar": ("sugarContent", "g"), "Protein": ("proteinContent", "g"),
    ]

    /// The nutrients of a `NutritionInfo` Larder has a key for, as `240 kcal`, `9 g`.
    private static func nutrition(_ info: Fields) -> [String: String] {
        var result: [String: String] = [:]
        for (member, (key, unit)) in nutrients {
            guard let amount = ImportText.number(info[member]) else { continue }
            result[key] = "\(Self.text(amount)) \(unit)"
        }
        return result
    }
}
