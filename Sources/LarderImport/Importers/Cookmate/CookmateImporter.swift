import Foundation
import LarderCore
import LarderFormats

/// Imports Cookmate's (My CookBook's) export: an `.mcb` zip holding a cookbook XML file and the
/// photos in `images/`, or the XML alone.
///
/// The XML is `<cookbook version="…">` with one `<recipe>` per recipe, each holding `title`,
/// `preptime`, `cooktime`, `totaltime` (free text: `15 min`, `30`, `1h30`, `10 mn`), `quantity`
/// (the yield), `ingredient`, `recipetext`, `comments` and `description` (text lines or `<li>`
/// elements), `url`, `source`, `category` (repeated), `rating` (0–5, 0 for none), `nutrition`,
/// `imagepath` (the photo's path on the phone; the archive has it in `images/`), `imageurl`, `lang`
/// and `video`. The layout is the one of a real My CookBook backup and of the `.mcb` reader and
/// writer of Gourmet and Tandoor (cookbook/integration/cookmate.py). Streams recipe by recipe
/// through ``XMLSubtreeReader`` (no DTD fetched, no entity expanded); photos are read from the
/// archive one at a time. Each recipe is isolated: one without a title is rejected with its entry,
/// index, line and field path. Elements Larder has no field for are kept in `extras.cookmate`.
package struct CookmateImporter: RecipeImporter {
    package var format: ImportFormat { .cookmate }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        try BackupArchive.forEachRecordFile(
            at: path, context: context, what: "cookbook .xml file", isRecordFile: Self.isCookbook
        ) { source, origin, images in
            try context.forEachXMLRecord(source, named: "recipe", origin: origin, fields: Self.fields) {
                element, fields, itemOrigin in
                let recipe = try Self.recipe(from: element, fields: fields, images: images) {
                    context.warn($0, origin: itemOrigin)
                }
                try context.records.recipe(recipe, origin: itemOrigin)
            }
        }
    }

    /// Whether an archive entry is a cookbook XML file (the archive's other entries are photos).
    static func isCookbook(_ entry: ZipEntry) -> Bool { entry.fileName.lowercased().hasSuffix(".xml") }

    /// Whether the first elements of an XML text (lowercased) are a Cookmate cookbook: `<cookbook>`,
    /// `<recipe>` and `<title>`, and `<recipetext>` or an `<ingredient>` that is not inside a plain
    /// file's `<ingredients>`.
    static func claims(_ keys: ContentKeys) -> Bool {
        keys.has("cookbook") && keys.has("recipe") && keys.has("title")
            && (keys.has("recipetext") || (keys.has("ingredient") && !keys.has("ingredients")))
    }

    /// A `<recipe>`'s children as source fields.
    ///
    /// An element of `<li>`s is the list of their texts, any other its text; a repeated element
    /// (`category`) is the list of its values. Attributes are fields named `@name`.
    static func fields(of element: XMLElementNode) -> Fields {
        var fields = RepeatedFields()
        for (key, value) in element.attributes.sorted(by: { $0.key < $1.key }) { fields.add("@" + key, .string(value)) }
        for child in element.children {
            let items = child.children("li")
            fields.add(
                child.name, items.isEmpty ? .string(child.allText) : .array(lines(of: child).map { .string($0) }))
        }
        return fields.fields
    }

    /// An element's lines: the texts of its `<li>`s, or its text split at line breaks.
    static func lines(of element: XMLElementNode) -> [String] {
        let items = element.children("li")
        guard !items.isEmpty else { return ImportText.lines(element.allText) }
        return items.map(\.text).filter { !$0.isEmpty }
    }

    /// The recipe a `<recipe>` element describes, with its photo from `images`.
    /// - Throws: ``LarderError`` `malformed-record` at `title` when the recipe has no title.
    static func recipe(
        from element: XMLElementNode, fields: Fields, images: BackupArchive.ImageLoader, warn: (String) -> Void
    ) throws -> ImportedRecipe {
        func text(_ name: String) -> String? { element.child(name).flatMap { ImportText.nonEmpty($0.text) } }
        func joined(_ name: String) -> String? {
            element.child(name).flatMap { ImportText.nonEmpty(lines(of: $0).joined(separator: "\n")) }
        }
        guard let title = text("title") else {
            throw LarderError(
                .malformedRecord, "the recipe has no <title>", location: SourceLocation(fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.prepMinutes = text("preptime").flatMap(minutes)
        recipe.cookMinutes = text("cooktime").flatMap(minutes)
        recipe.totalMinutes = text("totaltime").flatMap(minutes)
        if let quantity = text("quantity") {
            recipe.yieldText = RecipeYield.normalized(quantity) ?? quantity
            recipe.yieldAsWritten = quantity
            recipe.servings = RecipeYield.servings(quantity)
        }
        recipe.ingredients = element.child("ingredient").map { lines(of: $0).map(unbulleted) } ?? []
        recipe.steps = element.child("recipetext").map { lines(of: $0).map { ImportedRecipe.Step(text: $0) } } ?? []
        recipe.description = joined("description")
        recipe.notes = joined("comments")
        recipe.sourceURL = text("url")
        if let source = text("source") {
            if source.contains("://"), recipe.sourceURL == nil {
                recipe.sourceURL = source
            } else {
                recipe.sourceName = source
            }
        }
        recipe.categories = element.children("category").compactMap { ImportText.nonEmpty($0.text) }
        recipe.rating = text("rating").flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        if let nutrition = joined("nutrition") { recipe.nutrition["text"] = nutrition }
        recipe.language = text("lang")
        recipe.videoURL = text("video")
        var fates: [String: FieldFate] = [:]
        if let imagePath = text("imagepath") {
            if let bytes = try images(imagePath) {
                recipe.images.append(HTMLExportArchive.image(bytes))
            } else {
                warn("the photo \(imagePath) is not in the export")
                fates["imagepath"] = .extras
            }
        }
        if let url = text("imageurl") {
            if recipe.images.isEmpty { recipe.images.append(.url(url)) } else { fates["imageurl"] = .extras }
        }
        if text("rating") == "0" { fates["rating"] = .dropped("0: not rated") }
        if recipe.sourceName != nil { fates["source"] = .carried("sourceName") }
        recipe.takeCensus(of: fields, table: fieldTable, overrides: fates)
        return recipe
    }

    /// What the importer does with each element of a `<recipe>`; any other element (and any
    /// attribute) is kept in `extras.cookmate`.
    package static let fieldTable = FieldTable(
        .cookmate,
        [
            "title": .carried("title"), "preptime": .carried("prepTime"), "cooktime": .carried("cookTime"),
            "totaltime": .carried("totalTime"), "quantity": .carried("yield"), "ingredient": .carried("ingredients"),
            "recipetext": .carried("instructions"), "description": .carried("description"),
            "comments": .carried("notes"), "url": .carried("sourceURL"), "source": .carried("sourceURL"),
            "category": .carried("categories"), "rating": .carried("rating"), "nutrition": .carried("nutrition"),
            "imagepath": .carried("images"), "imageurl": .carried("images"), "lang": .carried("language"),
            "video": .carried("videoURL"),
        ])

    /// Minutes from Cookmate's free-text times; `mn`, the French abbreviation the app writes, is minutes.
    static func minutes(_ text: String) -> Int? {
        let words = text.replacingOccurrences(of: "mn", with: "min")
        return RecipeTime.minutes(from: words)
    }

    /// An ingredient line without the `- ` bullet recipe sites put before it.
    static func unbulleted(_ line: String) -> String {
        guard let first = line.first, first == "-" || first == "•" || first == "*" else { return line }
        let rest = line.dropFirst().trimmingWhitespace
        return rest.isEmpty ? line : rest
    }
}
