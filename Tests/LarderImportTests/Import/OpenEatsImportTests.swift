import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct OpenEatsImportTests {
    @Test("the sample dump: rows joined into recipes with ingredient groups, cuisine, course, tags and ratings")
    func importsSample() throws {
        let sink = ImportCollector()
        try OpenEatsImporter().importItems(at: ImportFixtures.sample("openeats-dump.json"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Pesto Pasta", "Tomato Bruschetta"])
        let pesto = try #require(sink.recipes.first?.0)
        #expect(pesto.ingredients == ["50 g basil leaves", "¼ cup pine nuts", "1 garlic clove", "400 g spaghetti"])
        #expect(pesto.ingredientHeadings == [0: "Pesto", 3: "Pasta"])
        #expect(pesto.steps.count == 3)
        #expect(pesto.cuisine == "Italian")
        #expect(pesto.categories == ["Main"])
        #expect(pesto.keywords == ["Vegetarian", "Quick"])
        #expect(pesto.rating == 4.5)
        #expect(pesto.ratingCount == 2)
        #expect(pesto.reviews == ["Better with a little lemon."])
        #expect(pesto.prepMinutes == 15)
        #expect(pesto.extras["openeats"]?.objectValue?["photo"] == .string("upload/recipe_photos/pesto.jpg"))
        let bruschetta = try #require(sink.recipes.last?.0)
        #expect(bruschetta.sourceName == "Nonna")
        #expect(bruschetta.fieldCensus.fate(of: "source") == .carried("sourceName"))
        #expect(bruschetta.cookMinutes == nil)
    }

    @Test("a recipe row without a title is rejected with its index and field path; a re-run adds nothing")
    func rejectsAndReRuns() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "dump.json",
            #"[{"model":"recipe.recipe","pk":1,"fields":{"title":"","directions":"x"}},"#
                + #"{"model":"recipe.recipe","pk":2,"fields":{"title":"Tea","directions":"Brew."}}]"#)
        #expect(try ImportFormat.detect(path: path) == .openeats)
        let sink = ImportCollector()
        try OpenEatsImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tea"])
        #expect(sink.rejects.first?.1.index == 0)
        #expect(sink.rejects.first?.0.location?.fieldPath?.description == "title")
        try ImportFixtures.expectReRunAddsNothing(ImportFixtures.sample("openeats-dump.json"), imports: 2, in: dir)
    }

    @Test("a prep_time of 1e300 rejects its recipe at prep_time; an ingredient amount of 1e300 prints; no crash")
    func numbersPastAnyCount() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "dump.json",
            #"[{"model":"recipe.recipe","pk":1,"fields":{"title":"Soup","directions":"x","prep_time":1e300}},"#
                + #"{"model":"recipe.recipe","pk":2,"fields":{"title":"Tea","directions":"Brew.","servings":2}},"#
                + #"{"model":"ingredient.ingredientgroup","pk":5,"fields":{"recipe":2,"title":""}},"#
                + #"{"model":"ingredient.ingredient","pk":9,"fields":{"ingredient_group":5,"title":"salt","#
                + #""numerator":1e300,"denominator":1}}]"#)
        let sink = ImportCollector()
        try OpenEatsImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tea"])
        #expect(sink.recipes.first?.0.ingredients == ["1e+300 salt"])
        #expect(sink.recipes.first?.0.servings == 2)
        let reject = try #require(sink.rejects.first)
        #expect(reject.1.index == 0)
        #expect(reject.0.location?.fieldPath?.description == "prep_time")
        #expect(reject.0.message == "expected a number up to 2147483647, found 1e+300")
    }
}
