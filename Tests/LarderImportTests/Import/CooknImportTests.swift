import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct CooknImportTests {
    @Test("the sample cookbook: tables joined, ingredients in display order, numbered steps, category, photo")
    func importsSample() throws {
        let sink = ImportCollector()
        try CooknImporter().importItems(at: ImportFixtures.sample("cookn-cookbook.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Buttermilk Pancakes", "Scrambled Eggs"])
        let (pancakes, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "temp_recipe.dsv")
        #expect(origin.index == 0)
        #expect(pancakes.nativeID == "cookn:7001")
        #expect(
            pancakes.ingredients == [
                "2 cup flour, sifted", "1 1/2 cup buttermilk", "1 large egg", "2 tablespoon melted butter Larder Dairy",
            ])
        #expect(
            pancakes.steps.map(\.text) == [
                "Whisk the dry ingredients.",
                "Beat in the buttermilk, egg and butter; leave the batter a little lumpy.",
                "Cook on a hot griddle until bubbles form, then flip.",
            ])
        #expect(pancakes.servings == 4)
        #expect(pancakes.prepMinutes == 10)
        #expect(pancakes.cookMinutes == 15)
        #expect(pancakes.categories == ["Family Favorites - Breakfast"])
        #expect(pancakes.description == "Light, fluffy and quick.")
        guard case .data(let bytes, _)? = pancakes.images.first else {
            Issue.record("no photo read from the export: \(pancakes.images)")
            return
        }
        #expect(bytes.prefix(2) == [0xFF, 0xD8])
        #expect(pancakes.fieldCensus.fate(of: "PARENT") == .carried("categories"))
        #expect(pancakes.fieldCensus.fate(of: "ID") == .extras)
        let eggs = try #require(sink.recipes.last?.0)
        #expect(eggs.ingredients == ["4 egg", "salt, to taste"])
        #expect(eggs.steps.count == 2)
        #expect(eggs.description == nil)
        #expect(eggs.images.isEmpty)
    }

    @Test("a recipe without a title is rejected with its index and field path; unknown columns are kept")
    func rejectsPerRecipe() throws {
        let dir = try TemporaryDirectory()
        func table(_ rows: [[String]]) -> [UInt8] {
            Array(rows.map { $0.joined(separator: "||||") + "!@#%^&*()" }.joined().utf8)
        }
        let path = dir.path("cookn.zip")
        try ImportFixtures.zip(
            [
                (
                    "book/temp_recipe.dsv",
                    table([
                        ["ID", "SERVES", "INSTRUCTIONS", "CALORIES"], ["1", "2", "Brew.", "5"],
                        ["2", "1", "x", "[null]"],
                    ])
                ),
                (
                    "book/temp_recipe_desc.dsv",
                    table([["ID", "PARENT", "TITLE"], ["1", "[null]", "Tea"], ["2", "[null]", " "]])
                ),
            ], at: path)
        #expect(try ImportFormat.detect(path: path) == .cookn)
        let sink = ImportCollector()
        try CooknImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tea"])
        #expect(sink.rejects.map(\.1.index) == [1])
        #expect(sink.rejects.map(\.1.entry) == ["book/temp_recipe.dsv"])
        #expect(sink.rejects.first?.0.location?.fieldPath?.description == "TITLE")
        #expect(sink.recipes.first?.0.extras["cookn"]?.objectValue?["CALORIES"] == .string("5"))
    }

    @Test("a zip without temp_recipe.dsv is not Cook'n; a re-run of the sample adds nothing")
    func detectsAndReRuns() throws {
        let dir = try TemporaryDirectory()
        let other = dir.path("other.zip")
        try ImportFixtures.zip([("temp_food.dsv", Array("ID||||NAME!@#%^&*()".utf8))], at: other)
        #expect(throws: LarderError.self) { try ImportFormat.detect(path: other) }
        try ImportFixtures.expectReRunAddsNothing(ImportFixtures.sample("cookn-cookbook.zip"), imports: 2, in: dir)
    }

    @Test("a zip of cookbook zips has each cookbook read, its recipes named by the inner zip's entry")
    func readsZippedCookbooks() throws {
        let dir = try TemporaryDirectory()
        let cookbook = try Array(Data(contentsOf: URL(fileURLWithPath: ImportFixtures.sample("cookn-cookbook.zip"))))
        let path = dir.path("cookbooks.zip")
        try ImportFixtures.zip([("Family.zip", cookbook), ("notes.txt", Array("hi".utf8))], at: path)
        let sink = ImportCollector()
        try CooknImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Buttermilk Pancakes", "Scrambled Eggs"])
        #expect(sink.recipes.first?.1.entry == "Family.zip!temp_recipe.dsv")
        #expect(sink.recipes.first?.0.images.count == 1)
        // Detection looks inside the first inner zip: a cookbook there is Cook'n, not Tandoor's zip of zips.
        #expect(try ImportFormat.detect(path: path) == .cookn)
        let tandoor = dir.path("tandoor.zip")
        try ImportFixtures.zip(
            [("1.zip", try Self.zipBytes([("recipe.json", Array("{}".utf8))], in: dir))], at: tandoor)
        #expect(try ImportFormat.detect(path: tandoor) == .tandoor)
    }

    /// The bytes of a zip holding `entries`.
    static func zipBytes(_ entries: [(String, [UInt8])], in dir: TemporaryDirectory) throws -> [UInt8] {
        let path = dir.path("inner-\(entries.count)-\(entries.first?.0 ?? "").zip")
        try ImportFixtures.zip(entries, at: path)
        return try Array(Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
