import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Chowdown (Jekyll) recipe sites: the sample site zip, folders, single pages, bad pages, detection
/// and the round trip through `larder export --to markdown`.
@Suite struct ChowdownImportTests {
    @Test("the sample site zip: recipes and components, headings, times, yield, nutrition, photo, extras")
    func sampleSite() throws {
        let sink = ImportCollector()
        try ChowdownImporter().importItems(at: ImportFixtures.sample("chowdown-master.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty, "\(sink.rejects.map(\.0.description))")
        #expect(sink.titles == ["Peanut Dipping Sauce", "Smoky Bean Stew", "Summer Rolls"])
        let stew = try #require(sink.recipes.first { $0.0.title == "Smoky Bean Stew" }?.0)
        #expect(stew.keywords == ["mains", "soups"])
        #expect(stew.ingredients.count == 7)
        #expect(stew.ingredientHeadings == [6: "Topping"])
        #expect(stew.steps.map(\.text).first == "Soften the onion and garlic in the oil")
        #expect(stew.description == "A pot of beans that tastes of a campfire. Good the next day too.")
        guard case .data(let bytes, let ext) = try #require(stew.images.first) else {
            Issue.record("the photo was not read from images/")
            return
        }
        #expect(ext == "png" && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(stew.extras["chowdown"]?["imagecredit"] == "https://example.com/photos/smoky-bean-stew")
        #expect(stew.fieldCensus.fate(of: "layout") == .dropped("the Jekyll page layout (always 'recipe')"))
        #expect(stew.fieldCensus.fate(of: "imagecredit") == .extras)
        let rolls = try #require(sink.recipes.first { $0.0.title == "Summer Rolls" }?.0)
        #expect(rolls.keywords == ["sides", "vegetarian"])
        #expect(rolls.prepMinutes == 30 && rolls.cookMinutes == 5)
        #expect(rolls.yieldAsWritten == "8 rolls")
        #expect(rolls.nutrition == ["calories": "120 kcal", "fatContent": "3 g", "sodiumContent": "240 mg"])
        #expect(rolls.extras["chowdown"]?["components"] == ["Peanut Dipping Sauce"])
        #expect(rolls.fieldCensus.fate(of: "preptime") == .carried("prepTime"))
    }

    @Test("a bad page is rejected with its entry and field path; the others import")
    func badPagesRejected() throws {
        let dir = try TemporaryDirectory()
        let good = "---\nlayout: recipe\ntitle: Good\ningredients:\n- 1 egg\ndirections:\n- Boil.\n---\n"
        let nested = "---\ntitle: Nested\ningredients:\n- 1 egg\n- {name: salt}\n---\n"
        let broken = "---\ntitle: Broken\ningredients: [1 egg\n---\n"
        let bare = "# Just Markdown\n"
        try ImportFixtures.zip(
            [
                ("_recipes/good.md", Array(good.utf8)), ("_recipes/nested.md", Array(nested.utf8)),
                ("_recipes/broken.md", Array(broken.utf8)), ("_recipes/bare.md", Array(bare.utf8)),
            ], at: dir.path("site.zip"))
        let sink = ImportCollector()
        try ChowdownImporter().importItems(at: dir.path("site.zip"), context: sink.context)
        #expect(sink.titles == ["Good"])
        let messages = sink.rejects.map { "\($0.1): \($0.0.description)" }
        #expect(sink.rejects.count == 3, "\(messages)")
        #expect(messages.contains { $0.contains("nested.md") && $0.contains("ingredients[1]") }, "\(messages)")
        #expect(
            messages.contains { $0.contains("broken.md:4:1: error:") && $0.contains("flow sequence") }, "\(messages)")
        #expect(messages.contains { $0.contains("bare.md") && $0.contains("front matter") }, "\(messages)")
    }

    @Test("a site folder reads photos only from inside its images folder")
    func folderImages() throws {
        let dir = try TemporaryDirectory()
        let files = FileManager.default
        try files.createDirectory(atPath: dir.path("site/_recipes"), withIntermediateDirectories: true)
        try files.createDirectory(atPath: dir.path("site/images"), withIntermediateDirectories: true)
        try Data(HTMLCookbookExportTests.jpeg).write(to: URL(fileURLWithPath: dir.path("site/images/ok.jpg")))
        try Data(HTMLCookbookExportTests.jpeg).write(to: URL(fileURLWithPath: dir.path("secret.jpg")))
        _ = try dir.write("site/_recipes/a.md", "---\ntitle: A\nimage: ok.jpg\ningredients:\n- 1 egg\n---\n")
        _ = try dir.write("site/_recipes/b.md", "---\ntitle: B\nimage: ../../secret.jpg\n---\n")
        let sink = ImportCollector()
        try ChowdownImporter().importItems(at: dir.path("site"), context: sink.context)
        #expect(sink.titles == ["A", "B"])
        #expect(sink.recipes[0].0.images.count == 1)
        #expect(sink.recipes[1].0.images.isEmpty)
        #expect(try ImportFormat.detect(path: dir.path("site")) == .chowdown)
        #expect(try ImportFormat.detect(path: dir.path("site/_recipes/a.md")) == .chowdown)
        let notes = try dir.write("notes.md", "# Shopping\n\n- eggs\n")
        #expect(throws: LarderError.self) { try ImportFormat.detect(path: notes) }
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("chowdown-master.zip")) == .chowdown)
    }

    @Test("Larder → markdown export → Chowdown import keeps every field the format holds")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("p"), withIntermediateDirectories: true)
        try Data(HTMLCookbookExportTests.jpeg).write(to: URL(fileURLWithPath: dir.path("p/pie.jpg")))
        var dough = IngredientLines.make("200 g flour")
        dough.group = "Dough"
        var original = Recipe(
            id: "r-1", title: "Pie: \"best\" #1", ingredients: [IngredientLines.make("yes"), dough],
            instructions: [InstructionStep(text: "Mix."), InstructionStep(text: "Bake for 40 minutes.")],
            createdAt: fixtureDate, imageRef: "p/pie.jpg", prepTime: 90, cookTime: 40, tags: ["on", "sweet"],
            sourceURL: "https://example.com/pie", description: "A pie.\n\nReally.",
            notes: [RecipeNote(title: "Storage", text: "Keeps two days.")],
            nutrition: Nutrition(calories: "240 kcal", fatContent: "12 mg"),
            yield: Recipe.Yield(quantity: 8, unit: "slices", text: "8 slices"), totalTime: 150,
            author: RecipeAuthor(name: "Ann"), categories: ["Dessert"])
        original.servings = 8
        try ExportFixtures.writeRecords([original], to: dir.path("r.json"))
        try ExportFixtures.export(dir.path("r.json"), to: .markdown, output: dir.path("site.zip"))
        let (_, back) = try ExportFixtures.importRecipes(dir.path("site.zip"), format: .chowdown, into: dir)
        let recipe = try #require(back.first)
        #expect(recipe.title == original.title)
        #expect(recipe.ingredients.map(\.original) == original.ingredients.map(\.original))
        #expect(recipe.ingredients.map(\.group) == [nil, "Dough"])
        #expect(recipe.instructions.map(\.text) == original.instructions.map(\.text))
        #expect(recipe.prepTime == 90 && recipe.cookTime == 40 && recipe.totalTime == 150)
        // Larder's tags hold the categories too, as every import makes them.
        #expect(recipe.tags == ["Dessert", "on", "sweet"])
        #expect(recipe.categories == ["Dessert"])
        #expect(recipe.sourceURL == original.sourceURL)
        #expect(recipe.author?.name == "Ann")
        #expect(recipe.description == original.description)
        #expect(recipe.notes == original.notes)
        #expect(recipe.nutrition == original.nutrition)
        #expect(recipe.yield?.text == "8 slices")
        #expect(recipe.servings == 8)
        let image = try #require(recipe.imageRef)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: dir.path(image)))) == HTMLCookbookExportTests.jpeg)
        // Again: the same ids, no duplicates.
        let (_, again) = try ExportFixtures.importRecipes(dir.path("site.zip"), format: .chowdown, into: dir)
        #expect(again.map(\.id) == back.map(\.id))
    }
}
