import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct GourmetImportTests {
    @Test("the sample export: header attributes, ingredient groups, instructions by line, notes, stars and the photo")
    func importsSample() throws {
        let sink = ImportCollector()
        try GourmetImporter().importItems(at: ImportFixtures.sample("gourmet-export.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.warnings.isEmpty)
        #expect(sink.titles == ["Roast Tomato Soup", "Lemon Tart"])
        let soup = try #require(sink.recipes.first?.0)
        #expect(sink.recipes.first?.1.entry == "Roast Tomato Soup1.htm")
        #expect(soup.servings == 4)
        #expect(soup.prepMinutes == 15)
        #expect(soup.cookMinutes == 45)
        #expect(soup.categories == ["Soup", "Vegetarian"])
        #expect(soup.cuisine == "Italian")
        #expect(soup.rating == 4)
        #expect(soup.sourceName == "Larder Test Kitchen")
        #expect(soup.sourceURL == "https://larder.example/recipes/roast-tomato-soup")
        #expect(
            soup.ingredients == [
                "1 kg tomatoes, halved", "1 onion", "3 cloves garlic", "2 tbsp cream", "basil (optional)",
            ])
        #expect(soup.ingredientHeadings == [3: "For serving"])
        #expect(
            soup.steps.map(\.text) == [
                "Roast the tomatoes, onion and garlic at 200 °C for 40 minutes.", "Blend with 500 ml water.",
                "Season and warm through.",
            ])
        #expect(soup.notes == "Freezes well.")
        #expect(soup.images.count == 1)
        #expect(soup.fieldCensus.fate(of: "the_yield") == .carried("yield"))
        #expect(soup.fieldCensus.fate(of: "stars") == .carried("rating"))
        let tart = try #require(sink.recipes.last?.0)
        #expect(tart.images.isEmpty && tart.rating == nil && tart.notes == nil)
        #expect(tart.yieldText != nil)
    }

    @Test("a page without a title is rejected with its page, index and field path; an unknown attribute goes to extras")
    func rejectsAndKeepsExtras() throws {
        let dir = try TemporaryDirectory()
        let page = { (header: String) in
            Array(
                ("<html><body><div class=\"recipe\"><div class='header'>\(header)</div>"
                    + "<div class=\"ing\"><h3>Ingredients</h3><ul class=\"ing\"><li class=\"ing\">1 egg </li>\n</ul>\n</div>\n"
                    + "</div>\n</body></html>").utf8)
        }
        let path = dir.path("gourmet.zip")
        try ImportFixtures.zip(
            [
                ("index.htm", Array("<html><body><table class=\"index\"></table></body></html>".utf8)),
                (
                    "Egg1.htm",
                    page(
                        "<p class=\"title\"><span class=\"label\">Title:</span> <span>Egg</span></p>\n"
                            + "<p class='difficulty'><span class='label'>Difficulty:</span> easy</p>\n")
                ),
                ("Nameless2.htm", page("<p class='source'><span class='label'>Source:</span> me</p>\n")),
            ], at: path)
        #expect(try ImportFormat.detect(path: path) == .gourmet)
        let sink = ImportCollector()
        try GourmetImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Egg"])
        #expect(sink.recipes.first?.0.extras["gourmet"]?.objectValue?["difficulty"] == .string("easy"))
        #expect(sink.rejects.map(\.1.entry) == ["Nameless2.htm"])
        #expect(sink.rejects.first?.1.index == 0)
        #expect(sink.rejects.first?.0.location?.fieldPath?.description == "title")
    }

    @Test("a lone Gourmet page is detected by its recipe and header divs; a Windows photo path is found")
    func detectsLonePageAndWindowsPaths() throws {
        let dir = try TemporaryDirectory()
        let text =
            "<html><body><div class=\"recipe\"><img src=\"pics\\1.jpg\"><div class='header'>"
            + "<p class=\"title\"><span class=\"label\">Title:</span> <span itemprop=\"name\">Toast</span></p>\n"
            + "</div></div>\n</body></html>"
        #expect(try ImportFormat.detect(path: try dir.write("Toast1.htm", text)) == .gourmet)
        let jpeg = Array(
            try #require(
                Data(
                    base64Encoded: "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////"
                        + "////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgB"
                        + "AQABPxA=")))
        let path = dir.path("windows.zip")
        try ImportFixtures.zip([("Toast1.htm", Array(text.utf8)), ("pics/1.jpg", jpeg)], at: path)
        let sink = ImportCollector()
        try GourmetImporter().importItems(at: path, context: sink.context)
        #expect(sink.recipes.first?.0.images.count == 1)
        #expect(sink.warnings.isEmpty)
    }

    @Test("the export folder as Gourmet writes it imports with its photos; a photo leading out of it is refused")
    func importsFolder() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("recipes")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let archive = try ZipArchive(path: ImportFixtures.sample("gourmet-export.zip"))
        while let entry = try archive.nextEntry() {
            let target = folder + "/" + entry.path
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let source = try archive.open(entry)
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while case let n = try chunk.withUnsafeMutableBytes({ try source.read(into: $0) }), n > 0 {
                bytes += chunk[0..<n]
            }
            try Data(bytes).write(to: URL(fileURLWithPath: target))
        }
        _ = try dir.write("secret.jpg", "not for import")
        _ = try dir.write(
            "recipes/Leak3.htm",
            "<html><body><div class=\"recipe\"><img src=\"../secret.jpg\"><div class='header'>"
                + "<p class=\"title\"><span class=\"label\">Title:</span> <span>Leak</span></p>\n</div></div></body></html>"
        )
        #expect(try ImportFormat.detect(path: folder) == .gourmet)
        let sink = ImportCollector()
        try GourmetImporter().importItems(at: folder, context: sink.context)
        #expect(sink.titles == ["Lemon Tart", "Roast Tomato Soup"])
        #expect(sink.recipes.last?.0.images.count == 1)
        #expect(sink.rejects.map(\.1.entry) == ["Leak3.htm"])
        #expect(sink.rejects.first?.0.code == .refusedInput)
    }

    @Test("a re-run of the sample into the same output adds nothing")
    func reRunAddsNothing() throws {
        let dir = try TemporaryDirectory()
        let report = try ImportFixtures.expectReRunAddsNothing(
            ImportFixtures.sample("gourmet-export.zip"), imports: 2, in: dir)
        #expect(report.census.records[.gourmet] == 2)
    }
}
