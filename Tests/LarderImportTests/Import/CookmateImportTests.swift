import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct CookmateImportTests {
    @Test("the sample .mcb: <li> and text-line ingredients and steps, free-text times, photo from images/, census")
    func importsSample() throws {
        let sink = ImportCollector()
        let path = ImportFixtures.sample("cookmate-backup.mcb")
        try CookmateImporter().importItems(at: path, context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.warnings.isEmpty)
        #expect(sink.titles == ["Gratin dauphinois", "Vinaigrette"])
        let gratin = try #require(sink.recipes.first)
        #expect(gratin.1.entry == "MyCookBook_Backup_2024-03-01.xml")
        #expect(gratin.1.index == 0)
        let recipe = gratin.0
        #expect(recipe.ingredients.first == "1 kg de pommes de terre.")
        #expect(recipe.ingredients.count == 5)
        #expect(recipe.steps.map(\.text).last == "Enfourner pour 1h15 environ.")
        #expect(recipe.steps.count == 4)
        #expect(recipe.prepMinutes == 20)
        #expect(recipe.cookMinutes == 75)
        #expect(recipe.totalMinutes == 95)
        #expect(recipe.servings == 6)
        #expect(recipe.yieldAsWritten == "6 personnes")
        #expect(recipe.rating == 4)
        #expect(recipe.categories == ["Plat", "Végétarien"])
        #expect(recipe.notes == "Meilleur réchauffé le lendemain.")
        #expect(recipe.sourceURL == "https://larder.example/recettes/gratin-dauphinois")
        #expect(recipe.sourceName == "Larder")
        #expect(recipe.language == "fr")
        guard case .data(let bytes, let ext)? = recipe.images.first else {
            Issue.record("no photo read from images/: \(recipe.images)")
            return
        }
        #expect(bytes.prefix(2) == [0xFF, 0xD8])
        #expect(ext == "jpg")
        #expect(recipe.images.count == 1)
        #expect(recipe.fieldCensus.fate(of: "imagepath") == .carried("images"))
        #expect(recipe.fieldCensus.fate(of: "imageurl") == .extras)
        #expect(
            recipe.extras["cookmate"]?.objectValue?["imageurl"] == .string("https://larder.example/photos/gratin.jpg"))
        #expect(recipe.fieldCensus.fate(of: "source") == .carried("sourceName"))
        #expect(recipe.fieldCensus.fate(of: "category") == .carried("categories"))
        let vinaigrette = try #require(sink.recipes.last?.0)
        #expect(
            vinaigrette.ingredients == [
                "1 c. à soupe de moutarde", "3 c. à soupe de vinaigre", "9 c. à soupe d'huile", "sel, poivre",
            ])
        #expect(vinaigrette.steps.count == 2)
        #expect(vinaigrette.prepMinutes == 5)
        #expect(vinaigrette.rating == nil)
        #expect(vinaigrette.fieldCensus.fate(of: "rating") == .dropped("0: not rated"))
        #expect(vinaigrette.fieldCensus.fate(of: "url") == nil)
    }

    @Test("a recipe without a title is rejected with its entry, index, line and field path; the rest import")
    func rejectsPerRecipe() throws {
        let dir = try TemporaryDirectory()
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <cookbook version="60">
            <recipe>
            <title>Tea</title>
            <ingredient>1 tea bag</ingredient>
            <recipetext>Brew.</recipetext>
            <serving>2</serving>
            </recipe>
            <recipe>
            <title> </title>
            <ingredient>water</ingredient>
            </recipe>
            <recipe>
            <title>Toast</title>
            <recipetext><li>Toast the bread.</li></recipetext>
            <imagepath>/mnt/sdcard/MyCookBook/images/Toast.jpg</imagepath>
            </recipe>
            </cookbook>
            """
        let path = dir.path("book.mcb")
        try ImportFixtures.zip([("book.xml", Array(xml.utf8))], at: path)
        #expect(try ImportFormat.detect(path: path) == .cookmate)
        let sink = ImportCollector()
        try CookmateImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tea", "Toast"])
        let reject = try #require(sink.rejects.first)
        #expect(sink.rejects.count == 1)
        #expect(reject.1.entry == "book.xml")
        #expect(reject.1.index == 1)
        #expect(reject.0.location?.fieldPath?.description == "title")
        #expect(reject.0.location?.line == 9)
        // An element Larder has no field for is kept; a photo the archive lacks is a warning and stays in extras.
        #expect(sink.recipes.first?.0.extras["cookmate"]?.objectValue?["serving"] == .string("2"))
        #expect(sink.warnings.count == 1)
        #expect(sink.recipes.last?.0.fieldCensus.fate(of: "imagepath") == .extras)
    }

    @Test("the cookbook XML alone is detected by its elements; a declared entity is never expanded")
    func readsBareXMLWithoutExpandingEntities() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "book.xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE cookbook [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]>\n"
                + "<cookbook version=\"60\"><recipe><title>Tea &b;</title><ingredient><li>tea</li></ingredient>"
                + "<recipetext><li>Brew.</li></recipetext></recipe></cookbook>\n")
        #expect(try ImportFormat.detect(path: path) == .cookmate)
        let sink = ImportCollector()
        try CookmateImporter().importItems(at: path, context: sink.context)
        let title = try #require(sink.recipes.first?.0.title)
        #expect(!title.contains("aaaaaaaaaa"))
        #expect(sink.recipes.first?.0.ingredients == ["tea"])
    }

    @Test(
        "a total time that is not prep + cook is kept, in every spelling Cookmate users write",
        arguments: [("1 heure 15", 75), ("1h10", 70), ("80 min", 80), ("21 minutes", 21), ("1 h 30", 90)])
    func totalTimeKept(total: String, minutes: Int) throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "book.xml",
            "<?xml version=\"1.0\"?>\n<cookbook version=\"60\"><recipe><title>Tea</title>"
                + "<preptime>10 min</preptime><cooktime>15 min</cooktime><totaltime>\(total)</totaltime>"
                + "<ingredient><li>tea</li></ingredient><recipetext><li>Brew.</li></recipetext></recipe></cookbook>\n")
        let sink = ImportCollector()
        try CookmateImporter().importItems(at: path, context: sink.context)
        let imported = try #require(sink.recipes.first?.0)
        #expect(imported.totalMinutes == minutes)
        #expect(imported.makeRecipe(id: "t", imageRef: nil, importedAt: Date()).totalTime == minutes)
        #expect(imported.fieldCensus.fate(of: "totaltime") == .carried("totalTime"))
    }

    @Test("re-running the import of the sample adds nothing")
    func reRunAddsNothing() throws {
        let dir = try TemporaryDirectory()
        let report = try ImportFixtures.expectReRunAddsNothing(
            ImportFixtures.sample("cookmate-backup.mcb"), imports: 2, in: dir)
        #expect(report.census.dropped(in: .cookmate).contains { $0.field == "rating" })
    }
}
