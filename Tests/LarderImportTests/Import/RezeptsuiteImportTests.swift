import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct RezeptsuiteImportTests {
    @Test("the sample CookML: head attributes, parts as ingredient groups, directions, remark, base64 photo")
    func importsSample() throws {
        let sink = ImportCollector()
        try RezeptsuiteImporter().importItems(
            at: ImportFixtures.sample("rezeptsuite-export.xml"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Kartoffelsuppe", "Apfelschorle"])
        let soup = try #require(sink.recipes.first?.0)
        #expect(soup.larderID == "7c1e9a52-3b1d-4f7e-9d61-0a2b5c8e4f10")
        #expect(
            soup.ingredients == [
                "750 g Kartoffeln, geschält, gewürfelt", "1 Zwiebel", "1 l Gemüsebrühe", "2 EL Petersilie, gehackt",
                "Salz und Pfeffer",
            ])
        #expect(soup.ingredientHeadings == [0: "Suppe", 3: "Zum Servieren"])
        #expect(soup.steps.count == 3)
        #expect(soup.servings == 4)
        #expect(soup.yieldAsWritten == "4 Portionen")
        #expect(soup.totalMinutes == 50)
        #expect(soup.prepMinutes == 20)
        #expect(soup.cookMinutes == 30)
        #expect(soup.categories == ["Suppen", "Hauptgerichte"])
        #expect(soup.keywords == ["vegetarisch"])
        #expect(soup.sourceName == "Larder Testküche")
        #expect(soup.description == "Eine sämige Suppe für kalte Tage.")
        #expect(soup.notes == "Schmeckt am nächsten Tag noch besser.")
        #expect(soup.createdAt != nil)
        guard case .data(let bytes, _)? = soup.images.first else {
            Issue.record("no photo read from <picbin>: \(soup.images)")
            return
        }
        #expect(bytes.prefix(2) == [0xFF, 0xD8])
        #expect(soup.fieldCensus.fate(of: "head/sourceline") == .carried("sourceName"))
        #expect(soup.fieldCensus.fate(of: "head/@createuser") == .extras)
        #expect(soup.extras["rezeptsuite"]?.objectValue?["head/@createuser"] == .string("Larder"))
        let drink = try #require(sink.recipes.last?.0)
        #expect(drink.ingredientHeadings.isEmpty)
        #expect(drink.prepMinutes == 2)
        #expect(drink.larderID == nil)
    }

    @Test("a recipe without a title or with a broken photo is rejected with its index, line and field path")
    func rejectsPerRecipe() throws {
        let dir = try TemporaryDirectory()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <cookml version="1.1.2">
            <recipe><head title="Tee"/><part><ingredient qty="1" unit="" item="Beutel"/></part>
            <preparation><text>Aufgießen.</text></preparation></recipe>
            <recipe><head servingqty="2"/><part><ingredient qty="1" unit="" item="x"/></part></recipe>
            <recipe><head title="Toast"><picbin>***</picbin></head></recipe>
            <recipe><head title="Brot"/><preparation><step>Backen.</step></preparation></recipe>
            </cookml>
            """
        let path = dir.path("export.zip")
        try ImportFixtures.zip([("Rezepte.cml", Array(xml.utf8))], at: path)
        #expect(try ImportFormat.detect(path: path) == .rezeptsuite)
        let sink = ImportCollector()
        try RezeptsuiteImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tee", "Brot"])
        #expect(sink.rejects.map(\.1.index) == [1, 2])
        #expect(sink.rejects.map(\.1.entry) == ["Rezepte.cml", "Rezepte.cml"])
        #expect(sink.rejects.map { $0.0.location?.fieldPath?.description } == ["head.title", "head.picbin"])
        #expect(sink.rejects.first?.0.location?.line == 5)
        #expect(sink.recipes.last?.0.steps.map(\.text) == ["Backen."])
    }

    @Test("CookML is detected by its elements, not taken for RecipeML; a re-run adds nothing")
    func detectsAndReRuns() throws {
        let dir = try TemporaryDirectory()
        let cml = try dir.write(
            "export.cml",
            "<?xml version=\"1.0\"?>\n<cookml><recipe><head title=\"Tee\"/><part><ingredient qty=\"1\" unit=\"\" item=\"Beutel\"/></part></recipe></cookml>\n"
        )
        #expect(try ImportFormat.detect(path: cml) == .rezeptsuite)
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("cafe-scones.xml")) == .recipeml)
        try ImportFixtures.expectReRunAddsNothing(ImportFixtures.sample("rezeptsuite-export.xml"), imports: 2, in: dir)
    }
}
