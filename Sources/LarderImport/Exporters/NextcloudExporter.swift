import Foundation
package import LarderCore
import LarderFormats

/// Writes Nextcloud Cookbook recipes as the app keeps them in its recipe folder: one folder per
/// recipe, named after it, holding `recipe.json` and the photo as `full.<ext>`.
///
/// The output is a folder (`-o Recipes`), a zip of those folders (`-o recipes.zip`), or one
/// recipe's `recipe.json` (`-o x.json` or standard output). `recipe.json` is a schema.org
/// `Recipe` shaped the way the app's JSON filters leave it (`lib/Helper/Filter/JSON/` in
/// nextcloud/cookbook): `recipeYield` an integer, `keywords` one comma-separated text,
/// `recipeCategory` one text, `recipeInstructions` and `recipeIngredient` lists of texts,
/// durations as `PT0H10M0S`, `tools` (and schema.org's `tool`) a list of texts.
package final class NextcloudExporter: RecipeExporter {
    private let output: ExportOutput
    private var names = Set<String>()

    /// Opens the output: a folder (created), a `.zip`, or `.json`/standard output for one recipe.
    package init(path: String?) throws {
        output = try ExportOutput(path: path, zipSuffixes: [".zip"], singleSuffixes: [".json"], stdoutIsZip: false)
    }

    package func write(_ item: ExportItem) throws {
        let json = Array(try JSONWriter.string(Self.object(item.recipe), pretty: true).utf8)
        if try output.addSingle(json, holding: "a Nextcloud Cookbook recipe.json file") { return }
        let folder = ExportText.unique(PaprikaExporter.fileName(item.recipe.title), in: &names)
        try output.add(folder + "/recipe.json", json, modified: item.recipe.updatedAt)
        if let image = item.image {
            let ext = ImageKind.fileExtension(for: Array(image.prefix(16)))
            try output.add(folder + "/full.\(ext)", image, deflate: false, modified: item.recipe.updatedAt)
        }
    }

    package func finish() throws {
        try output.finish()
    }

    /// The keys ``object(_:)`` fills from Larder fields (see ``ExtrasRestore``).
    ///
    /// The app's own `id` is not a Larder field: an `extras["nextcloud"]` value for it wins.
    static let ownedKeys: Set<String> = [
        "@context", "@type", "name", "description", "url", "image", "prepTime", "cookTime", "totalTime",
        "recipeCategory", "keywords", "recipeYield", "tool", "tools", "recipeIngredient", "recipeInstructions",
        "nutrition",
        "dateCreated", "dateModified", "recipeCuisine", "author", "inLanguage",
    ]

    /// `PT0H10M0S`: a duration as the app writes it.
    static func duration(_ minutes: Int?) -> Value {
        guard let minutes else { return .null }
        return .string("PT\(minutes / 60)H\(minutes % 60)M0S")
    }

    /// The `recipe.json` for a recipe, with `extras["nextcloud"]` restored (``ExtrasRestore``).
    ///
    /// Writes `id` (the app's own id from `extras`, else the Larder id), `name`, `description`, `url` (the source URL), `image` (the
    /// first remote image), `prepTime`, `cookTime`, `totalTime`, `recipeCategory` (the first
    /// category or course: the app has one), `keywords` (the other tags), `recipeYield` (the
    /// servings, else the yield's count), `tool` and `tools`, `recipeIngredient` (group headings as `Heading:`
    /// lines), `recipeInstructions` (texts; the app has no sections), `nutrition`
    /// (`NutritionInformation`), `recipeCuisine`, `author`, `inLanguage`, `dateCreated`, `dateModified`.
    package static func object(_ recipe: Recipe) -> Value {
        var f = Fields()
        f["@context"] = "http://schema.org"
        f["@type"] = "Recipe"
        // The app's own id when the recipe came from it (kept in extras), else the Larder id.
        f["id"] = recipe.extras["nextcloud"]?["id"] ?? .string(recipe.id)
        f["name"] = .string(recipe.title)
        f["description"] = .string(recipe.description ?? "")
        f["url"] = .string(recipe.sourceURL ?? "")
        f["image"] = .string(ExportText.remoteImageURL(recipe) ?? "")
        f["prepTime"] = duration(recipe.prepTime)
        f["cookTime"] = duration(recipe.cookTime)
        f["totalTime"] = duration(ExportText.totalMinutes(recipe))
        let category = (recipe.categories + recipe.courses).first
        f["recipeCategory"] = .string(category ?? "")
        let keywords = recipe.tags.filter { $0.lowercased() != category?.lowercased() }
        f["keywords"] = .string(keywords.map { $0.replacingAll(",", with: " ") }.joined(separator: ","))
        let yield = recipe.servings ?? recipe.yield?.quantity.flatMap { Int(rounding: $0) }
        f["recipeYield"] = yield.map { .int(Int64($0)) } ?? .null
        // schema.org names it `tool`; the app's FixToolsFilter keeps `tools`: both, so either reader finds them.
        f["tool"] = .array(recipe.tools.map(Value.string))
        f["tools"] = .array(recipe.tools.map(Value.string))
        f["recipeIngredient"] = .array(ExportText.ingredientLines(recipe) { "\($0):" }.map(Value.string))
        var instructions: [Value] = []
        // The app has no sections: their names are left out, but a heading no step follows stays a step.
        for section in ExportText.sections(recipe.instructions) {
            if section.steps.isEmpty, let name = section.name { instructions.append(.string(name)) }
            instructions.append(contentsOf: section.steps.map { .string($0.text) })
        }
        f["recipeInstructions"] = .array(instructions)
        var nutrition = Fields()
        nutrition["@type"] = "NutritionInformation"
        for key in Nutrition.keys where key != "text" {
            if let value = recipe.nutrition?[key] { nutrition[key] = .string(value) }
        }
        f["nutrition"] = .object(nutrition)
        if !recipe.cuisines.isEmpty { f["recipeCuisine"] = .string(recipe.cuisines.joined(separator: ", ")) }
        if let author = recipe.author { f["author"] = ["@type": "Person", "name": .string(author.name)] }
        if let language = recipe.language { f["inLanguage"] = .string(language) }
        f["dateCreated"] = .string(Timestamp.format(recipe.createdAt))
        f["dateModified"] = .string(Timestamp.format(recipe.updatedAt))
        ExtrasRestore.merge(recipe, format: .nextcloud, into: &f, owned: ownedKeys)
        return .object(f)
    }
}
