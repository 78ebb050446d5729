import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct DomesticaImportTests {
    @Test("the sample export: minutes, text lines, source URL or name, the data-URL image")
    func importsSample() throws {
        let sink = ImportCollector()
        try DomesticaImporter().importItems(at: ImportFixtures.sample("domestica-recipes.json"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Lentil Soup", "Iced Tea"])
        let soup = try #require(sink.recipes.first?.0)
        #expect(soup.servings == 4)
        #expect(soup.prepMinutes == 15)
        #expect(soup.cookMinutes == 40)
        #expect(soup.ingredients.count == 5)
        #expect(soup.ingredients.last == "1 tsp cumin")
        #expect(soup.steps.count == 3)
        #expect(soup.sourceURL == "https://larder.example/recipes/lentil-soup")
        guard case .data(let bytes, let ext)? = soup.images.first else {
            Issue.record("no image read from the data URL: \(soup.images)")
            return
        }
        #expect(bytes.prefix(2) == [0xFF, 0xD8])
        #expect(ext == "jpg")
        #expect(soup.fieldCensus.fate(of: "image") == .carried("images"))
        let tea = try #require(sink.recipes.last?.0)
        #expect(tea.sourceName == "Grandma")
        #expect(tea.fieldCensus.fate(of: "source") == .carried("sourceName"))
        #expect(tea.servings == nil)
        #expect(tea.images.isEmpty)
    }

    @Test(
        "a recipe without a name or with a broken image is rejected with its index and field path; unknown keys are kept"
    )
    func rejectsPerRecipe() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "domestica.json",
            #"[{"name":"Tea","timePrep":5,"directions":"Brew.","ingredients":"tea","rating":4},"#
                + #"{"name":" ","timeCook":1,"directions":"x"},"#
                + #"{"name":"Toast","timeCook":2,"directions":"Toast.","image":"data:image/jpeg;base64,***"},"#
                + #"{"name":"Jam","timePrep":1,"directions":"Spread."}]"#)
        #expect(try ImportFormat.detect(path: path) == .domestica)
        let sink = ImportCollector()
        try DomesticaImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tea", "Jam"])
        #expect(sink.rejects.map(\.1.index) == [1, 2])
        #expect(sink.rejects.map { $0.0.location?.fieldPath?.description } == ["name", "image"])
        #expect(sink.recipes.first?.0.extras["domestica"]?.objectValue?["rating"] == .int(4))
        #expect(sink.recipes.first?.0.fieldCensus.fate(of: "rating") == .extras)
    }

    @Test("re-running the import of the sample adds nothing")
    func reRunAddsNothing() throws {
        let dir = try TemporaryDirectory()
        try ImportFixtures.expectReRunAddsNothing(ImportFixtures.sample("domestica-recipes.json"), imports: 2, in: dir)
    }
}
