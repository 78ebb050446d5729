import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct SaffronImportTests {
    @Test("the sample export: labels, unindented blocks, times, cookbook as a tag and section as a category")
    func importsSample() throws {
        let sink = ImportCollector()
        try SaffronImporter().importItems(at: ImportFixtures.sample("saffron-export.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Red Lentil Dal", "Maple Granola"])
        let dal = try #require(sink.recipes.first?.0)
        #expect(dal.description == "A pot of dal for the week.")
        #expect(dal.sourceName == "Larder Test Kitchen")
        #expect(dal.sourceURL == "https://larder.example/recipes/red-lentil-dal")
        #expect(dal.servings == 4)
        #expect(dal.prepMinutes == 10)
        #expect(dal.cookMinutes == 35)
        #expect(dal.keywords == ["Weeknights"])
        #expect(dal.categories == ["Soups and stews"])
        #expect(
            dal.ingredients == ["250 g red lentils", "1 onion, chopped", "2 tsp curry powder", "400 ml coconut milk"])
        #expect(dal.steps.count == 3)
        #expect(dal.images.isEmpty)
        #expect(dal.fieldCensus.fate(of: "Cookbook") == .carried("tags"))
        #expect(dal.fieldCensus.fate(of: "Cook") == .carried("cookTime"))
        #expect(dal.fieldCensus.fate(of: "Image") == nil)
        let granola = try #require(sink.recipes.last?.0)
        #expect(granola.images == [.url("https://larder.example/images/maple-granola.jpg")])
        #expect(granola.servings == 8)
        #expect(granola.categories.isEmpty)
        #expect(granola.steps.last?.text == "Bake at 160 °C for 25 minutes, stirring once.")
        #expect(granola.extras.isEmpty)
    }

    @Test("a Cook: line inside the instructions stays a step; an unknown label is kept in extras; no title rejects")
    func blocksExtrasAndRejects() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("saffron.zip")
        try ImportFixtures.zip(
            [
                (
                    "Rice.txt",
                    Array(
                        ("Title: Rice\nCookingtime: 20 minutes\nCookbook: Basics\nIngredients: \n1 cup rice\n"
                            + "Instructions: \nRinse the rice.\nCook: covered, 18 minutes.\n").utf8)
                ),
                ("Nameless.txt", Array("Title: \nCookbook: Basics\nIngredients: \n1 egg\n".utf8)),
            ], at: path)
        #expect(try ImportFormat.detect(path: path) == .saffron)
        let sink = ImportCollector()
        try SaffronImporter().importItems(at: path, context: sink.context)
        let rice = try #require(sink.recipes.first?.0)
        #expect(rice.steps.map(\.text) == ["Rinse the rice.", "Cook: covered, 18 minutes."])
        #expect(rice.cookMinutes == nil)
        #expect(rice.fieldCensus.fate(of: "Cookingtime") == .extras)
        #expect(rice.extras["saffron"]?.objectValue?["Cookingtime"] == .string("20 minutes"))
        #expect(sink.rejects.map(\.1.entry) == ["Nameless.txt"])
        #expect(sink.rejects.first?.0.location?.fieldPath?.description == "Title")
        #expect(sink.rejects.first?.0.location?.line == 1)
    }

    @Test("detection tells Saffron from Pepperplate by their own labels")
    func detectsByLabels() throws {
        let dir = try TemporaryDirectory()
        let saffron = "Title: Tea\nSection: Drinks\nIngredients: \n1 tea bag\nInstructions: \nBrew.\n"
        #expect(try ImportFormat.detect(path: try dir.write("Tea.txt", saffron)) == .saffron)
        let pepperplate = "Title: Tea\nTotal: 5 minutes\nIngredients:\n\t1 tea bag\nInstructions:\n\tBrew.\n"
        #expect(try ImportFormat.detect(path: try dir.write("Tea2.txt", pepperplate)) == .pepperplate)
    }

    @Test("a re-run of the sample into the same output adds nothing")
    func reRunAddsNothing() throws {
        let dir = try TemporaryDirectory()
        let report = try ImportFixtures.expectReRunAddsNothing(
            ImportFixtures.sample("saffron-export.zip"), imports: 2, in: dir)
        #expect(report.census.records[.saffron] == 2)
    }
}
