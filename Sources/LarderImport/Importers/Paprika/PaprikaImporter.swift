import Foundation
package import LarderCore
import LarderFormats

/// Imports Paprika exports: `.paprikarecipes` (a zip archive of gzip-compressed JSON files, one
/// per recipe), a single `.paprikarecipe` (one gzip-compressed JSON recipe), or Paprika JSON.
///
/// Streams the archive entry by entry; a bad entry is rejected with its entry name and the
/// field at fault, and the rest import. Photos (`photo_data`) are kept as images.
package struct PaprikaImporter: RecipeImporter {
    package var format: ImportFormat { .paprika }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let origin = ImportOrigin(file: path)
        let head = try FileByteSource(path: path).readPrefix(4)
        if ZipArchive.isZip(head) {
            try ArchiveWalker(path: path).forEachEntry(context: context) { entry, source, entryOrigin in
                try readRecipes(from: source, origin: entryOrigin, context: context)
            }
        } else {
            try readRecipes(from: try FileByteSource(path: path), origin: origin, context: context)
        }
    }

    /// Reads one gzip or plain JSON document holding a recipe (or a list of them).
    func readRecipes(from raw: any ByteSource, origin: ImportOrigin, context: ImportContext) throws {
        let peekable = PeekableByteSource(raw)
        let isGzip = GzipReader.isGzip(try peekable.peek(2))
        let value = try context.readJSON(isGzip ? try GzipReader(peekable) : peekable, origin: origin)
        let items = value.arrayValue ?? [value]
        for (index, item) in items.enumerated() {
            let itemOrigin = items.count > 1 ? origin.item(index) : origin
            try context.isolating(itemOrigin, raw: item.droppingPhotoData) {
                try context.records.recipe(try Self.recipe(from: item), origin: itemOrigin)
            }
        }
    }

    /// The recipe a Paprika JSON object describes.
    /// - Throws: ``LarderError`` `malformed-record` with the field path (`name`, `categories[2]`).
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        guard let fields = value.objectValue else {
            throw LarderError(.malformedRecord, "expected a Paprika recipe object, found \(value.kindDescription)")
        }
        func string(_ key: String) throws -> String? {
            switch fields[key] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            case .int(let i)?: return String(i)
            case .double(let d)?: return String(d)
            case let other?:
                throw LarderError(
                    .malformedRecord, "expected text, found \(other.kindDescription)",
                    location: SourceLocation(fieldPath: FieldPath.root.appending(key)))
            }
        }
        let name = try string("name").map { $0.trimmingWhitespace } ?? ""
        guard !name.isEmpty else {
            throw LarderError(.malformedRecord, "the recipe has no name", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: name)
        recipe.nativeID = try string("uid")
        recipe.larderID = recipe.nativeID.flatMap(ImportedRecipe.usableID)
        for line in try ImportText.lines(string("ingredients")) {
            if line.hasSuffix(":"), !line.contains(where: \.isNumber) {
                recipe.ingredientHeadings[recipe.ingredients.count] = String(line.dropLast())
            } else {
                recipe.ingredients.append(line)
            }
        }
        recipe.steps = try ImportText.lines(string("directions")).map { ImportedRecipe.Step(text: $0) }
        if let servings = try string("servings"), !servings.trimmingWhitespace.isEmpty {
            recipe.yieldText = RecipeYield.normalized(servings)
            recipe.yieldAsWritten = servings
            recipe.servings = RecipeYield.servings(servings)
        }
        recipe.prepMinutes = try string("prep_time").flatMap(RecipeTime.minutes)
        recipe.cookMinutes = try string("cook_time").flatMap(RecipeTime.minutes)
        recipe.totalMinutes = try string("total_time").flatMap(RecipeTime.minutes)
        recipe.description = try string("description").flatMap(ImportText.nonEmpty)
        recipe.notes = try string("notes").flatMap(ImportText.nonEmpty)
        recipe.sourceURL = try string("source_url").flatMap(ImportText.nonEmpty)
        recipe.sourceName = try string("source").flatMap(ImportText.nonEmpty)
        recipe.difficulty = try string("difficulty").flatMap {
            Recipe.Difficulty(rawValue: $0.trimmingWhitespace.lowercased())
        }
        if let nutrition = try string("nutritional_info").flatMap(ImportText.nonEmpty) {
            recipe.nutrition["text"] = nutrition
        }
        if case .int(let rating)? = fields["rating"], rating > 0 { recipe.rating = Double(rating) }
        if case .bool(let favourite)? = fields["on_favorites"] { recipe.isFavorite = favourite }
        if case .int(let favourite)? = fields["on_favorites"] { recipe.isFavorite = favourite != 0 }
        if let created = try string("created") { recipe.createdAt = RecipeDate.parse(created) }
        if let categories = fields["categories"], !categories.isNull {
            guard let list = categories.arrayValue else {
                throw LarderError(
                    .malformedRecord, "expected a list of category names, found \(categories.kindDescription)",
                    location: SourceLocation(fieldPath: "categories"))
            }
            for (index, element) in list.enumerated() {
                guard let category = element.stringValue ?? element["name"]?.stringValue else {
                    throw LarderError(
                        .malformedRecord, "expected a category name, found \(element.kindDescription)",
                        location: SourceLocation(
                            fieldPath: FieldPath.root.appending("categories").appending(index: index)))
                }
                recipe.keywords.append(category)  // Paprika's categories are the user's own labels: Larder tags
            }
        }
        if let photo = try string("photo_data").flatMap(ImportText.nonEmpty) {
            guard let bytes = Data(base64Encoded: photo, options: .ignoreUnknownCharacters) else {
                throw LarderError(
                    .malformedRecord, "photo_data is not base64", location: SourceLocation(fieldPath: "photo_data"))
            }
            recipe.images.append(
                .data(Array(bytes), fileExtension: ImageKind.fileExtension(for: Array(bytes.prefix(16)))))
        }
        var overrides: [String: FieldFate] = [:]
        if let photos = fields["photos"]?.arrayValue {
            // Extra photos carry their bytes in `data`: they become image files, the rest stays in extras.
            var kept: [Value] = []
            for (index, photo) in photos.enumerated() {
                guard let data = photo["data"]?.stringValue, !data.isEmpty else {
                    kept.append(photo)
                    continue
                }
                guard let bytes = Data(base64Encoded: data, options: .ignoreUnknownCharacters) else {
                    throw LarderError(
                        .malformedRecord, "photo data is not base64",
                        location: SourceLocation(
                            fieldPath: FieldPath.root.appending("photos").appending(index: index).appending("data")))
                }
                recipe.images.append(
                    .data(Array(bytes), fileExtension: ImageKind.fileExtension(for: Array(bytes.prefix(16)))))
                var rest = photo.objectValue ?? Fields()
                _ = rest.removeValue(forKey: "data")
                kept.append(.object(rest))
            }
            overrides["photos"] = .carried("images")
            if !kept.isEmpty {
                recipe.extras = Fields([
                    Field(key: "paprika", value: .object(Fields([Field(key: "photos", value: .array(kept))])))
                ])
            }
        }
        if let url = try string("image_url").flatMap(ImportText.nonEmpty) { recipe.images.append(.url(url)) }
        // What an export derives again from the recipe is not kept: an unset rating, the site's
        // host as the source, and the change hash when it is the one Larder computes.
        if case .int(0)? = fields["rating"] { overrides["rating"] = .dropped("0 is Paprika's \"not rated\"") }
        if let source = try string("source").flatMap(ImportText.nonEmpty), let url = recipe.sourceURL,
            URL(string: url)?.host?.lowercased() == source.lowercased()
        {
            recipe.sourceName = nil
            overrides["source"] = .dropped("the host of source_url, derived from it again on export")
        }
        if let hash = try string("hash"), hash.uppercased() == Self.changeHash(fields) {
            overrides["hash"] = .dropped(
                "Paprika's change hash of name, ingredients and directions, recomputed on export")
        }
        recipe.takeCensus(of: fields, table: fieldTable, overrides: overrides)
        return recipe
    }

    /// What the importer does with each field of a Paprika recipe (the keys of Paprika's export
    /// and its sync API); any other field is kept in `extras.paprika`.
    package static let fieldTable = FieldTable(
        .paprika,
        [
            "uid": .carried("id"), "name": .carried("title"), "ingredients": .carried("ingredients"),
            "directions": .carried("instructions"), "servings": .carried("yield"), "prep_time": .carried("prepTime"),
            "cook_time": .carried("cookTime"), "total_time": .carried("totalTime"),
            "description": .carried("description"), "notes": .carried("notes"), "source": .carried("sourceName"),
            "source_url": .carried("sourceURL"), "difficulty": .carried("difficulty"),
            "nutritional_info": .carried("nutrition"), "rating": .carried("rating"),
            "on_favorites": .carried("isFavorited"), "created": .carried("createdAt"),
            "categories": .carried("tags"), "photo_data": .carried("images"), "image_url": .carried("images"),
        ])

    /// The change hash Larder's Paprika export writes: SHA-256 of name, ingredients and
    /// directions, upper-case hex.
    static func changeHash(_ fields: Fields) -> String {
        let parts = ["name", "ingredients", "directions"].map { fields[$0]?.stringValue ?? "" }
        return SHA256.hash(Array(parts.joined(separator: "\n").utf8)).hexString.uppercased()
    }
}

extension Value {
    /// The value without a Paprika `photo_data` member (so rejects files stay small).
    var droppingPhotoData: Value {
        guard var fields = objectValue, fields.contains(key: "photo_data") else { return self }
        fields["photo_data"] = .string("(image data left out)")
        return .object(fields)
    }
}
