import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct PlainImportTests {
    static let yamlList = """
        # written by hand
        - title: Pancakes
          serves: 4
          prep_time: 10 min
          cook: 1 h 30
          source: https://larder.example/pancakes
          tags: breakfast, sweet
          created: March 1, 2024
          wine: Riesling
          ingredients:
            - 200 g flour
            - 2 Ei(er)
            - For the topping:
            - 1 EL Zucker
          steps: |
            1. Whisk everything.
            2. Fry in a hot pan,
               two minutes a side.
        - name: Dal
          yield: makes 6 bowls
          total_time: PT45M
          ingredients:
            red lentils: 200 g
            water: 1 l
          instructions:
            - Rinse the lentils.
            - {text: Simmer until soft., timer: 20 min}
        """

    @Test("reads a hand-written YAML list: lines, headings, numbered steps, times, yields, dates, tags")
    func readsYAMLList() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("recipes.yaml", Self.yamlList)
        #expect(try ImportFormat.detect(path: path) == .plain)
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty, "\(sink.rejects.map(\.0.description))")
        #expect(sink.titles == ["Pancakes", "Dal"])
        let pancakes = sink.recipes[0].0
        #expect(pancakes.ingredients == ["200 g flour", "2 Ei(er)", "1 EL Zucker"])
        #expect(pancakes.ingredientHeadings == [2: "For the topping"])
        #expect(pancakes.steps.map(\.text) == ["Whisk everything.", "Fry in a hot pan, two minutes a side."])
        #expect(pancakes.servings == 4)
        #expect(pancakes.yieldText == "4 servings")
        #expect(pancakes.prepMinutes == 10)
        #expect(pancakes.cookMinutes == 90)
        #expect(pancakes.sourceURL == "https://larder.example/pancakes")
        #expect(pancakes.keywords == ["breakfast", "sweet"])
        #expect(pancakes.createdAt == RecipeDate.parse("2024-03-01T00:00:00Z"))
        #expect(sink.warnings.contains { $0.contains("wine") && $0.contains("not imported") }, "\(sink.warnings)")
        let dal = sink.recipes[1].0
        #expect(dal.ingredients == ["200 g red lentils", "1 l water"])
        #expect(
            dal.steps == [.init(text: "Rinse the lentils."), .init(text: "Simmer until soft.", timerSeconds: 1200)])
        #expect(dal.yieldText == "6 items")
        #expect(dal.totalMinutes == 45)
        #expect(sink.recipes.map(\.1.index) == [0, 1])
    }

    @Test("reads a JSON array: one text of lines, blank-line paragraphs, image objects, dotted dates")
    func readsJSONArray() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "recipes.json",
            #"""
            [{"name": "Toast", "ingredients": "2 slices bread\n\nbutter", "directions": "Toast the bread\nuntil golden.\n\nButter it.",
              "totalTime": "1:30", "image": {"url": "https://larder.example/toast.jpg"}, "date": "01.03.2024",
              "id": "6f1c2b4e-0000-4000-8000-000000000001", "rating": "4/5", "difficulty": "Easy",},
             {"title": "Tea", "ingredients": [{"amount": 1, "unit": "tsp", "item": "black tea"},
                                               {"quantity": 250, "unit": {"name": "ml"}, "food": {"name": "water"}, "note": "boiling"}],
              "steps": ["Steep 4 minutes."], "servings": "2", "cuisine": ["English", "Indian"]}]
            """#)
        #expect(try ImportFormat.detect(path: path) == .plain)
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty, "\(sink.rejects.map(\.0.description))")
        let toast = try #require(sink.recipes.first?.0)
        #expect(toast.ingredients == ["2 slices bread", "butter"])
        #expect(toast.steps.map(\.text) == ["Toast the bread until golden.", "Butter it."])
        #expect(toast.totalMinutes == 90)
        #expect(toast.images == [.url("https://larder.example/toast.jpg")])
        #expect(toast.createdAt == RecipeDate.parse("2024-03-01"))
        #expect(toast.larderID == "6f1c2b4e-0000-4000-8000-000000000001")
        #expect(toast.rating == 4)
        #expect(toast.difficulty == .easy)
        let tea = try #require(sink.recipes.last?.0)
        #expect(tea.ingredients == ["1 tsp black tea", "250 ml water, boiling"])
        #expect(tea.servings == 2)
        #expect(tea.cuisine == "English")
        // Recipe v4 holds both cuisines (before v4 the second became a tag).
        #expect(tea.cuisines == ["English", "Indian"])
        #expect(tea.keywords.isEmpty)
    }

    @Test("reads <recipe> elements of a hand-written XML file, whatever wraps them")
    func readsXML() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "recipes.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <cookbook>
              <recipes>
                <recipe id="soup-1">
                  <title>Soup</title>
                  <servings>4</servings>
                  <prepTime>15</prepTime>
                  <ingredients><ingredient>1 onion</ingredient><ingredient>1 l stock</ingredient></ingredients>
                  <steps><step>Chop.</step><step><text>Simmer.</text><timer>15 min</timer></step></steps>
                  <tags><tag>soup</tag></tags>
                </recipe>
                <recipe>
                  <name>Salad</name>
                  <ingredients><ingredient>1 lettuce</ingredient></ingredients>
                  <directions>Wash.

            Toss.</directions>
                </recipe>
              </recipes>
            </cookbook>
            """)
        #expect(try ImportFormat.detect(path: path) == .plain)
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty, "\(sink.rejects.map(\.0.description))")
        #expect(sink.titles == ["Soup", "Salad"])
        let soup = sink.recipes[0].0
        #expect(soup.ingredients == ["1 onion", "1 l stock"])
        #expect(soup.steps == [.init(text: "Chop."), .init(text: "Simmer.", timerSeconds: 900)])
        #expect(soup.servings == 4)
        #expect(soup.prepMinutes == 15)
        #expect(soup.keywords == ["soup"])
        #expect(soup.nativeID == "soup-1")
        #expect(soup.larderID == nil)
        #expect(sink.recipes[1].0.ingredients == ["1 lettuce"])
        #expect(sink.recipes[1].0.steps.map(\.text) == ["Wash.", "Toss."])
    }

    @Test("isolates each record: a bad one is rejected with its index, field path and line, the rest import")
    func isolatesRecords() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "recipes.yaml",
            """
            - title: Good
              ingredients: [1 egg]
            - title: Bad
              ingredients: 5
            - ingredients: [1 egg]
              steps: [Boil.]
            - title: Also good
              steps:
                - text: Boil.
                - true
            - title: Fine
              steps: Boil.
            """)
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Good", "Fine"])
        #expect(sink.rejects.count == 3)
        let first = try #require(sink.rejects.first)
        #expect(first.1.index == 1)
        #expect(first.0.location?.fieldPath?.description == "ingredients")
        #expect(first.0.location?.line == 4)
        #expect(sink.rejects[1].1.index == 2)
        #expect(sink.rejects[1].0.location?.fieldPath?.description == "title")
        #expect(sink.rejects[2].0.location?.fieldPath?.description == "steps[1]")
    }

    @Test("keeps reading NDJSON after a malformed line")
    func readsNDJSON() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "recipes.ndjson",
            "{\"title\":\"A\",\"ingredients\":[\"1 egg\"]}\n{\"title\":\n{\"title\":\"B\",\"steps\":\"Go.\"}\n")
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["A", "B"])
        #expect(sink.rejects.count == 1)
    }

    @Test("reads a document that wraps its recipes, and names the wrapper's other fields")
    func readsWrapper() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "export.json",
            #"{"version": 2, "recipes": [{"title": "A", "ingredients": ["1 egg"]}, {"title": "B", "steps": "Go."}]}"#)
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["A", "B"])
        #expect(sink.warnings.contains { $0.contains("version") })
    }

    @Test("splits a step block at blank lines, numbered lines or lines")
    func splitsSteps() throws {
        func steps(_ text: String) throws -> [String] {
            try PlainRecipe(value: ["title": "T", "steps": .string(text)]).recipe.steps.map(\.text)
        }
        #expect(try steps("Mix.\nBake.") == ["Mix.", "Bake."])
        #expect(try steps("Mix the flour\nand the eggs.\n\nBake.") == ["Mix the flour and the eggs.", "Bake."])
        #expect(try steps("1. Mix the flour\nand the eggs.\n2) Bake.") == ["Mix the flour and the eggs.", "Bake."])
        #expect(try steps("Step 1: Mix.\nStep 2: Bake.") == ["Mix.", "Bake."])
        #expect(try steps("<ol><li>Mix.</li><li>Bake.</li></ol>") == ["Mix.", "Bake."])
    }

    @Test("reads durations as numbers, ISO 8601 and text, and reports text that is none")
    func readsDurations() throws {
        for (value, minutes) in [
            (Value.int(15), 15), ("PT1H30M", 90), ("15 min", 15), ("1 h 30", 90), ("1:30", 90), ("90 minutes", 90),
            (["hours": 1, "minutes": 15], 75),
        ] as [(Value, Int)] {
            let plain = try PlainRecipe(value: ["title": "T", "prepTime": value])
            #expect(plain.recipe.prepMinutes == minutes, "\(value)")
        }
        let unreadable = try PlainRecipe(value: ["title": "T", "prepTime": "a while"])
        #expect(unreadable.recipe.prepMinutes == nil)
        #expect(unreadable.unmapped.first?.reason == "not a duration")
        #expect(unreadable.unmapped.first?.path.description == "prepTime")
    }

    @Test("reads yields and dates in their common forms")
    func readsYieldsAndDates() throws {
        let serves = try PlainRecipe(value: ["title": "T", "serves": "serves 4-6"]).recipe
        #expect(serves.servings == 4)
        let makes = try PlainRecipe(value: ["title": "T", "makes": "makes 24"]).recipe
        #expect(makes.yieldText == "24 items")
        for text in [
            "2024-03-01", "March 1, 2024", "1 March 2024", "01.03.2024", "2024/03/01", "1. März 2024", "1 mars 2024",
        ] {
            #expect(RecipeDate.parse(text) == RecipeDate.parse("2024-03-01T00:00:00Z"), "\(text)")
        }
        #expect(RecipeDate.parse("01/03/2024") == nil)
        let epoch = try PlainRecipe(value: ["title": "T", "created": 1_709_251_200]).recipe
        #expect(epoch.createdAt == RecipeDate.parse("2024-03-01"))
    }

    @Test("reads a Larder recipe file as plain, keeping its ids")
    func readsLarderFile() throws {
        let path = CLI.packageRoot.appendingPathComponent("samples/recipes.yaml").path
        #expect(try ImportFormat.detect(path: path) == .plain)
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty, "\(sink.rejects.map(\.0.description))")
        let reader = try RecordIO.openReader(path: path)
        let first = try Recipe(value: try #require(try reader.next()).value)
        let imported = try #require(sink.recipes.first?.0)
        #expect(imported.larderID == first.id)
        #expect(imported.title == first.title)
        #expect(imported.ingredients == first.ingredients.map(\.original))
        #expect(imported.steps.map(\.text) == first.instructions.map(\.text))
    }

    @Test("format detection: each format claims a file only with its required keys")
    func detectsByRequiredKeys() throws {
        let dir = try TemporaryDirectory()
        // Still detected as before.
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("tomato-salad.yaml")) == .orf)
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("cafe-scones.xml")) == .recipeml)
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("plain-recipes.yaml")) == .plain)
        let orfList = try dir.write("orf.yml", "- recipe_name: Soup\n  ingredients:\n    - water: {}\n")
        #expect(try ImportFormat.detect(path: orfList) == .orf)
        let mealie = try dir.write(
            "mealie.json", #"{"name":"Focaccia","slug":"focaccia","recipeIngredient":[{"note":"flour"}]}"#)
        #expect(try ImportFormat.detect(path: mealie) == .mealie)
        let tandoor = try dir.write("tandoor.json", #"{"name":"Dal","working_time":10,"steps":[]}"#)
        #expect(try ImportFormat.detect(path: tandoor) == .tandoor)
        let mela = try dir.write("m.json", #"{"title":"X","instructions":"Go.","link":"","yield":"2"}"#)
        #expect(try ImportFormat.detect(path: mela) == .mela)
        let schema = try dir.write("s.json", #"{"@type":"Recipe","name":"X","recipeIngredient":[]}"#)
        #expect(try ImportFormat.detect(path: schema) == .schemaorg)
        let larderJSON = CLI.packageRoot.appendingPathComponent("samples/recipes.json").path
        #expect(try ImportFormat.detect(path: larderJSON) == .plain)
        let larderXML = CLI.packageRoot.appendingPathComponent("samples/recipes.xml").path
        #expect(try ImportFormat.detect(path: larderXML) == .plain)
        // Without the keys a format requires, no format claims the file.
        let noTitle = try dir.write("x.yaml", "- ingredients: [1 egg]\n")
        #expect(throws: LarderError.self) { try ImportFormat.detect(path: noTitle) }
        let paprikaWithoutName = try dir.write("p.json", #"{"uid":"1","directions":"Go."}"#)
        #expect(throws: LarderError.self) { try ImportFormat.detect(path: paprikaWithoutName) }
        let unknownXML = try dir.write("u.xml", "<inventory><item>x</item></inventory>")
        #expect(throws: LarderError.self) { try ImportFormat.detect(path: unknownXML) }
        // A gzip-compressed plain file named as data.
        let gz = dir.path("recipes.json.gz")
        try Data(try ImportFixtures.gzip(#"[{"title":"A","ingredients":["1 egg"]}]"#)).write(
            to: URL(fileURLWithPath: gz))
        #expect(try ImportFormat.detect(path: gz) == .plain)
        let sink = ImportCollector()
        try PlainRecipeImporter().importItems(at: gz, context: sink.context)
        #expect(sink.titles == ["A"])
    }

    @Test("a whole import session writes valid Larder records from a plain file")
    func importsThroughSession() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("recipes.yaml", Self.yamlList)
        let (report, records) = try ImportFixtures.session([input], in: dir)
        #expect(report.imported.count == 2)
        #expect(report.rejected.isEmpty)
        let pancakes = try Recipe(value: try #require(records.first))
        #expect(pancakes.ingredients[1].item == "Ei")
        #expect(pancakes.ingredients[2].unit == "tablespoon")
        #expect(pancakes.cookTime == 90)
        #expect(pancakes.validate().isEmpty)
    }
}
