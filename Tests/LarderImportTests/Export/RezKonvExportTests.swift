import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// `--to rezkonv`: RezKonv's `=====` layout, and samples → export → import giving the recipes back.
@Suite struct RezKonvExportTests {
    @Test(
        "samples → Larder → RezKonv → Larder keep title, categories, yield, ingredients, groups and steps",
        arguments: ["rezkonv-apfelkuchen.txt", "mealmaster-classics.mmf"])
    func roundTrip(sample: String) throws {
        try MealMasterExportTests.expectRoundTrip(sample, through: .rezkonv, file: "out.rk")
    }

    @Test("a recipe is written in the ===== framing: German keys, quantities in 7 columns, unit words as written")
    func writesLayout() throws {
        var recipe = Recipe(
            id: "r-1", title: "Apfelkuchen",
            ingredients: ["250 g Mehl", "1.5 EL Zucker", "1 Prise Salz", "Äpfel nach Belieben"].map(
                IngredientLines.make),
            instructions: [
                InstructionStep(text: String(repeating: "Den Teig rasch verkneten und kühl stellen. ", count: 4))
            ],
            createdAt: fixtureDate, servings: 12)
        recipe.categories = ["Backen", "Kuchen"]
        let lines = RezKonvExporter.lines(recipe)
        #expect(lines[0].hasPrefix("=====  REZKONV-Rezept"))
        #expect(lines.contains("      Titel: Apfelkuchen"))
        #expect(lines.contains(" Kategorien: Backen, Kuchen"))
        #expect(lines.contains("      Menge: 12 Portionen"))
        #expect(lines.contains("    250 g Mehl"))
        #expect(lines.contains("  1 1/2 EL Zucker"))
        #expect(lines.contains("      1 Prise Salz"))
        #expect(lines.contains("        Äpfel nach Belieben"))
        #expect(lines.filter { $0.hasPrefix("  Den Teig") }.count == 1)
        #expect(lines.allSatisfy { $0.count <= 79 })
        #expect(lines.suffix(2) == ["=====", ""])
    }

    @Test("the file is Windows-1252 when every character fits, else UTF-8; both read back the same")
    func encoding() throws {
        let dir = try TemporaryDirectory()
        func export(_ title: String) throws -> (bytes: [UInt8], title: String?) {
            let recipe = Recipe(
                id: "r-\(title.unicodeScalars.count)", title: title,
                ingredients: ["2 EL Öl"].map(IngredientLines.make), instructions: [InstructionStep(text: "Rühren.")],
                createdAt: fixtureDate)
            let name = "r\(title.unicodeScalars.count)"
            try ExportFixtures.writeRecords([recipe], to: dir.path(name + ".json"))
            try ExportFixtures.export(dir.path(name + ".json"), to: .rezkonv, output: dir.path(name + ".rk"))
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path(name + ".rk"))))
            let back = try ExportFixtures.importRecipes(dir.path(name + ".rk"), format: nil, into: dir, name: name)
            return (bytes, back.recipes.first?.title)
        }
        let latin = try export("Käsespätzle – „fein“")
        #expect(latin.bytes.contains(0xE4) && !latin.bytes.contains(0xC3))  // ä as one byte: Windows-1252
        #expect(latin.title == "Käsespätzle – „fein“")
        let wide = try export("Käsespätzle 🧀")
        #expect(wide.bytes.contains(0xC3))  // ä as UTF-8: the emoji has no Windows-1252 byte
        #expect(wide.title == "Käsespätzle 🧀")
    }
}
