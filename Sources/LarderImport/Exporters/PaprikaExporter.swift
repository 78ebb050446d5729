import Foundation
package import LarderCore
import LarderFormats

/// Writes a `.paprikarecipes` archive laid out as Paprika's own export: one
/// `<name>.paprikarecipe` entry per recipe, each a gzip-compressed JSON object with Paprika's
/// keys (`uid`, `name`, `ingredients`, `directions`, `servings`, times, `categories`,
/// `photo_data`, `hash`, …).
package final class PaprikaExporter: RecipeExporter {
    private let zip: ZipWriter
    private var names = Set<String>()

    /// Opens the output (`nil`/`-`: standard output).
    package init(path: String?) throws {
        zip = ZipWriter(sink: try ExportSession.sink(path))
    }

    package func write(_ item: ExportItem) throws {
        let json = try JSONWriter.string(Self.object(item.recipe, image: item.image))
        let compressed = MemoryByteSink()
        let gzip = try GzipWriter(compressed)
        try gzip.write(json)
        try gzip.close()
        var name = Self.fileName(item.recipe.title)
        var n = 2
        while !names.insert(name.lowercased()).inserted {
            name = Self.fileName(item.recipe.title) + " (\(n))"
            n += 1
        }
        try zip.add(
            path: name + ".paprikarecipe", bytes: compressed.bytes, deflate: false, modified: item.recipe.updatedAt)
    }

    package func finish() throws {
        try zip.finish()
    }

    /// A file name from a title: no path separators or control characters, no leading dots (so
    /// never `.` or `..`, and no hidden files), at most 100 characters.
    static func fileName(_ title: String) -> String {
        var cleaned = String(
            title.map {
                "/\\:*?\"<>|".contains($0) || $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true ? "-" : $0
            }
            .prefix(100))
        while cleaned.first == "." || cleaned.first?.isWhitespace == true { cleaned.removeFirst() }
        cleaned = cleaned.trimmingWhitespace
        return cleaned.isEmpty ? "Recipe" : cleaned
    }

    /// The keys ``object(_:image:)`` fills from Larder fields (see ``ExtrasRestore``).
    static let ownedKeys: Set<String> = [
        "uid", "name", "directions", "servings", "rating", "difficulty", "ingredients", "notes", "created",
        "image_url", "cook_time", "prep_time", "total_time", "source", "source_url", "nutritional_info", "description",
        "categories", "on_favorites", "photo_data",
    ]

    /// The Paprika JSON object for a recipe, with `extras["paprika"]` restored (``ExtrasRestore``).
    ///
    /// Writes `uid`, `name`, `description`, `ingredients` (group headings as `Heading:` lines),
    /// `directions`, `notes`, `nutritional_info` (the free text, then `name: value` lines),
    /// `servings` (the yield as written, else the servings), times (`total_time` as the recipe
    /// states it), `source` (the source name, else the URL's host), `source_url`, `rating`
    /// (0-5 stars), `difficulty`, `categories` (the tags), `on_favorites`, `created`,
    /// `image_url` (the first remote image) and the local image as `photo_data`.
    package static func object(_ recipe: Recipe, image: [UInt8]?) -> Value {
        func minutes(_ m: Int?) -> Value {
            .string(m.map { $0 >= 60 ? "\($0 / 60) hr\($0 % 60 == 0 ? "" : " \($0 % 60) min")" : "\($0) min" } ?? "")
        }
        let ingredients = ExportText.ingredientLines(recipe) { "\($0):" }.joined(separator: "\n")
        let directions = recipe.instructions.map(\.text).joined(separator: "\n")
        let photo = image.map { Data($0).base64EncodedString() }
        let photoName = image.map { "\(recipe.id).\(ImageKind.fileExtension(for: Array($0.prefix(16))))" }
        let hash = SHA256.hash(Array((recipe.title + "\n" + ingredients + "\n" + directions).utf8)).hexString
            .uppercased()
        var f = Fields()
        f["uid"] = .string(recipe.id)
        f["name"] = .string(recipe.title)
        f["directions"] = .string(directions)
        f["servings"] = .string(recipe.yield?.text ?? recipe.servings.map(String.init) ?? "")
        f["rating"] = .int(Int64(ExportText.stars(recipe.rating) ?? 0))
        f["difficulty"] = .string(
            recipe.difficulty.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? "")
        f["ingredients"] = .string(ingredients)
        f["notes"] = .string(ExportText.notesText(recipe.notes) ?? "")
        f["created"] = .string(RecipeDate.paprikaString(recipe.createdAt))
        f["image_url"] = ExportText.remoteImageURL(recipe).map(Value.string) ?? .null
        f["cook_time"] = minutes(recipe.cookTime)
        f["prep_time"] = minutes(recipe.prepTime)
        f["total_time"] = minutes(ExportText.totalMinutes(recipe))
        f["source"] = .string(recipe.sourceName ?? recipe.sourceURL.flatMap { URL(string: $0)?.host } ?? "")
        f["source_url"] = .string(recipe.sourceURL ?? "")
        f["hash"] = .string(hash)
        f["photo_hash"] = photo.map { .string(SHA256.hash(Array($0.utf8)).hexString.uppercased()) } ?? .null
        f["photos"] = .array([])
        f["photo"] = photoName.map(Value.string) ?? .null
        f["photo_large"] = .null
        f["scale"] = .null
        f["nutritional_info"] = .string(ExportText.nutritionText(recipe.nutrition) ?? "")
        f["description"] = .string(recipe.description ?? "")
        f["categories"] = .array(recipe.tags.map(Value.string))
        f["on_favorites"] = .bool(recipe.isFavorited)
        f["photo_data"] = photo.map(Value.string) ?? .null
        ExtrasRestore.merge(recipe, format: .paprika, into: &f, owned: ownedKeys)
        return .object(f)
    }
}
