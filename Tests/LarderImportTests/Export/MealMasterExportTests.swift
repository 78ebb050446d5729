import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// `--to mealmaster`: the MMMMM layout, and samples → export → import giving the recipes back.
@Suite struct MealMasterExportTests {
    @Test(
        "samples → Larder → MealMaster → Larder keep title, categories, servings, ingredients, headings and steps",
        arguments: ["mealmaster-classics.mmf", "mealmaster-legacy.mm"])
    func roundTrip(sample: String) throws {
        try Self.expectRoundTrip(sample, through: .mealmaster, file: "out.mmf")
    }

    /// `sample` imported, exported to `format` (MealMaster or RezKonv), detected as MealMaster and
    /// imported back: what the framing holds comes back.
    static func expectRoundTrip(_ sample: String, through format: ExportFormat, file: String) throws {
        let dir = try TemporaryDirectory()
        let first = try ExportFixtures.importRecipes(ImportFixtures.sample(sample), format: nil, into: dir)
        #expect(!first.recipes.isEmpty)
        try ExportFixtures.export(first.records, to: format, output: dir.path(file))
        #expect(try ImportFormat.detect(path: dir.path(file)) == .mealmaster)
        let back = try ExportFixtures.importRecipes(dir.path(file), format: nil, into: dir, name: "back")
        #expect(back.recipes.count == first.recipes.count)
        for (a, b) in zip(first.recipes, back.recipes) {
            #expect(a.title == b.title)
            #expect(a.categories == b.categories)
            #expect(a.servings == b.servings)
            #expect(a.yield?.text == b.yield?.text)
            #expect(a.ingredients.map(\.original) == b.ingredients.map(\.original))
            #expect(a.ingredients.map(\.group) == b.ingredients.map(\.group))
            #expect(a.instructions.map(\.text) == b.instructions.map(\.text))
            #expect(a.instructions.map(\.name) == b.instructions.map(\.name))
        }
    }

    @Test("a recipe is written in the MMMMM framing with CRLF, unit codes, fractions and 79-column lines")
    func writesLayout() throws {
        var recipe = Recipe(
            id: "r-1", title: "Flapjacks",
            ingredients: ["1.5 cups rolled oats", "2 tablespoons golden syrup", "Salt", "1 large egg"].map(
                IngredientLines.make),
            instructions: [
                InstructionStep(text: String(repeating: "Stir the oats into the melted butter and syrup. ", count: 4))
            ],
            createdAt: fixtureDate, servings: 8)
        recipe.categories = ["Baking", "Snacks"]
        let lines = MealMasterExporter.lines(recipe)
        #expect(lines[0].hasPrefix("MMMMM----- Recipe via Meal-Master"))
        #expect(lines.contains("      Title: Flapjacks"))
        #expect(lines.contains(" Categories: Baking, Snacks"))
        #expect(lines.contains("   Servings: 8"))
        #expect(lines.contains("  1 1/2 c  rolled oats"))
        #expect(lines.contains("      2 tb golden syrup"))
        #expect(lines.contains("           Salt"))
        #expect(lines.contains("      1 lg egg"))
        #expect(lines.allSatisfy { $0.count <= 79 })
        #expect(lines.suffix(2) == ["MMMMM", ""])
        let dir = try TemporaryDirectory()
        try ExportFixtures.writeRecords([recipe], to: dir.path("one.json"))
        try ExportFixtures.export(dir.path("one.json"), to: .mealmaster, output: dir.path("one.mmf"))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("one.mmf"))))
        #expect(String(decoding: bytes, as: UTF8.self).contains("Flapjacks\r\n"))
    }

    @Test("long ingredient text continues on '-' lines and reads back as one line")
    func wrapsIngredientText() throws {
        let line = "2 cups " + String(repeating: "very finely chopped fresh herbs ", count: 4) + "to finish"
        let lines = MealMasterExporter.ingredientLines(line)
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("           -"))
        #expect(lines.allSatisfy { $0.count <= 79 })
        #expect(MealMasterExporter.columns("1 fl oz rum") == ("1", "fl", "rum"))
        #expect(MealMasterExporter.columns("2 cloves garlic") == ("2", "", "cloves garlic"))
        #expect(MealMasterExporter.columns("1½ tsp salt") == ("1 1/2", "ts", "salt"))
    }
}
