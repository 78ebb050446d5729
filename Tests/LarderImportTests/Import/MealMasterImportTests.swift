import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// MealMaster text files: both framings, one and two columns, headings, continuations, legacy bytes.
@Suite struct MealMasterImportTests {
    private func read(_ path: String) throws -> ImportCollector {
        let collector = ImportCollector()
        try MealMasterImporter().importItems(at: path, context: collector.context)
        return collector
    }

    private func write(_ lines: [String], in dir: TemporaryDirectory, name: String = "in.mmf") throws -> String {
        let path = dir.path(name)
        try Data(lines.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the MMMMM sample gives its three recipes with header fields, headings and the continuation line")
    func readsClassicsSample() throws {
        let collector = try read(ImportFixtures.sample("mealmaster-classics.mmf"))
        #expect(collector.rejects.isEmpty)
        #expect(collector.titles == ["Cherry Meringue Flan", "Chili Con Carne", "Lemon Barley Water"])
        let flan = try #require(collector.recipes.first?.0)
        #expect(flan.categories == ["Cakes", "Desserts"])
        #expect(flan.servings == 12)
        #expect(flan.ingredients.count == 13)
        #expect(flan.ingredients[0] == "150 g Soft butter")
        #expect(flan.ingredients[2] == "3 Eggs")
        #expect(flan.ingredients[4] == "1 tsp Baking powder")
        #expect(flan.ingredients[8] == "370 g Sour cherries, drained; keep the juice")
        #expect(flan.ingredients[9] == "1 1/2 tbsp Cornflour")
        #expect(flan.ingredients.last == "1 package Cream stabiliser")
        #expect(flan.ingredientHeadings == [0: "SPONGE", 5: "MERINGUE", 8: "FILLING"])
        #expect(flan.steps.map(\.isSection) == [false, true, false, true, false])
        #expect(flan.steps[0].text == "Butter two spring-form tins and heat the oven to 200 C.")
        #expect(flan.steps[1].text == "SPONGE")
        #expect(
            flan.steps[2].text
                == "Beat butter, sugar and eggs until pale. Mix flour with baking powder and stir it in. Divide between the tins and bake for 15 minutes."
        )
        #expect(collector.recipes.map(\.1.index) == [0, 1, 2])
        // Every part of the recipe is named in the census.
        #expect(flan.fieldCensus.fate(of: "Title") == .carried("title"))
        #expect(flan.fieldCensus.fate(of: "Categories") == .carried("categories"))
        #expect(flan.fieldCensus.fate(of: "Yield") == .carried("yield"))
        #expect(flan.fieldCensus.fate(of: "ingredients") == .carried("ingredients"))
        #expect(flan.fieldCensus.fate(of: "ingredient headings") == .carried("ingredients.group"))
        #expect(flan.fieldCensus.fate(of: "directions") == .carried("instructions"))
    }

    @Test("two-column ingredient lines read left then right, a text-only right column included")
    func readsTwoColumns() throws {
        let chili = try #require(
            try read(ImportFixtures.sample("mealmaster-classics.mmf")).recipes.dropFirst().first?.0)
        #expect(
            chili.ingredients == [
                "2 lb Ground beef", "1 can Kidney beans (15 oz)", "2 medium Onions, chopped", "2 tbsp Chili powder",
                "3 Garlic cloves, minced", "1 tsp Ground cumin", "1 can Crushed tomatoes (28 oz)", "1 pinch Cayenne",
                "1 1/2 cup Beef stock", "Salt and pepper",
            ])
        #expect(chili.servings == 6)
        #expect(chili.categories == ["Main dish", "Beef", "Tex-mex"])
        #expect(chili.steps.count == 2)
    }

    @Test("quantities are written as fractions and the per-serving code x has no word")
    func normalisesQuantities() throws {
        let lemon = try #require(try read(ImportFixtures.sample("mealmaster-classics.mmf")).recipes.last?.0)
        #expect(
            lemon.ingredients == [
                "1/2 cup Pearl barley", "2 quart Water", "3 large Lemons, zest and juice", "1/2 cup Sugar",
                "1 Pinch of salt",
            ])
        #expect(lemon.yieldText == "2 quarts")
    }

    @Test("the ----- framing in windows-1252 reads with a warning, its heading heading the ingredients after it")
    func readsLegacyDashFraming() throws {
        let collector = try read(ImportFixtures.sample("mealmaster-legacy.mm"))
        #expect(collector.titles == ["Crème Brûlée", "Café Glacé"])
        #expect(collector.warnings.contains { $0.contains("windows-1252") })
        let brulee = try #require(collector.recipes.first?.0)
        #expect(brulee.ingredientHeadings == [4: "FOR THE TOPPING"])
        #expect(brulee.ingredients[4] == "4 tbsp Demerara sugar")
        #expect(brulee.steps.count == 3)
        #expect(brulee.steps[1].text.contains("150 °C"))
        #expect(collector.recipes.last?.0.ingredients.last == "Whipped cream")
    }

    @Test("RezKonv's ===== framing reads with its German header keys, headings and unit words")
    func readsRezKonv() throws {
        let collector = try read(ImportFixtures.sample("rezkonv-apfelkuchen.txt"))
        #expect(collector.rejects.isEmpty)
        let cake = try #require(collector.recipes.first?.0)
        #expect(cake.title == "Apfelkuchen vom Blech")
        #expect(cake.categories == ["Backen", "Kuchen", "Obst"])
        #expect(cake.yieldText == "1 Blech")
        #expect(cake.ingredients.first == "250 g Mehl")
        #expect(cake.ingredients[4] == "1 Prise Salz")
        #expect(cake.ingredients[5] == "1 kg Äpfel, geschält und in Spalten")
        #expect(cake.ingredientHeadings == [0: "TEIG", 5: "BELAG"])
        #expect(cake.steps.count == 2)
        #expect(collector.warnings.contains { $0.contains("windows-1252") })
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("rezkonv-apfelkuchen.txt")) == .mealmaster)
    }

    @Test("every unit code reads as its word, t and T apart")
    func readsUnitCodes() throws {
        let dir = try TemporaryDirectory()
        let codes = [
            "x", "sm", "md", "lg", "cn", "pk", "pn", "dr", "ds", "ct", "sl", "ts", "t", "tb", "T", "c", "pt",
            "qt", "ga", "oz", "lb", "fl", "ml", "cb", "cl", "dl", "l", "mg", "cg", "dg", "g", "kg",
        ]
        let lines =
            ["MMMMM----- Recipe via Meal-Master (tm) v8.05", "", "      Title: Units", ""]
            + codes.map { "      1 \($0.padding(toLength: 2, withPad: " ", startingAt: 0)) thing" } + ["", "MMMMM"]
        let recipe = try #require(try read(try write(lines, in: dir)).recipes.first?.0)
        #expect(recipe.ingredients.count == codes.count)
        #expect(recipe.ingredients[0] == "1 thing")
        #expect(recipe.ingredients[12] == "1 tsp thing")
        #expect(recipe.ingredients[14] == "1 tbsp thing")
        #expect(recipe.ingredients[21] == "1 fl oz thing")
        #expect(recipe.ingredients.last == "1 kg thing")
    }

    @Test("ingredient lines shorter than the text column read as quantity and unit alone")
    func readsShortIngredientLines() throws {
        let dir = try TemporaryDirectory()
        let path = try write(
            ["MMMMM----- Recipe via Meal-Master", "      Title: Short", "", "      1 c", "  2", "MMMMM"], in: dir)
        let recipe = try #require(try read(path).recipes.first?.0)
        #expect(recipe.ingredients == ["1 cup", "2"])
    }

    @Test("a broken recipe is rejected with its index and header line, and the others import")
    func rejectsBrokenRecipes() throws {
        let dir = try TemporaryDirectory()
        let path = try write(
            [
                "MMMMM----- Recipe via Meal-Master (tm) v8.05", "", "      Title: Good one", "", "      1 c  Rice", "",
                "  Cook.", "", "MMMMM", "",
                "MMMMM----- Recipe via Meal-Master (tm) v8.05", "", " Categories: Nothing", "", "      1 c  Rice", "",
                "MMMMM", "",
                "MMMMM----- Recipe via Meal-Master (tm) v8.05", "", "      Title: Second good one", "",
                "      2 c  Water", "", "MMMMM", "",
                "MMMMM----- Recipe via Meal-Master (tm) v8.05", "", "      Title: Cut off", "", "      2 c  Water",
            ], in: dir)
        let collector = try read(path)
        #expect(collector.titles == ["Good one", "Second good one"])
        #expect(collector.rejects.count == 2)
        let first = try #require(collector.rejects.first)
        #expect(first.1.index == 1)
        #expect(first.0.location?.line == 11)
        #expect(first.0.location?.recordIndex == 1)
        #expect(first.0.location?.fieldPath == "title")
        #expect(first.0.description.contains("in.mmf:11"))
        let last = try #require(collector.rejects.last)
        #expect(last.1.index == 3)
        #expect(last.0.location?.line == 27)
        #expect(last.0.message.contains("end line"))
    }

    @Test("a recipe larger than the record size limit is refused and the next one imports")
    func refusesOversizedRecipe() throws {
        let dir = try TemporaryDirectory()
        let long = (0..<200).map { "  Step line \($0) of a very long recipe text." }
        let path = try write(
            ["MMMMM----- Recipe via Meal-Master (tm) v8.05", "      Title: Huge", ""] + long + [
                "MMMMM",
                "MMMMM----- Recipe via Meal-Master (tm) v8.05", "      Title: Small", "", "      1 c  Tea", "MMMMM",
            ],
            in: dir)
        let sink = ImportCollector()
        sink.readerLimits.maxRecordSize = 1024
        try MealMasterImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Small"])
        #expect(sink.rejects.first?.0.code == .refusedInput)
    }

    @Test("detection claims files with the framing, whatever their extension, and no file without it")
    func detectsByFraming() throws {
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("mealmaster-classics.mmf")) == .mealmaster)
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("mealmaster-legacy.mm")) == .mealmaster)
        let dir = try TemporaryDirectory()
        let text = try write(
            ["MMMMM----- Recipe via Meal-Master (tm) v8.05", "      Title: Tea", "      1 c  Tea", "MMMMM"], in: dir,
            name: "tea.txt")
        #expect(try ImportFormat.detect(path: text) == .mealmaster)
        let plain = try write(["Tea for one", "      1 c  Tea", "MMMMM"], in: dir, name: "notes.mmf")
        #expect(throws: LarderError.self) { try ImportFormat.detect(path: plain) }
        for sample in ["cafe-scones.xml", "shakshuka.cook", "tomato-salad.yaml", "plain-recipes.yaml", "recipes.csv"] {
            #expect(try ImportFormat.detect(path: ImportFixtures.sample(sample)) != .mealmaster, "\(sample)")
        }
    }

    @Test("MealMaster-like text without framing: each recipe from its Title: line to the next, detected by content")
    func readsUnframedText() throws {
        let path = ImportFixtures.sample("mealmaster-unframed.txt")
        #expect(try ImportFormat.detect(path: path) == .mealmaster)
        let sink = ImportCollector()
        try MealMasterImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Lemon Bars", "Iced Tea"])
        let bars = try #require(sink.recipes.first)
        #expect(bars.1.index == 0)
        #expect(bars.0.categories == ["Cookies", "Bars"])
        #expect(bars.0.ingredients.first == "1 cup Butter, softened")
        #expect(bars.0.ingredients.count == 6)
        #expect(bars.0.ingredientHeadings == [3: "FILLING"])
        #expect(bars.0.steps.count == 2)
        let tea = try #require(sink.recipes.last?.0)
        #expect(tea.servings == 4)
        #expect(tea.ingredients == ["4 Tea bags", "1 quart Boiling water"])
        #expect(tea.steps.count == 1)
        // A Title: line with neither ingredients nor directions is rejected with its index and line.
        let dir = try TemporaryDirectory()
        let broken = try write(
            ["      Title: Empty", "", "      Title: Toast", "      2    Slices bread", "", "  Toast them."], in: dir,
            name: "two.txt")
        #expect(try ImportFormat.detect(path: broken) == .mealmaster)
        let brokenSink = ImportCollector()
        try MealMasterImporter().importItems(at: broken, context: brokenSink.context)
        #expect(brokenSink.titles == ["Toast"])
        #expect(brokenSink.rejects.first?.1.index == 0)
        #expect(brokenSink.rejects.first?.0.location?.line == 1)
        try ImportFixtures.expectReRunAddsNothing(path, imports: 2, in: dir)
    }
}
