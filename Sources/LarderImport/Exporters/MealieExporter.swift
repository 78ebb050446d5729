import Foundation
package import LarderCore
import LarderFormats

/// Writes Mealie recipes: an archive laid out as Mealie's own recipe export, which Mealie's
/// "Mealie" migration (`mealie/services/migrations/mealie_alpha.py`) reads, or one recipe's JSON.
///
/// The archive holds `recipes/<slug>/<slug>.json` per recipe (Mealie's recipe schema, camelCase
/// names) and the local image as `recipes/<slug>/images/original.<ext>`. `-o x.json` (or standard
/// output) writes one recipe's JSON, as Mealie's API returns and accepts it.
package final class MealieExporter: RecipeExporter {
    private let output: ExportOutput
    private var slugs = Set<String>()

    /// Opens the output: a `.zip` (or a folder) for the archive layout; `.json` or standard output for one recipe.
    package init(path: String?) throws {
        output = try ExportOutput(path: path, zipSuffixes: [".zip"], singleSuffixes: [".json"], stdoutIsZip: false)
    }

    package func write(_ item: ExportItem) throws {
        let slug = ExportText.unique(ExportText.slug(item.recipe.title), in: &slugs, separator: "-")
        let json = Array(try JSONWriter.string(Self.object(item.recipe, slug: slug), pretty: true).utf8)
        if try output.addSingle(json, holding: "a Mealie recipe .json file") { return }
        try output.add("recipes/\(slug)/\(slug).json", json, modified: item.recipe.updatedAt)
        if let image = item.image {
            let ext = ImageKind.fileExtension(for: Array(image.prefix(16)))
            try output.add(
                "recipes/\(slug)/images/original.\(ext)", image, deflate: false, modified: item.recipe.updatedAt)
        }
    }

    package func finish() throws {
        try output.finish()
    }

    /// The keys ``object(_:slug:)`` fills from Larder fields (see ``ExtrasRestore``).
    ///
    /// Mealie's own `id`, `slug` and `settings` are not Larder fields: an `extras["mealie"]` value for them wins.
    static let ownedKeys: Set<String> = [
        "name", "description", "recipeServings", "recipeYieldQuantity", "recipeYield", "totalTime",
        "prepTime", "performTime", "cookTime", "recipeCategory", "tags", "tools", "rating", "orgURL", "dateAdded",
        "dateUpdated", "createdAt", "updatedAt", "recipeIngredient", "recipeInstructions", "nutrition", "notes",
    ]

    /// Mealie's nutrition members (`mealie/schema/recipe/recipe_nutrition.py`): schema.org names without serving size.
    static let nutritionKeys = [
        "calories", "carbohydrateContent", "cholesterolContent", "fatContent", "fiberContent", "proteinContent",
        "saturatedFatContent", "sodiumContent", "sugarContent", "transFatContent", "unsaturatedFatContent",
    ]

    /// The Mealie recipe object for a recipe, with `extras["mealie"]` restored (``ExtrasRestore``).
    ///
    /// Writes `id` (the Larder id when a UUID, else a UUID derived from it), `name`, `slug`,
    /// `description`, `recipeServings`, `recipeYieldQuantity`, `recipeYield` (the yield as written),
    /// `prepTime`, `performTime` (the cooking time, as Mealie names it), `totalTime` (as text:
    /// `1 hour 10 minutes`), `recipeCategory` (categories and courses), `tags`, `tools` (each
    /// `{name, slug}`), `rating`, `orgURL`, dates, `recipeIngredient` (`note` and `originalText`
    /// the line as written, `title` the group heading on a group's first line), `recipeInstructions`
    /// (`title` the section name on a section's first step), `nutrition`, `notes` (`{title, text}`),
    /// and Mealie's `settings`, `assets`, `extras` and `comments` defaults.
    package static func object(_ recipe: Recipe, slug: String) -> Value {
        func tags(_ names: [String]) -> Value {
            .array(names.map { ["name": .string($0), "slug": .string(ExportText.slug($0))] })
        }
        var f = Fields()
        f["id"] = .string(ExportText.uuid(recipe.id))
        f["name"] = .string(recipe.title)
        f["slug"] = .string(slug)
        f["description"] = .string(recipe.description ?? "")
        f["recipeServings"] = .double(Double(recipe.servings ?? 0))
        f["recipeYieldQuantity"] = .double(recipe.yield?.quantity ?? 0)
        f["recipeYield"] = .string(recipe.yield?.text ?? recipe.servings.map { "\($0) servings" } ?? "")
        f["totalTime"] = ExportText.totalMinutes(recipe).map { .string(ExportText.duration($0)) } ?? .null
        f["prepTime"] = recipe.prepTime.map { .string(ExportText.duration($0)) } ?? .null
        f["performTime"] = recipe.cookTime.map { .string(ExportText.duration($0)) } ?? .null
        var seen = Set<String>()
        f["recipeCategory"] = tags(
            (recipe.categories + recipe.courses).filter { seen.insert($0.lowercased()).inserted })
        let categoryKeys = Set(recipe.categories.map { $0.lowercased() })
        f["tags"] = tags(recipe.tags.filter { !categoryKeys.contains($0.lowercased()) })
        f["tools"] = .array(
            recipe.tools.map { ["name": .string($0), "slug": .string(ExportText.slug($0)), "onHand": false] })
        f["rating"] = recipe.rating.map { .double($0.score / $0.scale * 5) } ?? .null
        f["orgURL"] = recipe.sourceURL.map(Value.string) ?? .null
        f["dateAdded"] = .string(String(Timestamp.format(recipe.createdAt).prefix(10)))
        f["dateUpdated"] = .string(Timestamp.format(recipe.updatedAt))
        f["createdAt"] = .string(Timestamp.format(recipe.createdAt))
        f["updatedAt"] = .string(Timestamp.format(recipe.updatedAt))
        f["recipeIngredient"] = .array(ingredients(recipe))
        f["recipeInstructions"] = .array(instructions(recipe))
        var nutrition = Fields()
        for key in nutritionKeys { nutrition[key] = recipe.nutrition?[key].map(Value.string) ?? .null }
        f["nutrition"] = .object(nutrition)
        f["settings"] = [
            "public": .bool(recipe.isPublic), "showNutrition": .bool(recipe.nutrition != nil), "showAssets": false,
            "landscapeView": false, "disableComments": false, "disableAmount": true, "locked": false,
        ]
        f["assets"] = []
        f["notes"] = .array(
            recipe.notes.map { ["title": .string($0.title ?? ""), "text": .string($0.text)] })
        f["extras"] = .object(Fields())
        f["comments"] = []
        // An ingredient's `referenceId`, a step's `id` and a tag's `slug` are made up here; the
        // source's, when kept, go back in their place (a list of the same length).
        ExtrasRestore.merge(
            recipe, format: .mealie, into: &f, owned: ownedKeys, replaceable: ["referenceId", "id", "slug"])
        return .object(f)
    }

    /// Ingredients as Mealie keeps unparsed ones: the line in `note` (with `disableAmount`), a group's heading as `title`.
    private static func ingredients(_ recipe: Recipe) -> [Value] {
        var group: String?
        return recipe.ingredients.enumerated().map { index, ingredient in
            let line = ExportText.line(ingredient)
            var title: Value = .null
            if let heading = ingredient.group, heading != group { title = .string(heading) }
            group = ingredient.group
            return [
                "title": title, "note": .string(line), "unit": .null, "food": .null, "disableAmount": true,
                "quantity": .double(ingredient.quantity ?? 0), "originalText": .string(line), "display": .string(line),
                "referenceId": .string(ExportText.uuid("\(recipe.id)#ingredient-\(index)")),
            ]
        }
    }

    /// Steps as Mealie's instructions: the section name as the `title` of its first step.
    private static func instructions(_ recipe: Recipe) -> [Value] {
        var out: [Value] = []
        for section in ExportText.sections(recipe.instructions) {
            if section.steps.isEmpty, let name = section.name {
                // A heading no step follows: a titled instruction without text.
                out.append(step(recipe, index: out.count, title: name, text: ""))
            }
            for (index, step) in section.steps.enumerated() {
                out.append(Self.step(recipe, index: out.count, title: index == 0 ? section.name : nil, text: step.text))
            }
        }
        return out
    }

    private static func step(_ recipe: Recipe, index: Int, title: String?, text: String) -> Value {
        [
            "id": .string(ExportText.uuid("\(recipe.id)#step-\(index)")), "title": .string(title ?? ""),
            "summary": "", "text": .string(text), "ingredientReferences": [],
        ]
    }
}
