import Foundation
package import LarderCore
import LarderFormats

/// Writes Mela files as documented at https://mela.recipes/fileformat/index.html: a
/// `.melarecipes` archive (a zip with one `.melarecipe` per recipe), or one `.melarecipe` (JSON).
///
/// `-o x.melarecipe` writes one recipe; `-o x.melarecipes`, `-o x.zip` and standard output write
/// the archive.
package final class MelaExporter: RecipeExporter {
    private let output: ExportOutput
    private var names = Set<String>()

    /// Opens the output.
    package init(path: String?) throws {
        let archive = [".melarecipes", ".zip"]
        let single = [".melarecipe"]
        if let path, path != "-", !(archive + single).contains(where: { path.lowercased().hasSuffix($0) }) {
            throw LarderError(
                .usage, "Mela files are a .melarecipes archive or one .melarecipe; name the output so",
                location: SourceLocation(file: path))
        }
        output = try ExportOutput(path: path, zipSuffixes: archive, singleSuffixes: single, stdoutIsZip: true)
    }

    package func write(_ item: ExportItem) throws {
        let json = Array(try JSONWriter.string(Self.object(item.recipe, image: item.image), pretty: false).utf8)
        if try output.addSingle(json, holding: "a .melarecipe file") { return }
        let name = ExportText.unique(PaprikaExporter.fileName(item.recipe.title), in: &names)
        try output.add(name + ".melarecipe", json, modified: item.recipe.updatedAt)
    }

    package func finish() throws {
        try output.finish()
    }

    /// The keys ``object(_:image:)`` fills from Larder fields (see ``ExtrasRestore``).
    static let ownedKeys: Set<String> = [
        "id", "title", "text", "images", "categories", "yield", "prepTime", "cookTime", "totalTime", "ingredients",
        "instructions", "notes", "nutrition", "link", "favorite", "date",
    ]

    /// The `.melarecipe` object for a recipe, with `extras["mela"]` restored (``ExtrasRestore``).
    ///
    /// Writes `id`, `title`, `text` (the description), `images` (the local image, base64),
    /// `categories` (categories, courses and tags; Mela allows no `,` in a name, so it becomes a space),
    /// `yield` (as written, else the servings), `prepTime`, `cookTime`, `totalTime` (text),
    /// `ingredients` and `instructions` (lines; group and section names as `# ` lines), `notes`,
    /// `nutrition` (text), `link` (the source URL, else the source name), `favorite`,
    /// `wantToCook` and `date` (creation, seconds since 2001-01-01).
    package static func object(_ recipe: Recipe, image: [UInt8]?) -> Value {
        var instructions: [String] = []
        for section in ExportText.sections(recipe.instructions) {
            if let name = section.name { instructions.append("# " + name) }
            instructions.append(contentsOf: section.steps.map(\.text))
        }
        var seen = Set<String>()
        let categories = (recipe.categories + recipe.courses + recipe.tags).map { $0.replacingAll(",", with: " ") }
            .filter { seen.insert($0.lowercased()).inserted }
        var f = Fields()
        f["id"] = .string(recipe.id)
        f["title"] = .string(recipe.title)
        f["text"] = .string(recipe.description ?? "")
        f["images"] = .array(image.map { [.string(Data($0).base64EncodedString())] } ?? [])
        f["categories"] = .array(categories.map(Value.string))
        f["yield"] = .string(ExportText.yieldText(recipe) ?? "")
        f["prepTime"] = .string(recipe.prepTime.map(ExportText.duration) ?? "")
        f["cookTime"] = .string(recipe.cookTime.map(ExportText.duration) ?? "")
        f["totalTime"] = .string(ExportText.totalMinutes(recipe).map(ExportText.duration) ?? "")
        f["ingredients"] = .string(ExportText.ingredientLines(recipe) { "# " + $0 }.joined(separator: "\n"))
        f["instructions"] = .string(instructions.joined(separator: "\n"))
        f["notes"] = .string(ExportText.notesText(recipe.notes) ?? "")
        f["nutrition"] = .string(ExportText.nutritionText(recipe.nutrition) ?? "")
        f["link"] = .string(recipe.sourceURL ?? recipe.sourceName ?? "")
        f["favorite"] = .bool(recipe.isFavorited)
        f["wantToCook"] = false
        f["date"] = .double(recipe.createdAt.timeIntervalSinceReferenceDate)
        ExtrasRestore.merge(recipe, format: .mela, into: &f, owned: ownedKeys)
        return .object(f)
    }
}
