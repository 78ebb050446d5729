import Foundation
package import LarderCore
import LarderFormats

/// Writes recipes as one schema.org JSON-LD document: `{"@context": "https://schema.org",
/// "@graph": [Recipe, …]}`, streaming one node at a time.
///
/// Each node carries everything schema.org can hold of a Larder recipe: `@id`
/// (`urn:larder:recipe:<id>`, so a re-import keeps the id), name, description, ingredient lines
/// (group headings as `Heading:` lines), steps as `HowToStep` with `timeRequired` for timers and
/// their images, in `HowToSection`s for named sections, times (total as given), yield, every
/// image, every cuisine, categories and courses, diets, keywords, tools, source URL and name
/// (`publisher`), dates, the author (name, url, and the owner as `identifier`), nutrition,
/// `aggregateRating`, reviews, `inLanguage` and `video`. Then `extras["schemaorg"]` is restored
/// (``ExtrasRestore``). Larder has no schema.org place for notes, difficulty or set memberships.
package final class SchemaOrgExporter: RecipeExporter {
    private let sink: any ByteSink
    private var count = 0

    /// Opens the output (`nil`/`-`: standard output).
    package init(path: String?) throws {
        sink = try ExportSession.sink(path)
        try sink.write("{\"@context\":\"https://schema.org\",\"@graph\":[\n")
    }

    package func write(_ item: ExportItem) throws {
        var out: [UInt8] = count == 0 ? [] : Array(",\n".utf8)
        try JSONWriter.append(Self.node(item.recipe), to: &out, pretty: true)
        try sink.write(out)
        count += 1
    }

    package func finish() throws {
        try sink.write("\n]}\n")
        try sink.close()
    }

    /// The keys ``node(_:)`` fills from Larder fields (see ``ExtrasRestore``).
    package static let ownedKeys: Set<String> = [
        "@type", "@id", "name", "description", "recipeIngredient", "recipeInstructions", "prepTime", "cookTime",
        "totalTime", "recipeYield", "image", "recipeCuisine", "recipeCategory", "suitableForDiet", "keywords", "url",
        "dateCreated", "dateModified", "author", "nutrition", "aggregateRating", "review", "inLanguage", "video",
        "tool", "publisher",
    ]

    /// The JSON-LD node for a recipe, with `extras["schemaorg"]` restored (``ExtrasRestore``).
    ///
    /// Ingredient groups are written as heading lines (`For the sauce:`) before their lines, as
    /// pages publish them and the importer reads them; steps with a section name go into a
    /// `HowToSection`. Courses join the categories in `recipeCategory` (schema.org's course field).
    package static func node(_ recipe: Recipe) -> Value {
        var b = ValueBuilder()
        b.set("@type", "Recipe")
        b.set("@id", SchemaOrgRecipeParser.larderURNPrefix + recipe.id)
        b.set("name", recipe.title)
        b.set("description", recipe.description)
        b.set("recipeIngredient", ExportText.ingredientLines(recipe) { "\($0):" })
        b.set("recipeInstructions", value: instructions(recipe))
        b.set("prepTime", recipe.prepTime.map { RecipeTime.iso8601(minutes: $0) })
        b.set("cookTime", recipe.cookTime.map { RecipeTime.iso8601(minutes: $0) })
        b.set("totalTime", ExportText.totalMinutes(recipe).map { RecipeTime.iso8601(minutes: $0) })
        // One text: the yield as written when there is one (servings beside it have no second place).
        if let yield = yieldValue(recipe) { b.set("recipeYield", value: yield) }
        let images = ExportText.imageLocations(recipe)
        if images.count > 1 { b.set("image", images) } else { b.set("image", images.first) }
        if recipe.cuisines.count > 1 || recipe.cuisines.contains(where: { $0.contains(",") }) {
            // A list, so that a cuisine with a comma in it stays one cuisine.
            b.set("recipeCuisine", recipe.cuisines)
        } else {
            b.set("recipeCuisine", recipe.cuisine)
        }
        let categories = unique(recipe.categories + recipe.courses)
        if !categories.isEmpty { b.set("recipeCategory", categories) }
        if !recipe.dietaryNotes.isEmpty { b.set("suitableForDiet", recipe.dietaryNotes) }
        let categoryKeys = Set(categories.map { $0.lowercased() })
        let keywords = recipe.tags.filter { !categoryKeys.contains($0.lowercased()) }
        if !keywords.isEmpty { b.set("keywords", keywords) }
        if !recipe.tools.isEmpty { b.set("tool", recipe.tools) }
        b.set("url", recipe.sourceURL)
        b.set("dateCreated", recipe.createdAt)
        b.set("dateModified", recipe.updatedAt)
        if recipe.author != nil || recipe.ownerID != nil {
            var author = ValueBuilder()
            author.set("@type", "Person")
            author.set("name", recipe.author?.name)
            author.set("url", recipe.author?.url)
            author.set("identifier", recipe.ownerID)
            b.set("author", value: author.value)
        }
        if let name = recipe.sourceName {
            b.set("publisher", value: ["@type": "Organization", "name": .string(name)])
        }
        if let nutrition = recipe.nutrition {
            var n = ValueBuilder()
            n.set("@type", "NutritionInformation")
            for key in Nutrition.keys where key != "text" { n.set(key, nutrition[key]) }
            // The page's own properties (`carbs`, `fibre`), which the import keeps as `name: value` lines.
            for line in (nutrition.text ?? "").split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace }
                guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains(" "), n.fields[parts[0]] == nil
                else { continue }
                n.set(parts[0], parts[1])
            }
            if n.fields.count > 1 { b.set("nutrition", value: n.value) }
        }
        if let rating = recipe.rating {
            var r = ValueBuilder()
            r.set("@type", "AggregateRating")
            r.set("ratingValue", rating.score)
            r.set("bestRating", rating.scale)
            r.set("ratingCount", rating.count)
            b.set("aggregateRating", value: r.value)
        }
        if !recipe.reviews.isEmpty {
            b.set(
                "review",
                value: .array(recipe.reviews.map { ["@type": "Review", "reviewBody": .string($0)] }))
        }
        b.set("inLanguage", recipe.language)
        if let video = recipe.videoURL {
            b.set("video", value: ["@type": "VideoObject", "contentUrl": .string(video)])
        }
        var fields = b.fields
        ExtrasRestore.merge(recipe, format: .schemaorg, into: &fields, owned: ownedKeys)
        restoreIdentity(recipe, into: &fields)
        return .object(fields)
    }

    /// The page's own `@id` and `@type` (`["Recipe", "NewsArticle"]`) when the import kept them,
    /// with the Larder id moved to an `identifier` property value (unless the page had its own
    /// `identifier`, which comes back instead): a recipe from a page exports with the page's identity.
    private static func restoreIdentity(_ recipe: Recipe, into fields: inout Fields) {
        guard let kept = recipe.extras["schemaorg"]?.objectValue else { return }
        if let type = kept["@type"], type.stringValue == "Recipe" || type.arrayValue?.contains("Recipe") == true {
            fields["@type"] = type
        }
        guard let id = kept["@id"] else { return }
        fields["@id"] = id
        if kept["identifier"] == nil {
            fields["identifier"] = [
                "@type": "PropertyValue", "propertyID": .string(SchemaOrgRecipeParser.larderPropertyID),
                "value": .string(recipe.id),
            ]
        }
    }

    /// The yield as one text, or as `[count, text]` (the form WP Recipe Maker publishes) when the
    /// text alone would not read back as the same yield and servings (`0.75 cup` reads as `0 cups`).
    private static func yieldValue(_ recipe: Recipe) -> Value? {
        guard let text = ExportText.yieldText(recipe) else { return nil }
        guard let quantity = recipe.yield?.quantity, !readsBack(.string(text), recipe) else { return .string(text) }
        let count = quantity.rounded() == quantity && abs(quantity) < 1e9 ? String(Int(quantity)) : String(quantity)
        let pair: Value = [.string(count), .string(text)]
        // Servings beside a yield that is not servings have no second place: the text then.
        return readsBack(pair, recipe) ? pair : .string(text)
    }

    /// Whether the importer reads `yield` as the recipe's yield and servings.
    private static func readsBack(_ yield: Value, _ recipe: Recipe) -> Bool {
        guard let read = try? SchemaOrgRecipeParser().parse(["name": "yield", "recipeYield": yield]) else {
            return false
        }
        let again = read.makeRecipe(id: recipe.id, imageRef: nil, importedAt: recipe.createdAt)
        return again.yield == recipe.yield && again.servings == recipe.servings
    }

    /// `HowToStep`s, in `HowToSection`s where the steps have section names.
    private static func instructions(_ recipe: Recipe) -> Value {
        func step(_ step: InstructionStep) -> Value {
            var s = ValueBuilder()
            s.set("@type", "HowToStep")
            s.set("text", step.text)
            s.set("timeRequired", step.timerSeconds.map { RecipeTime.iso8601(seconds: $0) })
            let images = step.images.compactMap { $0.url ?? $0.ref }
            if images.count > 1 { s.set("image", images) } else { s.set("image", images.first) }
            return s.value
        }
        var out: [Value] = []
        for section in ExportText.sections(recipe.instructions) {
            guard let name = section.name else {
                out.append(contentsOf: section.steps.map(step))
                continue
            }
            out.append([
                "@type": "HowToSection", "name": .string(name), "itemListElement": .array(section.steps.map(step)),
            ])
        }
        return .array(out)
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0.lowercased()).inserted }
    }
}
