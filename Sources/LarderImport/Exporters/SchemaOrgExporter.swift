import Foundation
public import LarderCore
import LarderFormats

/// Writes recipes as one schema.org JSON-LD document: `{"@context": "https://schema.org",
/// "@graph": [Recipe, …]}`, streaming one node at a time.
///
/// Each node carries everything schema.org can hold of a Larder recipe: `@id`
/// (`urn:larder:recipe:<id>`, so a re-import keeps the id), name, ingredient lines, steps as
/// `HowToStep` with `timeRequired` for timers, times, yield, image, cuisine, diets, keywords,
/// source URL, dates and the owner as the author's `identifier`.
public final class SchemaOrgExporter: RecipeExporter {
    private let sink: any ByteSink
    private var count = 0

    /// Opens the output (`nil`/`-`: standard output).
    public init(path: String?) throws {
        sink = try ExportSession.sink(path)
        try sink.write("{\"@context\":\"https://schema.org\",\"@graph\":[\n")
    }

    public func write(_ item: ExportItem) throws {
        var out: [UInt8] = count == 0 ? [] : Array(",\n".utf8)
        try JSONWriter.append(Self.node(item.recipe), to: &out, pretty: true)
        try sink.write(out)
        count += 1
    }

    public func finish() throws {
        try sink.write("\n]}\n")
        try sink.close()
    }

    /// The JSON-LD node for a recipe.
    public static func node(_ recipe: Recipe) -> Value {
        var b = ValueBuilder()
        b.set("@type", "Recipe")
        b.set("@id", SchemaOrgRecipeParser.larderURNPrefix + recipe.id)
        b.set("name", recipe.title)
        b.set("recipeIngredient", recipe.ingredients.map { $0.original.isEmpty ? $0.item : $0.original })
        b.set(
            "recipeInstructions",
            value: .array(
                recipe.instructions.map { step in
                    var s = ValueBuilder()
                    s.set("@type", "HowToStep")
                    s.set("text", step.text)
                    s.set("timeRequired", step.timerSeconds.map { RecipeTime.iso8601(seconds: $0) })
                    return s.value
                }))
        b.set("prepTime", recipe.prepTime.map { RecipeTime.iso8601(minutes: $0) })
        b.set("cookTime", recipe.cookTime.map { RecipeTime.iso8601(minutes: $0) })
        if let p = recipe.prepTime, let c = recipe.cookTime { b.set("totalTime", RecipeTime.iso8601(minutes: p + c)) }
        b.set("recipeYield", recipe.servings.map { "\($0) serving\($0 == 1 ? "" : "s")" })
        b.set("image", recipe.imageRef)
        b.set("recipeCuisine", recipe.cuisine)
        if !recipe.dietaryNotes.isEmpty { b.set("suitableForDiet", recipe.dietaryNotes) }
        if !recipe.tags.isEmpty { b.set("keywords", recipe.tags) }
        b.set("url", recipe.sourceURL)
        b.set("dateCreated", recipe.createdAt)
        b.set("dateModified", recipe.updatedAt)
        if let owner = recipe.ownerID {
            b.set("author", value: ["@type": "Person", "identifier": .string(owner)])
        }
        return b.value
    }
}
