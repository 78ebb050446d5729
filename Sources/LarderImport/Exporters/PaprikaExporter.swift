import Foundation
public import LarderCore
import LarderFormats

/// Writes a `.paprikarecipes` archive laid out as Paprika's own export: one
/// `<name>.paprikarecipe` entry per recipe, each a gzip-compressed JSON object with Paprika's
/// keys (`uid`, `name`, `ingredients`, `directions`, `servings`, times, `categories`,
/// `photo_data`, `hash`, …).
public final class PaprikaExporter: RecipeExporter {
    private let zip: ZipWriter
    private var names = Set<String>()

    /// Opens the output (`nil`/`-`: standard output).
    public init(path: String?) throws {
        zip = ZipWriter(sink: try ExportSession.sink(path))
    }

    public func write(_ item: ExportItem) throws {
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

    public func finish() throws {
        try zip.finish()
    }

    /// A file name from a title: no path separators or control characters, at most 100 characters.
    static func fileName(_ title: String) -> String {
        let cleaned = String(title.map { "/\\:*?\"<>|".contains($0) || $0.isNewline ? "-" : $0 }.prefix(100))
            .trimmingWhitespace
        return cleaned.isEmpty ? "Recipe" : cleaned
    }

    /// The Paprika JSON object for a recipe.
    public static func object(_ recipe: Recipe, image: [UInt8]?) -> Value {
        func minutes(_ m: Int?) -> Value {
            .string(m.map { $0 >= 60 ? "\($0 / 60) hr\($0 % 60 == 0 ? "" : " \($0 % 60) min")" : "\($0) min" } ?? "")
        }
        let ingredients = recipe.ingredients.map { $0.original.isEmpty ? $0.item : $0.original }.joined(separator: "\n")
        let directions = recipe.instructions.map(\.text).joined(separator: "\n")
        let total = recipe.prepTime.flatMap { p in recipe.cookTime.map { p + $0 } }
        let photo = image.map { Data($0).base64EncodedString() }
        let photoName = image.map { "\(recipe.id).\(ImageKind.fileExtension(for: Array($0.prefix(16))))" }
        let hash = SHA256.hash(Array((recipe.title + "\n" + ingredients + "\n" + directions).utf8)).hexString
            .uppercased()
        var f = Fields()
        f["uid"] = .string(recipe.id)
        f["name"] = .string(recipe.title)
        f["directions"] = .string(directions)
        f["servings"] = .string(recipe.servings.map(String.init) ?? "")
        f["rating"] = .int(0)
        f["difficulty"] = .string(
            recipe.difficulty.map { $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst() } ?? "")
        f["ingredients"] = .string(ingredients)
        f["notes"] = .string("")
        f["created"] = .string(RecipeDate.paprikaString(recipe.createdAt))
        f["image_url"] = recipe.imageRef.flatMap { $0.contains("://") ? Value.string($0) : nil } ?? .null
        f["cook_time"] = minutes(recipe.cookTime)
        f["prep_time"] = minutes(recipe.prepTime)
        f["total_time"] = minutes(total)
        f["source"] = .string(recipe.sourceURL.flatMap { URL(string: $0)?.host } ?? "")
        f["source_url"] = .string(recipe.sourceURL ?? "")
        f["hash"] = .string(hash)
        f["photo_hash"] = photo.map { .string(SHA256.hash(Array($0.utf8)).hexString.uppercased()) } ?? .null
        f["photos"] = .array([])
        f["photo"] = photoName.map(Value.string) ?? .null
        f["photo_large"] = .null
        f["scale"] = .null
        f["nutritional_info"] = .string("")
        f["description"] = .string("")
        f["categories"] = .array(recipe.tags.map(Value.string))
        f["on_favorites"] = .bool(recipe.isFavorited)
        f["photo_data"] = photo.map(Value.string) ?? .null
        return .object(f)
    }
}
