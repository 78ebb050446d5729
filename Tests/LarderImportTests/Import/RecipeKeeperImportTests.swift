import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct RecipeKeeperImportTests {
    @Test("the sample zip: item properties, numbered directions, course and categories, nutrients, the photo")
    func importsSample() throws {
        let sink = ImportCollector()
        try RecipeKeeperImporter().importItems(
            at: ImportFixtures.sample("recipekeeper-export.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Spaghetti Aglio e Olio", "Crème Caramel"])
        let pasta = try #require(sink.recipes.first)
        #expect(pasta.1.entry == "recipes.html")
        #expect(pasta.1.index == 0)
        let recipe = pasta.0
        #expect(recipe.larderID == "0f6d7e3a-91b2-4c55-8e0d-3b1f2a4c5d6e")
        #expect(recipe.isFavorite)
        #expect(recipe.rating == 4)
        #expect(recipe.categories == ["Main Dish", "Pasta", "Quick"])
        #expect(recipe.keywords == ["Weeknights"])
        #expect(recipe.sourceURL == "https://larder.example/recipes/aglio-e-olio")
        #expect(recipe.servings == 2)
        #expect(recipe.prepMinutes == 5)
        #expect(recipe.cookMinutes == 15)
        #expect(recipe.ingredients.count == 5)
        #expect(recipe.steps.map(\.text).first == "Cook the spaghetti in well-salted water until al dente.")
        #expect(recipe.steps.count == 3)
        #expect(recipe.notes == "Save a mug of pasta water before draining.")
        #expect(recipe.nutrition["calories"] == "610")
        #expect(recipe.nutrition["servingSize"] == "1 plate")
        guard case .data(let bytes, let ext)? = recipe.images.first else {
            Issue.record("the photo was not read from images/")
            return
        }
        #expect(bytes.prefix(2) == [0xFF, 0xD8])
        #expect(ext == "jpg")
        #expect(recipe.fieldCensus.fate(of: "photo0") == .carried("images"))
        #expect(recipe.fieldCensus.fate(of: "recipeShareId") == .extras)
        #expect(recipe.extras["recipekeeper"]?.objectValue?["recipeShareId"] == .string("k3JdP2"))
    }

    @Test("no time and no rating (PT0S, 0) are dropped with their reason; a source that is a name is the source name")
    func zeroValuesAndSourceName() throws {
        let sink = ImportCollector()
        try RecipeKeeperImporter().importItems(
            at: ImportFixtures.sample("recipekeeper-export.zip"), context: sink.context)
        let caramel = try #require(sink.recipes.last?.0)
        #expect(caramel.steps.first?.text == "Make a dark caramel with the sugar and pour it into the ramekins.")
        #expect(caramel.cookMinutes == nil)
        #expect(caramel.rating == nil)
        #expect(caramel.sourceName == "Grandmère's notebook")
        #expect(caramel.fieldCensus.fate(of: "cookTime") == .dropped("PT0S: Recipe Keeper's way of writing no time"))
        #expect(caramel.fieldCensus.fate(of: "recipeRating") == .dropped("0: not rated"))
        #expect(caramel.fieldCensus.fate(of: "recipeSource") == .carried("sourceName"))
        #expect(caramel.yieldAsWritten == "6 ramekins")
    }

    @Test("a card without a name is rejected with its entry, index and field path; a missing photo is a warning")
    func rejectsNamelessCard() throws {
        let dir = try TemporaryDirectory()
        let page = """
            <html><body>
            <div class="recipe-details"><h2 itemprop="name"> </h2>
            <div itemprop="recipeIngredients"><p>1 egg</p></div></div>
            <div class="recipe-details"><h2 itemprop="name">Boiled Egg</h2><img class="recipe-photo" src="images/gone.jpg">
            <div class="recipe-ingredients" itemprop="recipeIngredients"><p>1 egg</p></div>
            <div itemprop="recipeDirections"><p>1. Boil for 7 minutes.</p></div></div>
            </body></html>
            """
        let path = dir.path("export.zip")
        try ImportFixtures.zip([("recipes.html", Array(page.utf8))], at: path)
        #expect(try ImportFormat.detect(path: path) == .recipekeeper)
        let sink = ImportCollector()
        try RecipeKeeperImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Boiled Egg"])
        let reject = try #require(sink.rejects.first)
        #expect(reject.1.entry == "recipes.html")
        #expect(reject.1.index == 0)
        #expect(reject.0.location?.fieldPath?.description == "name")
        #expect(sink.warnings.contains { $0.contains("images/gone.jpg") })
        let loose = try dir.write("recipes.html", page)
        #expect(try ImportFormat.detect(path: loose) == .recipekeeper)
    }

    @Test("re-running the import adds nothing, and the photo is written once")
    func reRunIsIdempotent() throws {
        let dir = try TemporaryDirectory()
        let first = try ImportFixtures.expectReRunAddsNothing(
            ImportFixtures.sample("recipekeeper-export.zip"), imports: 2, in: dir)
        #expect(first.images == 1)
    }
}
