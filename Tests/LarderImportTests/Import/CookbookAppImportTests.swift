import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct CookbookAppImportTests {
    /// A page whose recipe is `body` (JSON-LD in the head when `jsonLD` is given).
    private static func page(jsonLD: String? = nil, body: String = "") -> [UInt8] {
        let head = jsonLD.map { "<script type=\"application/ld+json\">\($0)</script>" } ?? ""
        return Array("<!DOCTYPE html><html><head><title>x</title>\(head)</head><body>\(body)</body></html>".utf8)
    }

    @Test("the sample's pages: a JSON-LD recipe keeps its image address, a microdata one gets its photo from the zip")
    func importsPages() throws {
        let sink = ImportCollector()
        try CookbookAppImporter().importItems(
            at: ImportFixtures.sample("cookbookapp-export.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.warnings.isEmpty)
        #expect(sink.titles == ["Miso-Glazed Aubergine", "Cheddar Scones"])
        let (aubergine, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "Miso-Glazed Aubergine.html")
        #expect(origin.index == 0)
        #expect(aubergine.images == [.url("https://cookbook.example/photos/miso-aubergine.jpg")])
        #expect(aubergine.ingredients.count == 7)
        #expect(aubergine.steps.count == 3)
        #expect(aubergine.prepMinutes == 10 && aubergine.cookMinutes == 30 && aubergine.totalMinutes == 40)
        #expect(aubergine.servings == 2)
        #expect(aubergine.cuisine == "Japanese")
        #expect(aubergine.keywords == ["vegan", "weeknight"])
        #expect(aubergine.fieldCensus.fate(of: "recipeIngredient") == .carried("ingredients"))
        #expect(aubergine.fieldCensus.fate(of: "cookingMethod") == .extras)
        #expect(aubergine.extras["cookbookapp"]?.objectValue?["cookingMethod"] == .string("Roasting"))
        let scones = try #require(sink.recipes.last?.0)
        #expect(scones.ingredients.first == "250 g self-raising flour")
        #expect(scones.steps.count == 3)
        #expect(scones.yieldAsWritten == "8 scones")
        #expect(scones.prepMinutes == 15)
        #expect(scones.categories == ["Baking"])
        guard case .data(let bytes, let ext)? = scones.images.first else {
            Issue.record("the photo was not read from the zip: \(scones.images)")
            return
        }
        #expect(bytes.prefix(2) == [0xFF, 0xD8])
        #expect(ext == "jpg")
        #expect(scones.fieldCensus.fate(of: "image") == .carried("images"))
    }

    @Test("the older YAML layout: yield, times, favourite, directions and ingredient lines, a heading, notes, source")
    func importsYAML() throws {
        let sink = ImportCollector()
        try CookbookAppImporter().importItems(at: ImportFixtures.sample("cookbookapp-yaml.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Warm Chickpea Salad", "Banana Oat Muffins"])
        let (salad, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "Warm Chickpea Salad.yml")
        #expect(salad.servings == 4)
        #expect(salad.prepMinutes == 15 && salad.cookMinutes == 10)
        #expect(salad.isFavorite)
        #expect(salad.steps.count == 3)
        #expect(salad.ingredients.count == 6)
        #expect(salad.ingredientHeadings == [4: "For the dressing"])
        #expect(salad.notes == "Keeps for two days in the fridge.")
        #expect(salad.nutrition["text"] == "Calories: 320\nProtein: 12 g")
        #expect(salad.sourceURL == "https://cookbook.example/warm-chickpea-salad")
        #expect(salad.fieldCensus.fate(of: "on_favorites") == .carried("isFavorited"))
        let muffins = try #require(sink.recipes.last?.0)
        #expect(!muffins.isFavorite)
        #expect(muffins.yieldAsWritten == "12 muffins")
        #expect(muffins.sourceName == "Grandma's recipe box")
        #expect(muffins.notes == nil)
        #expect(muffins.fieldCensus.fate(of: "on_favorites") == .dropped("false: not a favourite"))
        #expect(muffins.fieldCensus.fate(of: "source") == .carried("sourceName"))
    }

    @Test("bad pages and files are rejected with their entry, index and field path; their siblings import")
    func rejectsBadEntries() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("cookbook.zip")
        try ImportFixtures.zip(
            [
                ("Toast.html", Self.page(jsonLD: #"{"@type":"Recipe","name":"Toast","recipeIngredient":["1 slice"]}"#)),
                ("Nameless.html", Self.page(jsonLD: #"{"@type":"Recipe","recipeIngredient":["1 egg"]}"#)),
                ("About.html", Self.page(body: "<p>Nothing to cook here.</p>")),
                (
                    "Tea.yml",
                    Array("name: Tea\ningredients: 1 tea bag\ndirections: Steep.\nkettle: blue\nimage: tea.png\n".utf8)
                ),
                ("pics/tea.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
                ("Broken.yml", Array("name: [unclosed\n".utf8)),
                ("Mapping.yml", Array("name: Jam\ningredients:\n  fruit: 1 kg\ndirections: Boil.\n".utf8)),
                (
                    "Listed.yml",
                    Array("name: Soup\ningredients:\n  - 1 leek\n  - {stock: 1 l}\ndirections: Cook.\n".utf8)
                ),
            ], at: path)
        #expect(try ImportFormat.detect(path: path) == .cookbookapp)
        let sink = ImportCollector()
        try CookbookAppImporter().importItems(at: path, context: sink.context)
        #expect(Set(sink.titles) == ["Toast", "Tea"])
        let tea = try #require(sink.recipes.first { $0.0.title == "Tea" }?.0)
        #expect(tea.extras["cookbookapp"]?.objectValue?["kettle"] == .string("blue"))
        guard case .data(_, let ext)? = tea.images.first else {
            Issue.record("the YAML file's photo was not read from the zip: \(tea.images)")
            return
        }
        #expect(ext == "png")
        let rejects = Dictionary(uniqueKeysWithValues: sink.rejects.map { ($0.1.entry ?? "", $0) })
        #expect(rejects.keys.sorted() == ["About.html", "Broken.yml", "Listed.yml", "Mapping.yml", "Nameless.html"])
        #expect(rejects["Nameless.html"]?.1.index == 0)
        #expect(rejects["Nameless.html"]?.0.location?.fieldPath?.description == "name")
        #expect(rejects["Mapping.yml"]?.0.location?.fieldPath?.description == "ingredients")
        #expect(rejects["Mapping.yml"]?.0.location?.line != nil)
        #expect(rejects["Listed.yml"]?.0.location?.fieldPath?.description == "ingredients[1]")
        #expect(rejects["Broken.yml"]?.0.code == .syntax)
    }

    @Test(
        "a page's first img is the photo when the markup names none; one the zip lacks is kept as written, with a warning"
    )
    func takesThePagesFirstImage() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("pages.zip")
        let jsonLD = #"{"@type":"Recipe","name":"%@","recipeIngredient":["1 egg"]}"#
        try ImportFixtures.zip(
            [
                (
                    "Egg.html",
                    Self.page(
                        jsonLD: jsonLD.replacingOccurrences(of: "%@", with: "Egg"),
                        body: "<img src=\"./photos/egg%201.png\"><img src=\"photos/other.png\">")
                ),
                ("photos/egg 1.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
                (
                    "Ham.html",
                    Self.page(
                        jsonLD: jsonLD.replacingOccurrences(of: "%@", with: "Ham"), body: "<img src=\"gone.jpg\">")
                ),
            ], at: path)
        let sink = ImportCollector()
        try CookbookAppImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty)
        let egg = try #require(sink.recipes.first?.0)
        guard case .data(_, let ext)? = egg.images.first else {
            Issue.record("the page's photo was not read: \(egg.images)")
            return
        }
        #expect(ext == "png")
        #expect(sink.recipes.last?.0.images == [.url("gone.jpg")])
        #expect(sink.warnings == ["the photo gone.jpg is not in the export"])
    }

    @Test("in an export folder, a photo leading out of it is refused and its recipe rejected; the others import")
    func refusesPhotoOutsideFolder() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("export"), withIntermediateDirectories: true)
        _ = try dir.write("secret.jpg", "not for import")
        let inside = #"{"@type":"Recipe","name":"Leak","image":"../secret.jpg","recipeIngredient":["1 egg"]}"#
        _ = try dir.write("export/Leak.html", String(decoding: Self.page(jsonLD: inside), as: UTF8.self))
        let fine = #"{"@type":"Recipe","name":"Fine","recipeIngredient":["1 egg"]}"#
        _ = try dir.write("export/Fine.html", String(decoding: Self.page(jsonLD: fine), as: UTF8.self))
        let sink = ImportCollector()
        try CookbookAppImporter().importItems(at: dir.path("export"), context: sink.context)
        #expect(sink.titles == ["Fine"])
        #expect(sink.rejects.map(\.1.entry) == ["Leak.html"])
        #expect(sink.rejects.first?.0.code == .refusedInput)
    }

    @Test(
        "detection: the first page decides, Gourmet's before the Cookbook app's; pages without a recipe are each read as a web page"
    )
    func detectionOrder() throws {
        let dir = try TemporaryDirectory()
        let microdata = "<div itemscope itemtype=\"http://schema.org/Recipe\"><h1 itemprop=\"name\">Pie</h1></div>"
        let pages = dir.path("pages.zip")
        try ImportFixtures.zip([("Pie.html", Self.page(body: microdata))], at: pages)
        #expect(try ImportFormat.detect(path: pages) == .cookbookapp)
        let gourmet = dir.path("gourmet.zip")
        let gourmetPage =
            "<div class=\"recipe\" itemscope itemtype=\"http://schema.org/Recipe\"><div class='header'>"
            + "<p class=\"title\"><span class=\"label\">Title:</span> Pie</p></div></div>"
        try ImportFixtures.zip([("Pie1.htm", Self.page(body: gourmetPage))], at: gourmet)
        #expect(try ImportFormat.detect(path: gourmet) == .gourmet)
        let plain = dir.path("site.zip")
        try ImportFixtures.zip([("About.html", Self.page(body: "<p>Hello</p>"))], at: plain)
        // No app claims the zip: its pages are read one by one, like a folder of saved pages.
        #expect(try ImportFormat.detect(path: plain) == .schemaorg)
        // A lone page is a web page (schema.org); `--from cookbookapp` reads it the same way.
        let lone = try dir.write("Pie.html", String(decoding: Self.page(body: microdata), as: UTF8.self))
        #expect(try ImportFormat.detect(path: lone) == .schemaorg)
        let sink = ImportCollector()
        try ImportFormat.cookbookapp.makeImporter().importItems(at: lone, context: sink.context)
        #expect(sink.titles == ["Pie"])
    }

    @Test(
        "a re-run of either sample into the same output adds nothing",
        arguments: ["cookbookapp-export.zip", "cookbookapp-yaml.zip"])
    func reRunAddsNothing(_ name: String) throws {
        let dir = try TemporaryDirectory()
        let report = try ImportFixtures.expectReRunAddsNothing(ImportFixtures.sample(name), imports: 2, in: dir)
        #expect(report.census.records[.cookbookapp] == 2)
    }
}
