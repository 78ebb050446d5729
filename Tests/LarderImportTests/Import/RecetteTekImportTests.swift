import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct RecetteTekImportTests {
    @Test("the sample .rtk: text lines, minutes as text, keywords, nutrition lines, the photo by file name")
    func importsSample() throws {
        let sink = ImportCollector()
        try RecetteTekImporter().importItems(at: ImportFixtures.sample("recettetek-backup.rtk"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.warnings.isEmpty)
        #expect(sink.titles == ["Soupe à l'oignon", "Citronnade"])
        let (soup, origin) = try #require(sink.recipes.first)
        #expect(origin.entry == "recipes.json")
        #expect(origin.index == 0)
        #expect(soup.ingredients.count == 5)
        #expect(soup.ingredients.first == "6 oignons")
        #expect(soup.steps.count == 3)
        #expect(soup.prepMinutes == 15)
        #expect(soup.cookMinutes == 45)
        #expect(soup.totalMinutes == 60)
        #expect(soup.servings == 4)
        #expect(soup.yieldAsWritten == "4 bols")
        #expect(soup.isFavorite)
        #expect(soup.rating == 5)
        #expect(soup.categories == ["Soupes", "Entrées"])
        #expect(soup.keywords == ["hiver", "gratin"])
        #expect(soup.nutrition["calories"] == "320 kcal")
        #expect(soup.nutrition["proteinContent"] == "12 g")
        #expect(soup.sourceURL == "https://larder.example/recettes/soupe-oignon")
        #expect(soup.notes == "Se prépare la veille.")
        guard case .data(let bytes, _)? = soup.images.first else {
            Issue.record("no photo read from the archive: \(soup.images)")
            return
        }
        #expect(bytes.prefix(2) == [0xFF, 0xD8])
        #expect(soup.fieldCensus.fate(of: "pictures") == .carried("images"))
        #expect(soup.fieldCensus.fate(of: "originalPicture") == .extras)
        let lemonade = try #require(sink.recipes.last?.0)
        #expect(lemonade.cookMinutes == nil)
        #expect(lemonade.rating == nil)
        #expect(!lemonade.isFavorite)
        #expect(lemonade.fieldCensus.fate(of: "rating") == .dropped("0: not rated"))
        #expect(lemonade.fieldCensus.fate(of: "inactiveTime") == .extras)
        #expect(lemonade.extras["recettetek"]?.objectValue?["inactiveTime"] == .string("60"))
    }

    @Test("a recipe without a title or a non-object is rejected with its entry, index and field path")
    func rejectsPerRecipe() throws {
        let dir = try TemporaryDirectory()
        let json =
            #"[{"title":"Tea","preparationTime":"5","cookingTime":"","instructions":"Brew.","ingredients":"tea","pictures":["/x/missing.jpg"]},"#
            + #"{"title":"","preparationTime":"1","cookingTime":"","instructions":"x"},"#
            + #""just text",{"title":"Toast","preparationTime":"","cookingTime":"2","instructions":"Toast it.","originalPicture":""}]"#
        let path = dir.path("backup.rtk")
        try ImportFixtures.zip([("recipes.json", Array(json.utf8))], at: path)
        #expect(try ImportFormat.detect(path: path) == .recettetek)
        let sink = ImportCollector()
        try RecetteTekImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tea", "Toast"])
        #expect(sink.rejects.map(\.1.index) == [1, 2])
        #expect(sink.rejects.map(\.1.entry) == ["recipes.json", "recipes.json"])
        #expect(sink.rejects.first?.0.location?.fieldPath?.description == "title")
        // A photo the archive lacks is a warning, and its path stays in extras.
        #expect(sink.warnings.count == 1)
        #expect(sink.recipes.first?.0.fieldCensus.fate(of: "pictures") == .extras)
    }

    @Test("recipes.json alone is detected by its keys; a re-run of the sample adds nothing")
    func detectsBareJSONAndReRuns() throws {
        let dir = try TemporaryDirectory()
        let bare = try dir.write(
            "recipes.json",
            #"[{"title":"Tea","preparationTime":"5","cookingTime":"","instructions":"Brew.","originalPicture":""}]"#)
        #expect(try ImportFormat.detect(path: bare) == .recettetek)
        try ImportFixtures.expectReRunAddsNothing(ImportFixtures.sample("recettetek-backup.rtk"), imports: 2, in: dir)
    }
}
