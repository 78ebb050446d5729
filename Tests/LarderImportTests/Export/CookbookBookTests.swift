import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// The printed book (`print.html` of `larder export --to html`, the PDF's source): cover,
/// contents, chapters A–Z, recipes with only a title at the end, titles told apart, page rules.
@Suite struct CookbookBookTests {
    private func recipe(
        _ n: Int, _ title: String, categories: [String] = [], courses: [String] = [], sourceName: String? = nil,
        empty: Bool = false, imageURL: String? = nil
    ) -> Recipe {
        Recipe(
            id: "r-\(n)", title: title, ingredients: empty ? [] : [IngredientLines.make("1 egg")],
            instructions: empty ? [] : [InstructionStep(text: "Cook it.")], createdAt: fixtureDate,
            imageRef: imageURL, sourceName: sourceName, categories: categories, courses: courses)
    }

    /// Exports `recipes` as the HTML cookbook with `layout` and returns `print.html` and `index.html`.
    private func book(_ recipes: [Recipe], layout: CookbookLayout = CookbookLayout()) throws -> (String, String) {
        let dir = try TemporaryDirectory()
        try ExportFixtures.writeRecords(recipes, to: dir.path("records.json"))
        var session = ExportSession(
            inputs: [dir.path("records.json")], format: .html, outputPath: dir.path("Book"), keepGoing: false)
        session.layout = layout
        _ = try session.run { _, error in throw error }
        return (
            try String(contentsOfFile: dir.path("Book/print.html"), encoding: .utf8),
            try String(contentsOfFile: dir.path("Book/index.html"), encoding: .utf8)
        )
    }

    /// The `id`s of the book's articles, in the order they are printed.
    private func printedOrder(_ html: String) -> [String] {
        html.components(separatedBy: "<article class=\"recipe\" id=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
    }

    @Test("chapters by first category A–Z, recipes A–Z within (numbers by value), recipes without one last")
    func chaptersAndOrder() throws {
        let recipes = [
            recipe(1, "Zucchini Bread", categories: ["Breads"]), recipe(2, "apple pie", categories: ["desserts"]),
            recipe(3, "Plain Toast"), recipe(4, "Bagels", categories: ["Breads", "Breakfast"]),
            recipe(5, "Cake 10", categories: ["Desserts"]), recipe(6, "Cake 9", categories: ["Desserts"]),
        ]
        let (html, _) = try book(recipes)
        // Export order r1…r6; the book: Breads (Bagels, Zucchini), desserts (apple, Cake 9, Cake 10), Other.
        #expect(printedOrder(html) == ["r4", "r1", "r2", "r6", "r5", "r3"])
        let chapterTitles = html.components(separatedBy: "<h1 class=\"chapter-title\">").dropFirst().map {
            String($0.prefix { $0 != "<" })
        }
        #expect(chapterTitles == ["Breads", "desserts", "Other recipes"])
        #expect(
            html.contains("<section class=\"cover\">\n<h1>Cookbook</h1>\n<p class=\"meta\">6 recipes in 3 chapters"))
        // The contents list the same order, each linked to its article.
        let contents = html.components(separatedBy: "<a href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(contents == ["r4", "r1", "r2", "r6", "r5", "r3"])
        #expect(html.contains("@page { size: A4;"))
        #expect(html.contains("@page chapter-2 { @top-center { content: \"desserts\";"))
        // Without page numbers (a browser's print decides the pages) there is no page column.
        #expect(!html.contains("toc-page"))
    }

    @Test("--group-by course and none, --paper letter and --title lay the book out accordingly")
    func layouts() throws {
        let recipes = [
            recipe(1, "Soup", categories: ["Winter"], courses: ["Starter"]),
            recipe(2, "Roast", categories: ["Winter"], courses: ["Main"]),
        ]
        let (byCourse, _) = try book(recipes, layout: CookbookLayout(groupBy: .course))
        #expect(printedOrder(byCourse) == ["r2", "r1"])
        #expect(byCourse.contains("<h1 class=\"chapter-title\">Main</h1>"))
        let (flat, index) = try book(
            recipes, layout: CookbookLayout(title: "Our Kitchen", groupBy: .none, paper: .letter))
        #expect(printedOrder(flat) == ["r2", "r1"])
        #expect(!flat.contains("chapter-title"))
        #expect(flat.contains("@page { size: letter;"))
        #expect(flat.contains("<h1>Our Kitchen</h1>"))
        #expect(index.contains("<h1>Our Kitchen</h1>"))
    }

    @Test(
        "recipes with the same title are told apart by source in the contents and the index; a number when the source is the same too"
    )
    func identicalTitles() throws {
        let recipes = [
            recipe(1, "Pancakes", sourceName: "Serious Eats"), recipe(2, "pancakes", sourceName: "BBC Good Food"),
            recipe(3, "Pancakes", sourceName: "Serious Eats"), recipe(4, "Waffles", sourceName: "Serious Eats"),
        ]
        let (html, index) = try book(recipes)
        for text in [html, index] {
            #expect(text.contains(">pancakes — BBC Good Food<"), "\(text)")
            #expect(text.contains(">Pancakes — Serious Eats<"))
            #expect(text.contains(">Pancakes — Serious Eats (2)<"))
            #expect(text.contains(">Waffles<"))
        }
    }

    @Test("a recipe with nothing but a title is not a page of its own: it is listed at the end of the book")
    func titleOnlyRecipes() throws {
        let (html, index) = try book([recipe(1, "Empty File", empty: true), recipe(2, "Tea")])
        #expect(printedOrder(html) == ["r2"])
        #expect(html.contains("<section class=\"title-only\" id=\"title-only\">"))
        #expect(html.contains("<li>Empty File</li>"))
        #expect(html.contains("<p class=\"meta\">1 recipe</p>"))
        // The index still links its page: nothing is left out of the export.
        #expect(index.contains(">Empty File</a>"))
    }

    @Test("the book prints local photos only: a linked web photo stays on the recipe's page, not in print.html")
    func noHotlinkedPhotosInPrint() throws {
        let (html, _) = try book([recipe(1, "Tart", imageURL: "https://example.com/tart.jpg")])
        #expect(!html.contains("example.com/tart.jpg"))
    }

    @Test("a chapter name cannot end the CSS string or the style element it runs in")
    func chapterNamesInCSS() throws {
        let name = "\"}</style><script>alert(1)</script>\\"
        let (html, _) = try book([recipe(1, "Tea", categories: [name])])
        let style = try #require(html.components(separatedBy: "<style>\n").last)
        #expect(!style.contains("</style><script>"))
        #expect(!style.contains("\"}"))
        #expect(HTMLCookbookPage.cssString("a\"b\\c<d") == "\"a\\22 b\\5c c\\3c d\"")
    }

    @Test("PDF destinations: each named destination's page through a nested page tree, streams skipped")
    func pdfDestinations() {
        let pdf = """
            %PDF-1.4
            1 0 obj
            <</Type /Catalog
            /Pages 9 0 R
            /Dests 8 0 R>>
            endobj
            2 0 obj
            <</Type /Page /Parent 7 0 R>>
            endobj
            3 0 obj
            <</Length 20>>
            stream
            4 0 obj junk endobj
            endstream
            endobj
            4 0 obj
            <</Type /Page /Parent 7 0 R>>
            endobj
            5 0 obj
            <</Type /Page /Parent 9 0 R>>
            endobj
            7 0 obj
            <</Type /Pages
            /Count 2
            /Kids [2 0 R 4 0 R]>>
            endobj
            8 0 obj
            <</r1 [4 0 R /XYZ 6 827.66998 0]
            /r2 [5 0 R /XYZ 6 827.66998 0]
            /title-only [2 0 R /XYZ 6 800 0]>>
            endobj
            9 0 obj
            <</Type /Pages
            /Count 3
            /Kids [7 0 R 5 0 R]>>
            endobj
            """
        #expect(PDFDestinations.pages(in: Array(pdf.utf8)) == ["title-only": 1, "r1": 2, "r2": 3])
        #expect(PDFDestinations.pages(in: Array("%PDF-1.4 nothing".utf8)).isEmpty)
    }
}
