import Foundation
package import LarderCore
import LarderFormats

/// Writes one Markdown file per recipe with YAML front matter, laid out as a Chowdown site
/// (clarklab/chowdown, the Jekyll recipe site Tandoor and Mealie import): `_recipes/<slug>.md`
/// and the photo as `images/<slug>.<ext>`.
///
/// The front matter uses Chowdown's keys (`layout: recipe`, `title`, `image`, `tags`,
/// `preptime` and `cooktime` as ISO 8601 durations, `yield`, `nutrition` with schema.org's
/// names and the number alone where Chowdown adds the unit, `ingredients`, `directions`), then
/// Jekyll's `categories` and `author`, Tandoor's `url` for the source, and `totaltime`. Section
/// headings are `Heading:` ingredient lines (Tandoor's Chowdown reader takes a line ending in
/// `:` as one); step sections have no place in Chowdown, so their names are left out. The
/// body is the description, then the notes under `## Notes`.
///
/// The output is a folder (`-o site`), a `.zip` of it, or one recipe's Markdown (`-o x.md` or
/// standard output, without its image).
package final class MarkdownExporter: RecipeExporter {
    private let output: ExportOutput
    private var names = Set<String>()

    /// Opens the output: a folder (created), a `.zip`, or `.md`/standard output for one recipe.
    /// - Throws: ``LarderError`` `io-error` when the folder or file cannot be created.
    package init(path: String?) throws {
        output = try ExportOutput(
            path: path, zipSuffixes: [".zip"], singleSuffixes: [".md", ".markdown"], stdoutIsZip: false)
    }

    package func write(_ item: ExportItem) throws {
        let recipe = item.recipe
        if output.isSingle {
            _ = try output.addSingle(Array(Self.text(recipe, image: nil).utf8), holding: "a Markdown file")
            return
        }
        let name = ExportText.unique(ExportText.slug(recipe.title), in: &names, separator: "-")
        var image: String?
        if let bytes = item.image {
            let file = "\(name).\(ImageKind.fileExtension(for: Array(bytes.prefix(16))))"
            try output.add("images/" + file, bytes, deflate: false, modified: recipe.updatedAt)
            image = file
        }
        try output.add("_recipes/\(name).md", Array(Self.text(recipe, image: image).utf8), modified: recipe.updatedAt)
    }

    package func finish() throws {
        try output.finish()
    }

    /// Chowdown's unit for each nutrition fact it shows (`_data/nutrients.yml`): a value of that
    /// unit is written as its number, which Chowdown's page shows followed by the unit.
    static let nutritionUnits: [String: String] = [
        "calories": "kcal", "carbohydrateContent": "g", "cholesterolContent": "g", "fatContent": "g",
        "fiberContent": "g", "proteinContent": "g", "saturatedFatContent": "g", "sodiumContent": "mg",
        "sugarContent": "g", "transFatContent": "g", "unsaturatedFatContent": "g",
    ]

    /// The Markdown file of a recipe; `image` is the photo's file name in `images/`.
    package static func text(_ recipe: Recipe, image: String?) -> String {
        var front = FrontMatter()
        front.add("layout", "recipe")
        front.add("title", recipe.title)
        front.add("image", image)
        // Larder's tags hold the categories too (an import puts them there): each goes out once.
        let categories = recipe.categories + recipe.courses
        let known = Set(categories.map { $0.lowercased() })
        front.add("tags", list: recipe.tags.filter { !known.contains($0.lowercased()) })
        front.add("categories", list: categories)
        front.add("author", recipe.author?.name)
        // Only a web address: a `javascript:` or `data:` URL would run in the site's link.
        front.add("url", recipe.sourceURL.flatMap(ExportText.webURL))
        front.add("preptime", FrontMatter.duration(recipe.prepTime))
        front.add("cooktime", FrontMatter.duration(recipe.cookTime))
        front.add("totaltime", FrontMatter.duration(recipe.totalTime))
        front.add("yield", ExportText.yieldText(recipe))
        front.add("nutrition", mapping: nutrition(recipe.nutrition))
        front.gap()
        front.add("ingredients", list: ExportText.ingredientLines(recipe) { "\($0):" })
        front.gap()
        var directions: [String] = []
        for section in ExportText.sections(recipe.instructions) {
            if section.steps.isEmpty, let name = section.name { directions.append(name) }
            directions.append(contentsOf: section.steps.map(\.text))
        }
        front.add("directions", list: directions)
        front.gap()
        var text = "---\n\n" + front.text + "---\n"
        // The body is Markdown, which passes HTML through: text goes in with `&`, `<` and `>` as
        // references, so a `<script>` in a description shows as text (the import reads them back).
        if let description = recipe.description?.trimmingWhitespace, !description.isEmpty {
            text += "\n" + Self.bodyText(description) + "\n"
        }
        if !recipe.notes.isEmpty {
            text += "\n## Notes\n"
            for note in recipe.notes {
                if let title = note.title { text += "\n### \(Self.bodyText(title))\n" }
                text += "\n" + Self.bodyText(note.text.trimmingWhitespace) + "\n"
            }
        }
        return text
    }

    /// Text for the Markdown body: `&`, `<` and `>` as references.
    static func bodyText(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    /// The nutrition facts as front-matter pairs: the number alone when the value is in Chowdown's unit.
    static func nutrition(_ nutrition: Nutrition?) -> [(String, String)] {
        guard let nutrition else { return [] }
        return Nutrition.keys.compactMap { key in
            guard key != "text", let value = nutrition[key] else { return nil }
            guard let unit = nutritionUnits[key] else { return (key, value) }
            let trimmed = value.trimmingWhitespace
            guard trimmed.lowercased().hasSuffix(unit) else { return (key, value) }
            let number = trimmed.dropLast(unit.count).trimmingWhitespace
            return Double(number) != nil ? (key, number) : (key, value)
        }
    }
}
