import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct RecipeSageImportTests {
    @Test("the sample's {\"recipes\": [...]} export: headings in brackets, notes, source, labels, rating, UUID ids")
    func importsSample() throws {
        let sink = ImportCollector()
        try RecipeSageImporter().importItems(
            at: ImportFixtures.sample("recipesage-recipes.json"), context: sink.context)
        #expect(sink.titles == ["Yoghurt Flatbreads", "Bircher Muesli", "Bramley Apple Sauce"])
        #expect(sink.rejects.isEmpty)
        let bread = try #require(sink.recipes.first?.0)
        #expect(bread.larderID == "5f0c8a4e-2b7d-4c1e-9a63-0d2f4b8e1a77")
        #expect(bread.ingredients.first == "250 g self-raising flour")
        #expect(bread.ingredientHeadings == [0: "Dough", 3: "To finish"])
        #expect(bread.steps.filter(\.isSection).map(\.text) == ["Dough", "Cook"])
        #expect(bread.instructionSteps.count == 4)
        #expect(bread.sourceName == "Larder test kitchen")
        #expect(bread.sourceURL == "https://larder.example/recipes/yoghurt-flatbreads")
        #expect(bread.notes == "Freeze between sheets of baking paper.")
        #expect(bread.categories == ["Bread", "Quick"])
        #expect(bread.rating == 4)
        #expect(bread.prepMinutes == 15)
        #expect(bread.fieldCensus.fate(of: "creditText") == .carried("sourceName"))
        #expect(bread.fieldCensus.fate(of: "identifier") == .carried("id"))
        #expect(bread.fieldCensus.fate(of: "comment") == .carried("notes"))
        #expect(bread.extras["recipesage"] == nil)
    }

    @Test("an empty notes comment is dropped with its reason; a time RecipeSage kept as text stays in extras")
    func emptyCommentAndTextTime() throws {
        let sink = ImportCollector()
        try RecipeSageImporter().importItems(
            at: ImportFixtures.sample("recipesage-recipes.json"), context: sink.context)
        let muesli = try #require(sink.recipes.dropFirst().first?.0)
        #expect(muesli.notes == nil)
        #expect(muesli.sourceURL == nil)
        #expect(muesli.fieldCensus.fate(of: "comment") == .dropped("RecipeSage's empty Author Notes comment"))
        #expect(muesli.fieldCensus.fate(of: "totalTime") == .extras)
        #expect(muesli.extras["recipesage"]?.objectValue?["totalTime"] == .string("overnight"))
        #expect(muesli.prepMinutes == 10)
    }

    @Test("a bare array streams; a recipe without a name is rejected with its index and field path")
    func rejectsNamelessRecipe() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "old.json",
            #"[{"@context":"http://schema.org","@type":"Recipe","name":"Toast","recipeIngredient":["bread"],"creditText":"","isBasedOn":""},"#
                + #"{"@type":"Recipe","name":"","creditText":"","isBasedOn":""},"#
                + #"{"@type":"Recipe","name":"Tea","creditText":"Mum","isBasedOn":"","comment":[{"@type":"Comment","name":"Other","text":"x"}]}]"#
        )
        #expect(try ImportFormat.detect(path: path) == .recipesage)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(try ImportFormat.detect(path: try dir.write("recipes.jsonld", text)) == .recipesage)
        let page = #"{"@context":"https://schema.org","@type":"Recipe","name":"Toast"}"#
        #expect(try ImportFormat.detect(path: try dir.write("page.jsonld", page)) == .schemaorg)
        let sink = ImportCollector()
        try RecipeSageImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Toast", "Tea"])
        let reject = try #require(sink.rejects.first)
        #expect(reject.1.index == 1)
        #expect(reject.0.location?.fieldPath?.description == "name")
        let tea = try #require(sink.recipes.last?.0)
        #expect(tea.fieldCensus.fate(of: "comment") == .extras)
        #expect(tea.sourceName == "Mum")
    }

    @Test("re-running the import into the same output adds nothing")
    func reRunIsIdempotent() throws {
        let dir = try TemporaryDirectory()
        let sample = ImportFixtures.sample("recipesage-recipes.json")
        let (first, records) = try ImportFixtures.session([sample], in: dir)
        #expect(first.imported.count == 3)
        #expect(records.first?["id"]?.stringValue == "5f0c8a4e-2b7d-4c1e-9a63-0d2f4b8e1a77")
        let (second, again) = try ImportFixtures.session([sample], in: dir)
        #expect(second.imported.isEmpty)
        #expect(second.duplicates.count == 3)
        #expect(again.count == 3)
        #expect(first.census.records[.recipesage] == 3)
    }
}
