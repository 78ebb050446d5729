import Foundation
import LarderCore
import LarderFormats

/// Imports RecetteTek's (My Recipe Box's) backup: an `.rtk` zip of `recipes.json` (older
/// versions: `recipes_0.json`), a JSON array of recipes, and the photos; or the JSON alone.
///
/// Each recipe holds `title`, `description`, `preparationTime`, `cookingTime`, `inactiveTime`
/// and `totalTime` (minutes, as text or numbers), `quantity` (the yield), `ingredients` and
/// `instructions` (one text, a line each), `notes`, `nutrition` (`name : value` lines),
/// `favorite`, `rating`, `categories` and `keywords` (`;`-separated) or `tags`, `url` or `source`,
/// `video`, `pictures` (paths on the phone; the archive holds the files by name) and
/// `originalPicture` (the photo's web address). The names are those Tandoor's importer reads
/// (cookbook/integration/recettetek.py) and those of the same app's CSV export (see
/// ``CSVProfile/myRecipeBox``). The array streams one recipe at a time; photos are read from the
/// archive one at a time. Each recipe is isolated: one without a title is rejected with its entry,
/// index and field path. Fields Larder has no field for (`inactiveTime`, ids) are kept in
/// `extras.recettetek`.
package struct RecetteTekImporter: RecipeImporter {
    package var format: ImportFormat { .recettetek }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let isRecipeList: (ZipEntry) -> Bool = { Self.isRecipeList($0.fileName) }
        try BackupArchive.forEachRecordFile(
            at: path, context: context, what: "recipes.json", isRecordFile: isRecipeList
        ) {
            source, origin, images in
            try context.forEachJSONRecord(source, origin: origin) { value, itemOrigin in
                let recipe = try Self.recipe(from: value, images: images) { context.warn($0, origin: itemOrigin) }
                try context.records.recipe(recipe, origin: itemOrigin)
            }
        }
    }

    /// Whether an entry's file name is RecetteTek's recipe list: `recipes.json` or `recipes_<n>.json`.
    static func isRecipeList(_ fileName: String) -> Bool {
        let name = fileName.lowercased()
        guard name.hasPrefix("recipes"), name.hasSuffix(".json") else { return false }
        let middle = name.dropFirst("recipes".count).dropLast(".json".count)
        return middle.isEmpty || (middle.hasPrefix("_") && middle.dropFirst().allSatisfy(\.isNumber))
    }

    /// Whether a JSON document's keys are RecetteTek's.
    static func claims(_ keys: ContentKeys) -> Bool {
        keys.has("title") && keys.has("preparationTime") && keys.has("cookingTime") && keys.has("instructions")
            && (keys.has("pictures") || keys.has("originalPicture"))
    }

    /// The recipe one RecetteTek object describes, with its photos from `images`.
    /// - Throws: ``LarderError`` `malformed-record` at `title` when the recipe has no title, or
    ///   for a value that is not an object.
    static func recipe(from value: Value, images: BackupArchive.ImageLoader, warn: (String) -> Void) throws
        -> ImportedRecipe
    {
        guard let fields = value.objectValue else {
            throw LarderError(.malformedRecord, "a RecetteTek recipe is a JSON object; this is not one")
        }
        func text(_ key: String) -> String? { fields[key]?.scalarText }
        func minutes(_ key: String) -> Int? { text(key).flatMap(RecipeTime.minutes(from:)) }
        func list(_ key: String) -> [String] {
            if let array = fields[key]?.arrayValue { return array.compactMap { $0.stringValue?.trimmingWhitespace } }
            return (text(key) ?? "").split(separator: ";").map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
        }
        guard let title = text("title") else {
            throw LarderError(.malformedRecord, "the recipe has no title", location: SourceLocation(fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.description = text("description")
        recipe.prepMinutes = minutes("preparationTime")
        recipe.cookMinutes = minutes("cookingTime")
        recipe.totalMinutes = minutes("totalTime")
        if let quantity = text("quantity") {
            recipe.yieldText = RecipeYield.normalized(quantity) ?? quantity
            recipe.yieldAsWritten = quantity
            recipe.servings = RecipeYield.servings(quantity)
        }
        recipe.ingredients = ImportText.lines(text("ingredients"))
        recipe.steps = ImportText.lines(text("instructions")).map { ImportedRecipe.Step(text: $0) }
        recipe.notes = text("notes")
        recipe.nutrition = CSVImporter.nutrition(lines: text("nutrition"))
        recipe.isFavorite = fields["favorite"] == .bool(true) || text("favorite") == "true"
        recipe.rating = text("rating").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        recipe.categories = list("categories")
        recipe.keywords = list("keywords") + list("tags")
        recipe.sourceURL = text("url") ?? text("source")
        recipe.videoURL = text("video")
        var fates: [String: FieldFate] = [:]
        if text("url") != nil, text("source") != nil { fates["source"] = .extras }
        for (index, picture) in list("pictures").enumerated() {
            if let bytes = try images(picture) {
                recipe.images.append(HTMLExportArchive.image(bytes))
            } else {
                warn("the photo \(picture) (pictures[\(index)]) is not in the export")
            }
        }
        if recipe.images.isEmpty, !list("pictures").isEmpty { fates["pictures"] = .extras }
        if let original = text("originalPicture") {
            if recipe.images.isEmpty {
                recipe.images.append(.url(original))
            } else {
                fates["originalPicture"] = .extras
            }
        }
        if text("rating") == "0" { fates["rating"] = .dropped("0: not rated") }
        if fields["favorite"] == .bool(false) || text("favorite") == "false" {
            fates["favorite"] = .dropped("false: not a favourite")
        }
        recipe.takeCensus(of: fields, table: fieldTable, overrides: fates)
        return recipe
    }

    /// What the importer does with each key of a RecetteTek recipe; any other key is kept in
    /// `extras.recettetek`.
    package static let fieldTable = FieldTable(
        .recettetek,
        [
            "title": .carried("title"), "description": .carried("description"),
            "preparationTime": .carried("prepTime"), "cookingTime": .carried("cookTime"),
            "totalTime": .carried("totalTime"), "quantity": .carried("yield"), "ingredients": .carried("ingredients"),
            "instructions": .carried("instructions"), "notes": .carried("notes"), "nutrition": .carried("nutrition"),
            "favorite": .carried("isFavorited"), "rating": .carried("rating"), "categories": .carried("categories"),
            "keywords": .carried("tags"), "tags": .carried("tags"), "url": .carried("sourceURL"),
            "source": .carried("sourceURL"), "video": .carried("videoURL"), "pictures": .carried("images"),
            "originalPicture": .carried("images"),
        ])
}
