import Foundation
import LarderCore

/// A recipe app's CSV export: the header names that identify it and what each of its columns holds.
///
/// The generic CSV import maps columns by header names in three languages; a profile names an
/// app's exact columns, including those no generic header means (a cuisine, a rating, one nutrient
/// per column, creation dates), and its export's quirks (Plan to Eat's `, Heading` ingredient
/// lines, MyRecipeBox's `;`-separated labels). Detection claims a file for a profile when its
/// header line has every ``signature`` header.
struct CSVProfile: Sendable {
    /// What a column holds.
    enum Role: Sendable, Hashable {
        /// A field the generic import knows.
        case field(CSVColumn)
        case sourceName, cuisine, rating, createdAt, updatedAt, favorite, video
        /// Further tags (Plan to Eat's `Main Ingredient`).
        case extraTag
        /// Further categories after the category column's, in `rank` order (BigOven's `Subcategory`).
        case extraCategory(rank: Int)
        /// The app's own id for the recipe (BigOven's `RecipeID`).
        case nativeID
        /// The number of a yield whose unit is in another column (BigOven's `YieldNumber`).
        case yieldNumber
        /// The unit of that yield (BigOven's `YieldUnit`).
        case yieldUnit
        /// One nutrient, by its Larder key (`calories`, `fatContent`, …).
        case nutrient(String)
        /// `name : value` lines (MyRecipeBox's `nutrition`).
        case nutritionLines

        /// The Larder field the census names for this column.
        var larderField: String {
            switch self {
            case .field(let column): column.larderField
            case .sourceName: "sourceName"
            case .cuisine: "cuisines"
            case .rating: "rating"
            case .createdAt: "createdAt"
            case .updatedAt: "updatedAt"
            case .favorite: "isFavorited"
            case .video: "videoURL"
            case .extraTag: "tags"
            case .extraCategory: "categories"
            case .nativeID: "id"
            case .yieldNumber, .yieldUnit: "yield"
            case .nutrient, .nutritionLines: "nutrition"
            }
        }
    }

    /// The format the profile's recipes are reported as (and whose name keys their extras).
    var format: ImportFormat
    /// Headers the header line must all have for detection to pick this profile.
    var signature: Set<String>
    /// What each column holds, by its exact header name; other columns are kept in extras.
    var roles: [String: Role]
    /// Ingredient lines that start with this are group headings (Plan to Eat writes `, Heading`).
    var headingPrefix: String?
    /// What separates the items of a category or tag cell.
    var listSeparator: Character
    /// Headers of which the header line must have at least one too (none: no such condition).
    var distinctive: Set<String> = []
    /// Ingredient lines that end with this and hold no digit are group headings (`For the sauce:`).
    var headingSuffix: String?

    /// The profiles, checked in this order.
    static let all = [planToEat, myRecipeBox, bigOven]

    /// The profile whose signature the header line has, if any.
    static func matching(_ headers: [String]) -> CSVProfile? {
        let names = Set(headers.map { $0.trimmingBlanks })
        return all.first {
            $0.signature.isSubset(of: names) && ($0.distinctive.isEmpty || !$0.distinctive.isDisjoint(with: names))
        }
    }

    /// Plan to Eat's recipe export (Settings → Export → CSV), as Mealie's migration
    /// (mealie/services/migrations/plantoeat.py) and its test file describe it.
    static let planToEat = CSVProfile(
        format: .plantoeat, signature: ["Title", "Main Ingredient", "Url Host", "Directions", "Photo Url"],
        roles: [
            "Title": .field(.title), "Course": .field(.categories), "Cuisine": .cuisine, "Main Ingredient": .extraTag,
            "Description": .field(.description), "Source": .sourceName, "Url": .field(.source),
            "Prep Time": .field(.prepTime), "Cook Time": .field(.cookTime), "Total Time": .field(.totalTime),
            "Servings": .field(.servings), "Yield": .field(.yield), "Ingredients": .field(.ingredients),
            "Directions": .field(.instructions), "Tags": .field(.tags), "Rating": .rating, "Photo Url": .field(.image),
            "Calories": .nutrient("calories"), "Fat": .nutrient("fatContent"),
            "Saturated Fat": .nutrient("saturatedFatContent"), "Cholesterol": .nutrient("cholesterolContent"),
            "Sodium": .nutrient("sodiumContent"), "Sugar": .nutrient("sugarContent"),
            "Carbohydrate": .nutrient("carbohydrateContent"), "Fiber": .nutrient("fiberContent"),
            "Protein": .nutrient("proteinContent"), "Created At": .createdAt, "Updated At": .updatedAt,
        ], headingPrefix: ", ", listSeparator: ",")

    /// MyRecipeBox's CSV export, as Mealie's migration (mealie/services/migrations/myrecipebox.py)
    /// and its test file describe it.
    static let myRecipeBox = CSVProfile(
        format: .myrecipebox, signature: ["title", "preparationTime", "cookingTime", "quantity", "originalPicture"],
        roles: [
            "title": .field(.title), "description": .field(.description), "preparationTime": .field(.prepTime),
            "cookingTime": .field(.cookTime), "totalTime": .field(.totalTime), "quantity": .field(.yield),
            "ingredients": .field(.ingredients), "instructions": .field(.instructions), "notes": .field(.notes),
            "nutrition": .nutritionLines, "favorite": .favorite, "rating": .rating, "categories": .field(.categories),
            "tags": .field(.tags), "video": .video, "source": .field(.source), "originalPicture": .field(.image),
        ], headingPrefix: nil, listSeparator: ";")

    /// A BigOven recipe spreadsheet.
    ///
    /// BigOven's own CSV export is not documented and none was at hand: these headers are our guess, the field names of its API's recipe object
    /// (`BigOvenModelAPIRecipe`), read as ``BigOvenImporter`` reads that object. Detection needs
    /// `Title` and one of the API's own names (`RecipeID`, `IngredientsTextBlock`, `YieldNumber`,
    /// `TotalMinutes`, `ActiveMinutes`).
    static let bigOven = CSVProfile(
        format: .bigoven, signature: ["Title"],
        roles: [
            "RecipeID": .nativeID, "Title": .field(.title), "Description": .field(.description),
            "Category": .field(.categories), "Subcategory": .extraCategory(rank: 1),
            "Microcategory": .extraCategory(rank: 2), "Cuisine": .cuisine, "PrimaryIngredient": .extraTag,
            "Ingredients": .field(.ingredients), "IngredientsTextBlock": .field(.ingredients),
            "Instructions": .field(.instructions), "YieldNumber": .yieldNumber, "YieldUnit": .yieldUnit,
            "TotalMinutes": .field(.totalTime), "ActiveMinutes": .field(.prepTime), "WebURL": .field(.source),
            "ImageURL": .field(.image), "StarRating": .rating, "CreationDate": .createdAt,
            "LastModified": .updatedAt,
        ], headingPrefix: nil, listSeparator: ",",
        distinctive: ["RecipeID", "IngredientsTextBlock", "YieldNumber", "TotalMinutes", "ActiveMinutes"],
        headingSuffix: ":")

    /// The Larder nutrition key for a nutrient name as apps write it (`carbohydrate`,
    /// `saturatedFat`, `calories`): the name itself or with `Content` when Larder knows that key.
    static func nutritionKey(_ name: String) -> String {
        if Nutrition.keys.contains(name) { return name }
        let lowered = name.prefix(1).lowercased() + name.dropFirst()
        if Nutrition.keys.contains(lowered) { return lowered }
        return Nutrition.keys.contains(lowered + "Content") ? lowered + "Content" : name
    }
}

extension CSVColumn {
    /// The Larder field (a recipe JSON key) this column fills, for the census.
    var larderField: String {
        switch self {
        case .source: "sourceURL"
        case .image: "images"
        default: rawValue
        }
    }
}
