import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// `--to csv`: the fixed header, RFC 4180 quoting, and export → import giving the recipes back.
@Suite struct CSVExportTests {
    @Test("cells with commas, quotes and line breaks are quoted; rows end with CRLF")
    func quotes() {
        #expect(
            CSVExporter.row(["a", "b,c", "say \"hi\"", "x\ny", " pad"])
                == "a,\"b,c\",\"say \"\"hi\"\"\",\"x\ny\",\" pad\"\r\n")
    }

    @Test(
        "samples → Larder → CSV → Larder keep title, ingredients, steps, servings, times, categories, tags and source",
        arguments: ["recipes.csv", "mealmaster-classics.mmf", "sample.paprikarecipes"])
    func roundTrip(sample: String) throws {
        let dir = try TemporaryDirectory()
        let first = try ExportFixtures.importRecipes(ImportFixtures.sample(sample), format: nil, into: dir)
        #expect(!first.recipes.isEmpty)
        try ExportFixtures.export(first.records, to: .csv, output: dir.path("out.csv"))
        let text = try String(contentsOfFile: dir.path("out.csv"), encoding: .utf8)
        #expect(text.hasPrefix(CSVExporter.header.joined(separator: ",") + "\r\n"))
        #expect(try ImportFormat.detect(path: dir.path("out.csv")) == .csv)
        let back = try ExportFixtures.importRecipes(dir.path("out.csv"), format: .csv, into: dir, name: "back")
        #expect(back.recipes.count == first.recipes.count)
        for (a, b) in zip(first.recipes, back.recipes) {
            #expect(a.title == b.title)
            #expect(a.ingredients.map(\.original) == b.ingredients.map(\.original))
            #expect(a.instructions.map(\.text) == b.instructions.map(\.text))
            #expect(a.servings == b.servings)
            #expect(a.prepTime == b.prepTime)
            #expect(a.cookTime == b.cookTime)
            #expect(a.categories == b.categories)
            #expect(a.tags == b.tags)
            #expect(a.sourceURL == b.sourceURL)
        }
    }
}
