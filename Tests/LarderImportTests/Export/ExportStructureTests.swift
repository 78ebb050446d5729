import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Each new export holds the keys and types its app documents, laid out as the app reads it,
/// for a Larder recipe using every v4 field (groups, sections, timers, images, nutrition…),
/// and Larder's importer reads it back.
@Suite struct ExportStructureTests {
    /// A recipe with something in every field the exports write.
    static func richRecipe() -> Recipe {
        var recipe = Recipe(
            id: "larder-rich-0001", title: "Crème Brûlée, Two Ways",
            ingredients: [
                "500 ml double cream", "1 vanilla pod", "6 egg yolks", "100 g caster sugar, plus extra",
            ].map(IngredientLines.make),
            instructions: [
                InstructionStep(text: "Heat the cream with the vanilla.", timerSeconds: 300, name: "Custard"),
                InstructionStep(text: "Whisk into the yolks and sugar.", name: "Custard"),
                InstructionStep(text: "Bake in a water bath.", timerSeconds: 2400, name: "Bake"),
                InstructionStep(text: "Caramelise the sugar on top."),
            ],
            createdAt: fixtureDate, updatedAt: fixtureDate.addingTimeInterval(3600), imageRef: "brulee.jpg",
            difficulty: .medium, prepTime: 20, cookTime: 40, servings: 6, tags: ["dessert", "french"],
            sourceURL: "https://larder.example/brulee", isFavorited: true)
        recipe.ingredients[0].group = "Custard"
        recipe.ingredients[1].group = "Custard"
        recipe.ingredients[2].group = "Custard"
        recipe.ingredients[3].group = "Topping"
        recipe.description = "Silky custard, glassy top."
        recipe.notes = [RecipeNote(title: "Ahead", text: "Chill overnight.")]
        recipe.nutrition = Nutrition(calories: "450 kcal", fatContent: "38 g", proteinContent: "6 g")
        recipe.totalTime = 60
        recipe.author = RecipeAuthor(name: "Ann Cook")
        recipe.sourceName = "Larder Kitchen"
        recipe.rating = RecipeRating(score: 9, scale: 10)
        recipe.categories = ["Dessert"]
        recipe.cuisines = ["French"]
        recipe.tools = ["Blowtorch", "Ramekins"]
        recipe.language = "en"
        return recipe
    }

    /// Writes the rich recipe and a JPEG beside it, and exports them to `format` at `output`.
    static func export(_ format: ExportFormat, output: String, in dir: TemporaryDirectory) throws {
        try Data(ExporterRoundTripTests.jpeg).write(to: URL(fileURLWithPath: dir.path("brulee.jpg")))
        try ExportFixtures.writeRecords([richRecipe()], to: dir.path("rich.json"))
        try ExportFixtures.export(dir.path("rich.json"), to: format, output: dir.path(output))
    }

    /// Imports `path` back as `format` and returns the one recipe.
    static func importBack(_ path: String, _ format: ImportFormat, in dir: TemporaryDirectory) throws -> Recipe {
        let (_, recipes) = try ExportFixtures.importRecipes(path, format: format, into: dir, name: "back")
        #expect(recipes.count == 1)
        return try #require(recipes.first)
    }

    static func isUUID(_ value: Value?) -> Bool {
        value?.stringValue.flatMap { UUID(uuidString: $0) } != nil
    }

    @Test("Mealie: recipes/<slug>/<slug>.json with Mealie's keys and types, images/original.jpg, read back")
    func mealieStructure() throws {
        let dir = try TemporaryDirectory()
        try Self.export(.mealie, output: "out.zip", in: dir)
        let entries = try ExportFixtures.zipEntries(dir.path("out.zip"))
        #expect(
            entries.map(\.0) == [
                "recipes/creme-brulee-two-ways/creme-brulee-two-ways.json",
                "recipes/creme-brulee-two-ways/images/original.jpg",
            ])
        #expect(entries.last?.1 == ExporterRoundTripTests.jpeg)
        let r = try ExportFixtures.object(try #require(entries.first?.1))
        #expect(Self.isUUID(r["id"]))
        #expect(r["slug"] == "creme-brulee-two-ways")
        #expect(r["name"] == "Crème Brûlée, Two Ways")
        #expect(r["recipeServings"] == .double(6))
        #expect(r["prepTime"] == "20 minutes")
        #expect(r["performTime"] == "40 minutes")
        #expect(r["totalTime"] == "1 hour")
        #expect(r["rating"] == .double(4.5))
        #expect(r["recipeCategory"] == [["name": "Dessert", "slug": "dessert"]])
        // Tags that repeat a category are the category's: Mealie keeps them apart.
        #expect(r["tags"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["french"])
        #expect(r["tools"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } == ["blowtorch", "ramekins"])
        let ingredients = try #require(r["recipeIngredient"]?.arrayValue)
        #expect(ingredients.count == 4)
        for ingredient in ingredients {
            for key in ["title", "note", "unit", "food", "disableAmount", "quantity", "originalText", "referenceId"] {
                #expect(ingredient[key] != nil, "recipeIngredient.\(key)")
            }
            #expect(Self.isUUID(ingredient["referenceId"]))
        }
        #expect(ingredients.map { $0["title"] ?? .null } == ["Custard", .null, .null, "Topping"])
        let steps = try #require(r["recipeInstructions"]?.arrayValue)
        #expect(steps.map { $0["title"] ?? .null } == ["Custard", "", "Bake", ""])
        #expect(steps.allSatisfy { Self.isUUID($0["id"]) && $0["ingredientReferences"] == [] })
        #expect(r["nutrition"]?["calories"] == "450 kcal")
        #expect(r["nutrition"]?["sodiumContent"] == .null)
        #expect(r["notes"] == [["title": "Ahead", "text": "Chill overnight."]])
        for key in [
            "public", "showNutrition", "showAssets", "landscapeView", "disableComments", "disableAmount", "locked",
        ] {
            #expect(r["settings"]?[key]?.isNull == false, "settings.\(key)")
        }
        #expect(r["dateAdded"] == "2024-03-01")
        let back = try Self.importBack(dir.path("out.zip"), .mealie, in: dir)
        #expect(back.title == "Crème Brûlée, Two Ways")
        #expect(back.ingredients.map(\.group) == ["Custard", "Custard", "Custard", "Topping"])
        #expect(back.instructions.map(\.name) == ["Custard", "Custard", "Bake", "Bake"])
        #expect(back.servings == 6)
        #expect(back.prepTime == 20 && back.cookTime == 40)
        #expect(back.imageRef != nil)
    }

    @Test("Tandoor: a zip of <name>.zip, each recipe.json with RecipeExportSerializer's keys and image.jpg, read back")
    func tandoorStructure() throws {
        let dir = try TemporaryDirectory()
        try Self.export(.tandoor, output: "out.zip", in: dir)
        let outer = try ExportFixtures.zipEntries(dir.path("out.zip"))
        #expect(outer.map(\.0) == ["Crème_Brûlée_Two_Ways.zip"])
        let inner = try ExportFixtures.zipEntries(bytes: try #require(outer.first?.1), in: dir)
        #expect(inner.map(\.0) == ["recipe.json", "image.jpg"])
        let r = try ExportFixtures.object(try #require(inner.first?.1))
        for key in [
            "name", "description", "keywords", "steps", "working_time", "waiting_time", "internal", "nutrition",
            "servings", "servings_text", "source_url",
        ] {
            #expect(r[key] != nil, "\(key)")
        }
        #expect(r["working_time"] == 20)
        #expect(r["waiting_time"] == 40)
        #expect(r["servings"] == 6)
        #expect(r["internal"] == true)
        #expect(r["keywords"] == [["name": "dessert", "description": ""], ["name": "french", "description": ""]])
        #expect(r["nutrition"]?["calories"] == .double(450))
        #expect(r["nutrition"]?["fats"] == .double(38))
        #expect(r["nutrition"]?["proteins"] == .double(6))
        let steps = try #require(r["steps"]?.arrayValue)
        #expect(steps.map { $0["name"] ?? .null } == ["Custard", "", "Bake", ""])
        #expect(steps.map { $0["time"] ?? .null } == [5, 0, 40, 0])
        #expect(steps.map { $0["order"] ?? .null } == [0, 1, 2, 3])
        for step in steps {
            for key in ["name", "instruction", "ingredients", "time", "order", "show_as_header"] {
                #expect(step[key] != nil, "steps.\(key)")
            }
        }
        let ingredients = try #require(steps.first?["ingredients"]?.arrayValue)
        #expect(ingredients.map { $0["is_header"] ?? .null } == [true, false, false, false, true, false])
        #expect(ingredients[0]["note"] == "Custard")
        #expect(ingredients[1]["food"]?["name"] == "double cream")
        #expect(ingredients[1]["unit"]?["name"] == "ml")
        #expect(ingredients[1]["amount"] == .double(500))
        #expect(steps.dropFirst().allSatisfy { $0["ingredients"] == [] })
        let back = try Self.importBack(dir.path("out.zip"), .tandoor, in: dir)
        #expect(back.ingredients.map(\.original) == Self.richRecipe().ingredients.map(\.original))
        #expect(back.ingredients.map(\.group) == ["Custard", "Custard", "Custard", "Topping"])
        #expect(back.instructions.map(\.timerSeconds) == [300, nil, 2400, nil])
        #expect(back.imageRef != nil)
    }

    @Test("Nextcloud: <name>/recipe.json shaped as the app's filters leave it, and full.jpg, read back")
    func nextcloudStructure() throws {
        let dir = try TemporaryDirectory()
        try Self.export(.nextcloud, output: "Recipes", in: dir)
        let folder = dir.path("Recipes/Crème Brûlée, Two Ways")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/full.jpg"))) == ExporterRoundTripTests.jpeg)
        let r = try ExportFixtures.object(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/recipe.json"))))
        #expect(r["@context"] == "http://schema.org")
        #expect(r["@type"] == "Recipe")
        #expect(r["recipeYield"] == 6)
        #expect(r["recipeCategory"] == "Dessert")
        #expect(r["keywords"] == "french")
        #expect(r["prepTime"] == "PT0H20M0S")
        #expect(r["cookTime"] == "PT0H40M0S")
        #expect(r["totalTime"] == "PT1H0M0S")
        #expect(r["tool"] == ["Blowtorch", "Ramekins"])
        #expect(r["tools"] == ["Blowtorch", "Ramekins"])
        #expect(r["recipeInstructions"]?.arrayValue?.allSatisfy { $0.stringValue != nil } == true)
        #expect(r["recipeIngredient"]?.arrayValue?.first == "Custard:")
        #expect(r["nutrition"]?["@type"] == "NutritionInformation")
        #expect(r["dateCreated"]?.stringValue != nil)
        let back = try Self.importBack(dir.path("Recipes"), .nextcloud, in: dir)
        #expect(back.ingredients.map(\.group) == ["Custard", "Custard", "Custard", "Topping"])
        #expect(back.nutrition?.calories == "450 kcal")
        #expect(back.servings == 6)
        #expect(back.imageRef != nil)
    }

    @Test("Mela: a .melarecipes zip of .melarecipe JSON with the documented keys and types, read back")
    func melaStructure() throws {
        let dir = try TemporaryDirectory()
        try Self.export(.mela, output: "out.melarecipes", in: dir)
        let entries = try ExportFixtures.zipEntries(dir.path("out.melarecipes"))
        #expect(entries.map(\.0) == ["Crème Brûlée, Two Ways.melarecipe"])
        let r = try ExportFixtures.object(try #require(entries.first?.1))
        for key in [
            "id", "title", "text", "yield", "prepTime", "cookTime", "totalTime", "ingredients", "instructions", "notes",
            "nutrition", "link",
        ] {
            #expect(r[key]?.stringValue != nil, "\(key) is a string")
        }
        #expect(r["id"]?.stringValue?.isEmpty == false)
        #expect(r["images"] == [.string(Data(ExporterRoundTripTests.jpeg).base64EncodedString())])
        #expect(r["categories"] == ["Dessert", "french"])
        #expect(r["categories"]?.arrayValue?.allSatisfy { $0.stringValue?.contains(",") == false } == true)
        #expect(r["ingredients"]?.stringValue?.hasPrefix("# Custard\n500 ml double cream") == true)
        #expect(r["instructions"]?.stringValue?.hasPrefix("# Custard\nHeat the cream") == true)
        #expect(r["favorite"] == true)
        #expect(r["date"] == .double(fixtureDate.timeIntervalSinceReferenceDate))
        let back = try Self.importBack(dir.path("out.melarecipes"), .mela, in: dir)
        #expect(back.id == "larder-rich-0001")
        #expect(back.instructions.map(\.name) == ["Custard", "Custard", "Bake", "Bake"])
        #expect(back.notes.first?.text.contains("Chill overnight.") == true)
        #expect(back.imageRef != nil)
    }
}
