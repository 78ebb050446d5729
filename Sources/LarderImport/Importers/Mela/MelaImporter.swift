import Foundation
package import LarderCore
import LarderFormats

/// Imports Mela exports.
///
/// Reads `.melarecipes` (a zip archive of `.melarecipe` JSON files) and single `.melarecipe`
/// files. Lines starting with `#` in ingredients and instructions are group headings; `images`
/// holds base64 photos.
package struct MelaImporter: RecipeImporter {
    package var format: ImportFormat { .mela }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let head = try FileByteSource(path: path).readPrefix(4)
        if ZipArchive.isZip(head) {
            let isNotImage: (ZipEntry) -> Bool = { !$0.path.lowercased().hasSuffix(".jpg") }
            try ArchiveWalker(path: path).forEachEntry(context: context, accept: isNotImage) { _, source, origin in
                try read(source, origin: origin, context: context)
            }
        } else {
            try read(try FileByteSource(path: path), origin: ImportOrigin(file: path), context: context)
        }
    }

    private func read(_ source: any ByteSource, origin: ImportOrigin, context: ImportContext) throws {
        let value = try context.readJSON(source, origin: origin)
        let items = value.arrayValue ?? [value]
        for (index, item) in items.enumerated() {
            let itemOrigin = items.count > 1 ? origin.item(index) : origin
            try context.isolating(itemOrigin, raw: item) {
                try context.records.recipe(try Self.recipe(from: item), origin: itemOrigin)
            }
        }
    }

    /// The recipe a Mela JSON object describes.
    /// - Throws: ``LarderError`` `malformed-record` with the field path.
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        let r = try ValueReader(value)
        let title = (try r.optionalString("title") ?? "").trimmingWhitespace
        guard !title.isEmpty else {
            throw LarderError(.malformedRecord, "the recipe has no title", location: SourceLocation(fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.nativeID = try r.optionalString("id")
        recipe.larderID = recipe.nativeID.flatMap(ImportedRecipe.usableID)
        for line in ImportText.lines(try r.optionalString("ingredients")) {
            if line.hasPrefix("#") {
                recipe.ingredientHeadings[recipe.ingredients.count] = String(line.drop { $0 == "#" || $0 == " " })
            } else {
                recipe.ingredients.append(line)
            }
        }
        for line in ImportText.lines(try r.optionalString("instructions")) {
            if line.hasPrefix("#") {
                recipe.steps.append(.init(text: String(line.drop { $0 == "#" || $0 == " " }), isSection: true))
            } else {
                recipe.steps.append(.init(text: line))
            }
        }
        if let yield = try r.optionalString("yield"), !yield.trimmingWhitespace.isEmpty {
            recipe.yieldText = RecipeYield.normalized(yield)
            recipe.yieldAsWritten = yield
            recipe.servings = RecipeYield.servings(yield)
        }
        recipe.prepMinutes = try r.optionalString("prepTime").flatMap(RecipeTime.minutes)
        recipe.cookMinutes = try r.optionalString("cookTime").flatMap(RecipeTime.minutes)
        recipe.totalMinutes = try r.optionalString("totalTime").flatMap(RecipeTime.minutes)
        recipe.description = try r.optionalString("text").flatMap(ImportText.nonEmpty)
        recipe.notes = try r.optionalString("notes").flatMap(ImportText.nonEmpty)
        if let nutrition = try r.optionalString("nutrition").flatMap(ImportText.nonEmpty) {
            recipe.nutrition["text"] = nutrition
        }
        // `link` is a web address, or the book or person the recipe comes from.
        if let link = try r.optionalString("link").flatMap(ImportText.nonEmpty) {
            if link.contains("://") || link.hasPrefix("www.") {
                recipe.sourceURL = link
            } else {
                recipe.sourceName = link
            }
        }
        recipe.isFavorite = try r.bool("favorite", default: false)
        recipe.categories = try r.stringList("categories")
        // Mela writes `date` as seconds since 2001-01-01 (Apple's reference date).
        if let date = try r.optionalDouble("date") { recipe.createdAt = Date(timeIntervalSinceReferenceDate: date) }
        for (index, image) in try r.stringList("images").enumerated() {
            guard let bytes = Data(base64Encoded: image, options: .ignoreUnknownCharacters) else {
                throw LarderError(
                    .malformedRecord, "image is not base64",
                    location: SourceLocation(fieldPath: FieldPath.root.appending("images").appending(index: index)))
            }
            recipe.images.append(
                .data(Array(bytes), fileExtension: ImageKind.fileExtension(for: Array(bytes.prefix(16)))))
        }
        recipe.takeCensus(
            of: r.fields, table: fieldTable,
            overrides: recipe.sourceName == nil ? [:] : ["link": .carried("sourceName")])
        return recipe
    }

    /// What the importer does with each key of a `.melarecipe`; any other key is kept in `extras.mela`
    /// (`wantToCook` among them).
    package static let fieldTable = FieldTable(
        .mela,
        [
            "id": .carried("id"), "title": .carried("title"), "text": .carried("description"),
            "ingredients": .carried("ingredients"), "instructions": .carried("instructions"),
            "yield": .carried("yield"), "prepTime": .carried("prepTime"), "cookTime": .carried("cookTime"),
            "totalTime": .carried("totalTime"), "notes": .carried("notes"), "nutrition": .carried("nutrition"),
            "link": .carried("sourceURL"), "favorite": .carried("isFavorited"), "categories": .carried("categories"),
            "date": .carried("createdAt"), "images": .carried("images"),
        ])
}
