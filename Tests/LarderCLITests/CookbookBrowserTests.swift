import Foundation
import LarderTestSupport
import Testing

/// `larder export --to html` rendered by a real browser: headless Chromium draws a recipe page
/// to a screenshot and a PDF (kept in `.build/test-output/cookbook/`), and selenium reads what
/// the page shows.
@Suite struct CookbookBrowserTests {
    static let output = CLI.packageRoot.appendingPathComponent(".build/test-output/cookbook")

    @Test(
        "a recipe page renders its title, ingredients, steps and loaded photo; screenshot and PDF are written",
        .enabled(
            if: CookbookBrowser.isAvailable,
            "chromium, chromium-driver or python3-selenium not installed (make browser-deps installs them)"),
        .timeLimit(.minutes(5)))
    func rendersRecipePage() throws {
        let dir = try TemporaryDirectory()
        try? FileManager.default.removeItem(at: Self.output)
        try FileManager.default.createDirectory(at: Self.output, withIntermediateDirectories: true)
        let sample = CLI.packageRoot.appendingPathComponent("samples/import/sample.paprikarecipes").path
        let imported = try CLI.run(["import", sample, "-o", dir.path("recipes.json")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let book = Self.output.appendingPathComponent("Cookbook").path
        let exported = try CLI.run(["export", dir.path("recipes.json"), "--to", "html", "-o", book])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.contains("3 exported, 0 rejected"), "\(exported.stderr)")
        let page = URL(fileURLWithPath: book + "/Buttermilk Pancakes.html")
        #expect(FileManager.default.fileExists(atPath: book + "/images/Buttermilk Pancakes.png"))

        let shot = Self.output.appendingPathComponent("buttermilk-pancakes.png").path
        let pdf = Self.output.appendingPathComponent("buttermilk-pancakes.pdf").path
        let profile = dir.path("profile")
        let flags = CookbookBrowser.headless(profile: profile)
        let drawn = try CookbookBrowser.run(
            CookbookBrowser.chromium,
            flags + ["--window-size=1000,1400", "--screenshot=\(shot)", page.absoluteString], timeout: 120)
        #expect(drawn.status == 0, "\(drawn.stderr.suffix(2000))")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: shot)).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let printed = try CookbookBrowser.run(
            CookbookBrowser.chromium, flags + ["--no-pdf-header-footer", "--print-to-pdf=\(pdf)", page.absoluteString],
            timeout: 120)
        #expect(printed.status == 0, "\(printed.stderr.suffix(2000))")
        let pdfBytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        #expect(pdfBytes.starts(with: Array("%PDF".utf8)))
        // print.html on paper: each of the three recipes starts a new sheet.
        let bookPDF = Self.output.appendingPathComponent("cookbook.pdf").path
        let printPage = URL(fileURLWithPath: book + "/print.html").absoluteString
        let wholeBook = try CookbookBrowser.run(
            CookbookBrowser.chromium, flags + ["--no-pdf-header-footer", "--print-to-pdf=\(bookPDF)", printPage],
            timeout: 120)
        #expect(wholeBook.status == 0, "\(wholeBook.stderr.suffix(2000))")
        let pages =
            String(decoding: try Data(contentsOf: URL(fileURLWithPath: bookPDF)), as: UTF8.self)
            .components(separatedBy: "/Type /Page\n").count - 1
        #expect(pages >= 3, "print.html printed on \(pages) page(s)")

        let script = try dir.write("read_page.py", CookbookBrowser.seleniumScript)
        let index = URL(fileURLWithPath: book + "/index.html").absoluteString
        let read = try CookbookBrowser.run(
            CookbookBrowser.python, [script, page.absoluteString, index, dir.path("profile-selenium")], timeout: 180)
        #expect(read.status == 0, "\(read.stderr.suffix(2000))")
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(shown["title"] as? String == "Buttermilk Pancakes")
        let ingredients = shown["ingredients"] as? [String] ?? []
        #expect(ingredients.first == "2 cups flour", "\(ingredients)")
        #expect(ingredients.count > 5)
        let steps = shown["steps"] as? [String] ?? []
        #expect(steps.first == "Whisk the dry ingredients in a bowl.", "\(steps)")
        let image = shown["image"] as? [String: Any]
        #expect(image?["complete"] as? Bool == true)
        #expect((image?["naturalWidth"] as? Int ?? 0) > 0, "the photo did not load: \(String(describing: image))")
        // innerText applies the stylesheet: `h2 { text-transform: uppercase }` shows it was loaded.
        #expect((shown["text"] as? String)?.contains("INGREDIENTS") == true)
        #expect(
            Set(shown["index"] as? [String] ?? [])
                == ["Buttermilk Pancakes", "Lemon Herb Roast Chicken", "Weeknight Red Lentil Soup"])
    }
}
