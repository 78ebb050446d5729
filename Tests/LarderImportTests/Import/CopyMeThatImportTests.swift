import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct CopyMeThatImportTests {
    @Test("the sample zip: cards by id, tags without the Tags: label, servings, star, link, notes and photo")
    func importsSample() throws {
        let sink = ImportCollector()
        try CopyMeThatImporter().importItems(at: ImportFixtures.sample("copymethat-export.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Banana Bread", "Quick Pickled Onions"])
        let bread = try #require(sink.recipes.first?.0)
        #expect(bread.description == "Moist, not too sweet, and a good home for very ripe bananas.")
        #expect(bread.keywords == ["Baking", "Breakfast"])
        #expect(bread.servings == 8)
        #expect(bread.rating == 5)
        #expect(bread.isFavorite)
        #expect(bread.sourceURL == "https://larder.example/recipes/banana-bread")
        #expect(bread.ingredients.count == 6)
        #expect(bread.steps.count == 3)
        #expect(bread.notes == "Add a handful of walnuts with the flour.")
        #expect(bread.images.count == 1)
        #expect(bread.fieldCensus.fate(of: "made_this") == .extras)
        #expect(bread.extras["copymethat"]?.objectValue?["made_this"] == .string("Made this 3 times"))
        let onions = try #require(sink.recipes.last?.0)
        #expect(!onions.isFavorite)
        #expect(onions.yieldAsWritten == "1 jar")
    }

    @Test("a card without a name is rejected with its entry, index and field path; a re-run adds nothing")
    func rejectsAndReRuns() throws {
        let dir = try TemporaryDirectory()
        let page = """
            <html><body><div class="recipe"><div id="name"></div><ul id="recipeIngredients"><li>1 egg</li></ul></div>
            <div class="recipe"><div id="name">Egg</div><ul id="recipeIngredients"><li>1 egg</li></ul></div></body></html>
            """
        let path = dir.path("cmt.zip")
        try ImportFixtures.zip([("recipes.html", Array(page.utf8))], at: path)
        #expect(try ImportFormat.detect(path: path) == .copymethat)
        let sink = ImportCollector()
        try CopyMeThatImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Egg"])
        #expect(sink.rejects.first?.1.index == 0)
        #expect(sink.rejects.first?.0.location?.fieldPath?.description == "name")
        try ImportFixtures.expectReRunAddsNothing(ImportFixtures.sample("copymethat-export.zip"), imports: 2, in: dir)
    }
}
