import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// `larder export --to html`: the printable cookbook's files, escaping, sections and file names.
@Suite struct HTMLCookbookExportTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0xFF, 0xD9]

    /// Exports `recipes` to the folder `Cookbook` in `dir` and returns the folder's path.
    private func export(_ recipes: [Recipe], in dir: TemporaryDirectory) throws -> String {
        try ExportFixtures.writeRecords(recipes, to: dir.path("records.json"))
        try ExportFixtures.export(dir.path("records.json"), to: .html, output: dir.path("Cookbook"))
        return dir.path("Cookbook")
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("a title, ingredient, step and source with markup appear as text: no element, script or javascript: link")
    func escapesEverything() throws {
        let dir = try TemporaryDirectory()
        let recipe = Recipe(
            id: "r-1", title: "<script>alert(1)</script> & \"Pie\"",
            ingredients: [IngredientLines.make("2 <b>eggs</b>")],
            instructions: [InstructionStep(text: "Bake at <200°C> & 'wait'", name: "<i>Oven</i>")],
            createdAt: fixtureDate, sourceURL: "javascript:alert(2)", description: "<img src=x onerror=alert(3)>",
            notes: [RecipeNote(title: "<h1>", text: "</article><script>")])
        let folder = try export([recipe], in: dir)
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasSuffix(".html") && $0 != "index.html"
        }
        let page = try read(folder + "/" + #require(pages.first))
        #expect(page.contains("<h1 itemprop=\"name\">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Pie&quot;</h1>"))
        #expect(page.contains("2 &lt;b&gt;eggs&lt;/b&gt;"))
        #expect(page.contains("Bake at &lt;200°C&gt; &amp; &#39;wait&#39;"))
        #expect(page.contains("<h3>&lt;i&gt;Oven&lt;/i&gt;</h3>"))
        #expect(page.contains("&lt;img src=x onerror=alert(3)&gt;"))
        #expect(page.contains("&lt;/article&gt;&lt;script&gt;"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img src=x"))
        #expect(!page.contains("href=\"javascript:"))
        let index = try read(folder + "/index.html")
        #expect(index.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!index.contains("<script"))
    }

    @Test("ingredients and steps are grouped under their section headings, steps numbered through the recipe")
    func sections() throws {
        let dir = try TemporaryDirectory()
        var ingredients = ["200 g flour", "1 egg"].map { line in
            var ingredient = IngredientLines.make(line)
            ingredient.group = "Dough"
            return ingredient
        }
        var sugar = IngredientLines.make("50 g sugar")
        sugar.group = "Topping"
        ingredients.append(sugar)
        let recipe = Recipe(
            id: "r-1", title: "Tart", ingredients: ingredients,
            instructions: [
                InstructionStep(text: "Mix.", name: "Dough"), InstructionStep(text: "Rest.", name: "Dough"),
                InstructionStep(text: "Sprinkle.", timerSeconds: 600, name: "Topping"),
            ], createdAt: fixtureDate, prepTime: 20, cookTime: 25,
            nutrition: Nutrition(calories: "300 kcal", text: "Per slice."),
            yield: Recipe.Yield(quantity: 1, text: "1 tart"))
        let page = try read(try export([recipe], in: dir) + "/Tart.html")
        let expected = [
            "<h2>Ingredients</h2>", "<h3>Dough</h3>", "200 g flour", "1 egg", "<h3>Topping</h3>", "50 g sugar",
            "<h2>Steps</h2>", "<h3>Dough</h3>", "<ol>", "Mix.", "Rest.", "<h3>Topping</h3>", "<ol start=\"3\">",
            "Sprinkle. <span class=\"timer\">(10 minutes)</span>", "<h2>Nutrition</h2>", "<th>Calories</th>",
            "300 kcal", "Per slice.",
        ]
        var rest = page[...]
        for text in expected {
            let range = try #require(rest.range(of: text), "\(text) missing or out of order")
            rest = rest[range.upperBound...]
        }
        #expect(page.contains("<time itemprop=\"prepTime\" datetime=\"PT20M\">20 minutes</time>"))
        #expect(page.contains("<time itemprop=\"totalTime\" datetime=\"PT45M\">45 minutes</time>"))
        #expect(page.contains("<span itemprop=\"recipeYield\">1 tart</span>"))
    }

    @Test("a recipe with a title and nothing else gets a page with no empty sections, photo or facts")
    func missingFields() throws {
        let dir = try TemporaryDirectory()
        let page = try read(
            try export([Recipe(id: "r-1", title: "Toast", createdAt: fixtureDate)], in: dir) + "/Toast.html")
        #expect(page.contains("<h1 itemprop=\"name\">Toast</h1>"))
        for absent in ["<h2>", "<img", "<dl", "<footer", "<ol", "<ul", "<table"] {
            #expect(!page.contains(absent), "\(absent)")
        }
    }

    @Test("page names are safe and unique: '..', '/', 'index' and repeated titles stay inside, each its own page")
    func fileNames() throws {
        let dir = try TemporaryDirectory()
        let titles = ["../../evil", "index", "Pie", "pie", "a/b #1?", "."]
        let recipes = titles.enumerated().map { Recipe(id: "r-\($0)", title: $1, createdAt: fixtureDate) }
        let folder = try export(recipes, in: dir)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(files.count == titles.count + 3, "\(files)")
        #expect(
            files.isSuperset(of: [
                "index.html", "print.html", "cookbook.css", "index (2).html", "Pie.html", "pie (2).html",
            ]))
        // print.html: these recipes have nothing but a title, so the book lists them at its end.
        let book = try read(folder + "/print.html")
        let listed = try #require(book.components(separatedBy: "<section class=\"title-only\"").last)
        #expect(listed.components(separatedBy: "<li>").count == titles.count + 1)
        #expect(listed.contains("<li>pie</li>") && listed.contains("<li>Pie (2)</li>"), "\(listed)")
        #expect(files.contains("_.._evil.html") && files.contains("a_b -1-.html"), "\(files)")
        #expect(files.allSatisfy { !$0.hasPrefix(".") && !$0.contains("/") })
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path("")).sorted() == ["Cookbook", "records.json"])
        let index = try read(folder + "/index.html")
        #expect(index.contains("href=\"a_b%20-1-.html\""))
        #expect(index.contains("href=\"index%20(2).html\""))
        #expect(index.contains("6 recipes"))
    }

    @Test("a local image inside the records folder is copied next to the pages; one outside is refused with a warning")
    func images() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("photos"), withIntermediateDirectories: true)
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: dir.path("photos/pie.jpg")))
        let inside = Recipe(id: "r-1", title: "Pie", createdAt: fixtureDate, imageRef: "photos/pie.jpg")
        let outside = Recipe(id: "r-2", title: "Tart", createdAt: fixtureDate, imageRef: "../outside.jpg")
        var remote = Recipe(id: "r-3", title: "Cake", createdAt: fixtureDate)
        remote.images = [RecipeImage(url: "https://example.com/cake.jpg", isPrimary: true)]
        try ExportFixtures.writeRecords([inside, outside, remote], to: dir.path("records.json"))
        let summary = try ExportFixtures.export(dir.path("records.json"), to: .html, output: dir.path("Cookbook"))
        #expect(summary.imagesLeftOut == 1)
        #expect(summary.warnings.first?.contains("record 1") == true)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: dir.path("Cookbook/images/Pie.jpg")))) == Self.jpeg)
        #expect(try read(dir.path("Cookbook/Pie.html")).contains("<img itemprop=\"image\" src=\"images/Pie.jpg\""))
        #expect(!(try read(dir.path("Cookbook/Tart.html")).contains("<img")))
        #expect(try read(dir.path("Cookbook/Cake.html")).contains("src=\"https://example.com/cake.jpg\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("Cookbook/images")) == ["Pie.jpg"])
    }

    @Test("-o x.zip writes the same files into an archive, and each recipe page imports back through its microdata")
    func zipAndMicrodata() throws {
        let dir = try TemporaryDirectory()
        var recipe = Recipe(
            id: "r-1", title: "Lemon Tart", ingredients: ["3 lemons", "100 g sugar"].map(IngredientLines.make),
            instructions: [InstructionStep(text: "Zest the lemons."), InstructionStep(text: "Bake.")],
            createdAt: fixtureDate)
        recipe.description = "Sharp and sweet."
        try ExportFixtures.writeRecords([recipe], to: dir.path("records.json"))
        try ExportFixtures.export(dir.path("records.json"), to: .html, output: dir.path("book.zip"))
        let entries = try ExportFixtures.zipEntries(dir.path("book.zip"))
        #expect(Set(entries.map(\.0)) == ["Lemon Tart.html", "cookbook.css", "index.html", "print.html"])
        let page = try #require(entries.first { $0.0 == "Lemon Tart.html" }?.1)
        try Data(page).write(to: URL(fileURLWithPath: dir.path("page.html")))
        let (_, back) = try ExportFixtures.importRecipes(dir.path("page.html"), format: .schemaorg, into: dir)
        let imported = try #require(back.first)
        #expect(imported.title == "Lemon Tart")
        #expect(imported.ingredients.map(\.original) == ["3 lemons", "100 g sugar"])
        #expect(imported.instructions.map(\.text) == ["Zest the lemons.", "Bake."])
        #expect(imported.description == "Sharp and sweet.")
    }
}
