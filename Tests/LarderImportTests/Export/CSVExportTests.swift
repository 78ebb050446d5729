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

/// Security round 3: what Larder exports cannot run in the program that opens it.
@Suite struct ExportInjectionTests {
    @Test("CSV injection: a cell a spreadsheet would run as a formula is written as text (OWASP)")
    func csvFormulasAreNeutralised() {
        #expect(CSVExporter.row(["=cmd|' /C calc'!A0"]) == "'=cmd|' /C calc'!A0\r\n")
        #expect(CSVExporter.row(["+1+1", "-2+3", "@SUM(A1)", "\tx"]) == "'+1+1,'-2+3,'@SUM(A1),'\tx\r\n")
        #expect(
            CSVExporter.row(["=HYPERLINK(\"http://x\",\"y\")"]) == "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\r\n")
        // Plain numbers and ordinary text are left alone.
        #expect(CSVExporter.row(["-5", "2.5", "Cake", "a=b"]) == "-5,2.5,Cake,a=b\r\n")
    }

    @Test("CSV injection: a neutralised cell imports back as it was")
    func neutralisedCellsReadBack() throws {
        let dir = try TemporaryDirectory()
        let csv =
            CSVExporter.header.joined(separator: ",") + "\r\n"
            + CSVExporter.row(["=1+1 cake", "- a dash", "", "@step", "", "", "", "", "", "", "", "", "", ""])
        try Data(csv.utf8).write(to: URL(fileURLWithPath: dir.path("in.csv")))
        let back = try ExportFixtures.importRecipes(dir.path("in.csv"), format: .csv, into: dir, name: "back")
        #expect(back.recipes.first?.title == "=1+1 cake")
        #expect(back.recipes.first?.description == "- a dash")
    }

    @Test("Markdown: text is not HTML, and only web URLs are links")
    func markdownEscapes() throws {
        let recipe = Recipe(
            id: "r-x", title: "Evil", ingredients: [], instructions: [], createdAt: fixtureDate,
            sourceURL: "javascript:alert(1)", description: "<script>alert(1)</script> & more",
            notes: [RecipeNote(title: "<b>t</b>", text: "<img src=x onerror=alert(1)>")])
        let text = MarkdownExporter.text(recipe, image: nil)
        #expect(!text.contains("<script>") && !text.contains("<img") && !text.contains("<b>"))
        #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more"))
        #expect(!text.contains("javascript:"))
        var web = recipe
        web.sourceURL = "https://example.com/pie"
        #expect(MarkdownExporter.text(web, image: nil).contains("url: https://example.com/pie"))
    }
}
