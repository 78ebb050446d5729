import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct FormatImportTests {
    @Test("reads a schema.org @graph with sections, references, broken durations and entities")
    func importsSchemaOrgSample() throws {
        let sink = ImportCollector()
        try SchemaOrgImporter().importItems(at: ImportFixtures.sample("overnight-oats.jsonld"), context: sink.context)
        let oats = try #require(sink.recipes.first?.0)
        #expect(oats.title == "Overnight Oats & Berries")
        #expect(oats.author == "Sam Sample")
        #expect(oats.ingredients.contains("1½ tsp maple syrup"))
        #expect(oats.steps.filter(\.isSection).map(\.text) == ["The night before", "In the morning"])
        #expect(oats.steps.last?.text == "Loosen with a splash of milk and top with the berries…")
        #expect(oats.steps[2].timerSeconds == 8 * 3600)
        #expect(oats.cookMinutes == nil)
        #expect(oats.totalMinutes == 490)
        #expect(oats.yieldText == "2 jars")
        #expect(
            oats.images == [
                .url("https://larder.example/img/oats-16x9.jpg"), .url("https://larder.example/img/oats-1x1.jpg"),
            ])
        #expect(oats.diets == ["Vegetarian Diet"])
        #expect(oats.sourceURL == "https://larder.example/recipes/overnight-oats/")
    }

    @Test("finds ld+json blocks in a saved HTML page, past comments, CDATA and a windows-1252 charset")
    func importsHTMLPage() throws {
        let dir = try TemporaryDirectory()
        var page = Array(
            "<html><head><meta charset=\"windows-1252\"><!-- <script type=\"application/ld+json\">{\"@type\":\"Recipe\",\"name\":\"Hidden\"}</script> -->\n"
                .utf8)
        page += Array(
            "<script type='application/ld+json'>//<![CDATA[\n{\"@context\":\"https://schema.org\",\"@type\":\"Recipe\",\"name\":\"Cr"
                .utf8)
        page += [0xE8]  // è in windows-1252
        page += Array(
            "me Br\\u00fbl\\u00e9e\",\"recipeIngredient\":[\"2 eggs\",],}\n//]]></SCRIPT></head><body>x</body></html>"
                .utf8)
        try Data(page).write(to: URL(fileURLWithPath: dir.path("page.html")))
        let sink = ImportCollector()
        try SchemaOrgImporter().importItems(at: dir.path("page.html"), context: sink.context)
        #expect(sink.titles == ["Crème Brûlée"], "\(sink.warnings)")
        #expect(sink.recipes.first?.0.ingredients == ["2 eggs"])
        #expect(sink.rejects.isEmpty)
    }

    @Test("falls back to windows-1252 for bytes that are not UTF-8, with a warning")
    func warnsOnFallback() throws {
        let dir = try TemporaryDirectory()
        var bytes = Array("{\"@type\":\"Recipe\",\"name\":\"Jalape".utf8)
        bytes += [0xF1]  // ñ in windows-1252
        bytes += Array("o Poppers\"}".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: dir.path("r.json")))
        let sink = ImportCollector()
        try SchemaOrgImporter().importItems(at: dir.path("r.json"), context: sink.context)
        #expect(sink.titles == ["Jalapeño Poppers"])
        #expect(sink.warnings.contains { $0.contains("windows-1252") })
    }

    @Test("imports a Beanconqueror backup into brew logs and brew recipes, an unrated brew as a log without a rating")
    func importsBeanconqueror() throws {
        let sink = ImportCollector()
        try BeanconquerorImporter().importItems(at: ImportFixtures.sample("Beanconqueror.zip"), context: sink.context)
        #expect(sink.brewLogs.count == 5)
        #expect(sink.rejects.isEmpty)
        #expect(sink.brewLogs.filter { $0.rating == nil }.count == 1)
        let first = try #require(sink.brewLogs.first)
        #expect(first.recipeNameAtBrew == "V60 02 – Kochere Washed (Sample Roasters)")
        #expect(first.doseGrams == 15)
        #expect(first.targetYieldGrams == 250)
        #expect(first.grindLabel == .mediumFine)
        #expect(first.method == .v60)
        #expect(sink.brewLogs.allSatisfy { $0.validate().isEmpty })
        #expect(sink.brewRecipes.map(\.name).sorted() == ["AeroPress", "V60 02"])
        #expect(sink.brewRecipes.allSatisfy { $0.validate().isEmpty })
        let v60 = try #require(sink.brewRecipes.first { $0.method == .v60 })
        #expect(sink.brewLogs.filter { $0.recipeID == v60.id }.count == 3)
    }

    @Test("imports Cooklang: ingredients in order, markup as words, timers, metadata")
    func importsCooklang() throws {
        let sink = ImportCollector()
        try CooklangImporter().importItems(at: ImportFixtures.sample("shakshuka.cook"), context: sink.context)
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.title == "Pan Shakshuka")
        #expect(recipe.servings == 2)
        #expect(recipe.keywords == ["eggs", "brunch"])
        #expect(recipe.ingredients.prefix(3) == ["2 tbsp olive oil", "1 onion (sliced)", "1 red pepper (sliced)"])
        #expect(recipe.ingredients.contains("salt"))
        #expect(recipe.steps[0].text == "Warm olive oil in a large frying pan over medium heat.")
        #expect(recipe.steps[1].timerSeconds == 480)
        #expect(recipe.steps[1].text == "Add onion and red pepper and cook until soft, 8 minutes.")
    }

    @Test("parses Cooklang multi-word names, bare quantities and comments")
    func parsesCooklangEdgeCases() {
        let parsed = CooklangParser.parse(
            ">> source: https://x.example\nAdd @sea salt{1%pinch} and @instant coffee{3tsp} -- a comment\nthen @oil.\n\n[- block -]Stir ~{1,5%hours}."
        )
        #expect(parsed.metadata("source") == "https://x.example")
        #expect(parsed.steps.count == 2)
        #expect(parsed.steps[0].items.contains(.ingredient(name: "sea salt", quantity: "1", units: "pinch", note: nil)))
        #expect(
            parsed.steps[0].items.contains(.ingredient(name: "instant coffee", quantity: "3tsp", units: nil, note: nil))
        )
        #expect(parsed.steps[0].items.contains(.ingredient(name: "oil", quantity: nil, units: nil, note: nil)))
        #expect(
            parsed.steps[1].items == [.text("Stir "), .timer(name: nil, quantity: "1,5", units: "hours"), .text(".")])
    }

    @Test("imports a Mela file with group headings and a photo")
    func importsMela() throws {
        let dir = try TemporaryDirectory()
        let photo = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).base64EncodedString()
        let json = """
            {"id":"mela-0001-aaaa-bbbb","title":"Green Curry","ingredients":"# Paste\\n2 chillies\\n1 lemongrass\\n# Curry\\n400 ml coconut milk",
             "instructions":"Blend the paste.\\nSimmer with the coconut milk.","yield":"4 servings","prepTime":"20 min","cookTime":"25 min",
             "categories":["Thai"],"link":"https://larder.example/curry","favorite":true,"images":["\(photo)"],"date":730000000}
            """
        let path = try dir.write("curry.melarecipe", json)
        let sink = ImportCollector()
        try MelaImporter().importItems(at: path, context: sink.context)
        let curry = try #require(sink.recipes.first?.0)
        #expect(curry.ingredients == ["2 chillies", "1 lemongrass", "400 ml coconut milk"])
        #expect(curry.ingredientHeadings == [0: "Paste", 2: "Curry"])
        #expect(curry.steps.count == 2)
        #expect(curry.isFavorite)
        #expect(curry.servings == 4)
        #expect(curry.images.first == .data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3], fileExtension: "jpg"))
        #expect(curry.createdAt == Date(timeIntervalSinceReferenceDate: 730_000_000))
    }

    @Test("imports a Nextcloud Cookbook folder with each recipe's photo")
    func importsNextcloudFolder() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("cookbook/Garlic Bread")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(
            #"{"@context":"http://schema.org","@type":"Recipe","id":"1234","name":"Garlic Bread","recipeIngredient":["1 baguette","50 g butter"],"recipeInstructions":["Mix.","Bake 10 min."],"recipeYield":4}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: folder + "/recipe.json"))
        try Data([0xFF, 0xD8, 0xFF, 0xDB, 9]).write(to: URL(fileURLWithPath: folder + "/full.jpg"))
        let sink = ImportCollector()
        try NextcloudImporter().importItems(at: dir.path("cookbook"), context: sink.context)
        let bread = try #require(sink.recipes.first?.0)
        #expect(bread.title == "Garlic Bread")
        #expect(bread.steps.map(\.text) == ["Mix.", "Bake 10 min."])
        #expect(bread.servings == 4)
        #expect(bread.images.first == .data([0xFF, 0xD8, 0xFF, 0xDB, 9], fileExtension: "jpg"))
    }

    @Test("imports a Tandoor export: a zip of per-recipe zips with recipe.json and image")
    func importsTandoor() throws {
        let dir = try TemporaryDirectory()
        let recipe = """
            {"name":"Dal","description":"Comfort food","keywords":[{"name":"indian"}],"working_time":10,"waiting_time":30,
             "servings":4,"servings_text":"bowls","source_url":"https://larder.example/dal",
             "steps":[{"name":"","instruction":"Rinse the lentils.\\nSimmer until soft.","time":30,"order":0,
               "ingredients":[{"food":{"name":"red lentils"},"unit":{"name":"g"},"amount":200,"note":"rinsed","is_header":false,"no_amount":false},
                              {"food":{"name":"salt"},"unit":null,"amount":0,"note":"","is_header":false,"no_amount":true}]}]}
            """
        try ImportFixtures.zip(
            [("recipe.json", Array(recipe.utf8)), ("image.png", [0x89, 0x50, 0x4E, 0x47, 0])], at: dir.path("1.zip"))
        let inner = try Array(Data(contentsOf: URL(fileURLWithPath: dir.path("1.zip"))))
        try ImportFixtures.zip([("1.zip", inner)], at: dir.path("export.zip"))
        #expect(try ImportFormat.detect(path: dir.path("export.zip")) == .tandoor)
        let sink = ImportCollector()
        try TandoorImporter().importItems(at: dir.path("export.zip"), context: sink.context)
        let dal = try #require(sink.recipes.first?.0)
        #expect(dal.ingredients == ["200 g red lentils, rinsed", "salt"])
        #expect(dal.steps.map(\.text) == ["Rinse the lentils.", "Simmer until soft."])
        #expect(dal.steps.first?.timerSeconds == 1800)
        #expect(dal.prepMinutes == 10)
        #expect(dal.cookMinutes == 30)
        #expect(dal.yieldText == "4 bowls")
        #expect(dal.keywords == ["indian"])
        #expect(dal.images.first == .data([0x89, 0x50, 0x4E, 0x47, 0], fileExtension: "png"))
    }

    @Test("imports a Mealie export's per-recipe JSON and images, in either naming style")
    func importsMealie() throws {
        let dir = try TemporaryDirectory()
        let camel = """
            {"id":"6f1c0000-0000-4000-8000-000000000001","name":"Focaccia","slug":"focaccia","recipeYield":"1 loaf","prepTime":"20 minutes",
             "performTime":"25 minutes","recipeCategory":[{"name":"Bread"}],"tags":[{"name":"baking"}],"orgURL":"https://larder.example/focaccia",
             "recipeIngredient":[{"title":"Dough","note":"","quantity":500,"unit":{"name":"g"},"food":{"name":"flour"},"originalText":"500 g flour"},
                                 {"note":"olive oil, to drizzle","quantity":0}],
             "recipeInstructions":[{"title":"","text":"Mix and rise 1 hour."},{"text":"Bake."}]}
            """
        let snake =
            #"{"name":"Old Soup","slug":"old-soup","recipe_yield":"2","recipe_ingredient":["1 leek"],"recipe_instructions":[{"text":"Cook."}],"org_url":"https://larder.example/soup"}"#
        try ImportFixtures.zip(
            [
                ("recipes/focaccia/focaccia.json", Array(camel.utf8)),
                ("recipes/focaccia/images/original.webp", Array("RIFF\0\0\0\0WEBPVP8 ".utf8)),
                ("recipes/old-soup/old-soup.json", Array(snake.utf8)),
            ], at: dir.path("mealie.zip"))
        #expect(try ImportFormat.detect(path: dir.path("mealie.zip")) == .mealie)
        let sink = ImportCollector()
        try MealieImporter().importItems(at: dir.path("mealie.zip"), context: sink.context)
        #expect(sink.titles == ["Focaccia", "Old Soup"])
        let focaccia = sink.recipes[0].0
        #expect(focaccia.ingredients == ["500 g flour", "olive oil, to drizzle"])
        #expect(focaccia.ingredientHeadings == [0: "Dough"])
        #expect(focaccia.yieldText == "1 loaf")
        #expect(focaccia.cookMinutes == 25)
        #expect(focaccia.categories == ["Bread"])
        #expect(focaccia.images.first == .data(Array("RIFF\0\0\0\0WEBPVP8 ".utf8), fileExtension: "webp"))
        #expect(sink.recipes[1].0.sourceURL == "https://larder.example/soup")
    }

    @Test("detects formats by extension, magic bytes and content")
    func detectsFormats() throws {
        let dir = try TemporaryDirectory()
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("sample.paprikarecipes")) == .paprika)
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("Beanconqueror.zip")) == .beanconqueror)
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("cafe-scones.xml")) == .recipeml)
        #expect(
            try ImportFormat.detect(
                path: try dir.write("a.json", #"{"@context":"https://schema.org","@type":"Recipe"}"#)) == .schemaorg)
        #expect(
            try ImportFormat.detect(path: try dir.write("b.json", #"{"uid":"1","name":"x","directions":""}"#))
                == .paprika)
        let unknown = try #require(throws: LarderError.self) {
            try ImportFormat.detect(path: try dir.write("c.txt", "hello"))
        }
        #expect(unknown.code == .usage)
    }
}
