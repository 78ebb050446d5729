import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct BigOvenImportTests {
    private func read(_ path: String, as format: ImportFormat = .bigoven) throws -> ImportCollector {
        let sink = ImportCollector()
        try format.makeImporter().importItems(at: path, context: sink.context)
        return sink
    }

    @Test(
        "the sample's API JSON: heading ingredients as sections, structured lines, yield, times, rating, author, nutrition"
    )
    func importsJSON() throws {
        let sink = try read(ImportFixtures.sample("bigoven-recipes.json"))
        #expect(sink.rejects.isEmpty)
        #expect(sink.warnings.isEmpty)
        #expect(sink.titles == ["Smoky Black Bean Chili", "Lemon Ricotta Pancakes"])
        let chili = try #require(sink.recipes.first?.0)
        #expect(chili.nativeID == "900001")
        #expect(chili.ingredientHeadings == [0: "For the chili", 6: "To serve"])
        #expect(chili.ingredients.first == "2 tablespoons olive oil")
        #expect(chili.ingredients.last == "cilantro, chopped")
        #expect(chili.steps.count == 4)
        #expect(chili.categories == ["Main Dish", "Chili"])
        #expect(chili.keywords == ["Beans"])
        #expect(chili.cuisine == "Mexican")
        #expect(chili.servings == 6)
        #expect(chili.totalMinutes == 45 && chili.prepMinutes == 15)
        #expect(chili.rating == 4.5 && chili.ratingCount == 12)
        #expect(chili.author == "Larder Kitchen")
        #expect(chili.authorURL == "https://bigoven.example/user/larderkitchen")
        #expect(chili.nutrition["calories"] == "310.2 kcal")
        #expect(chili.nutrition["sodiumContent"] == "612 mg")
        #expect(chili.createdAt == RecipeDate.parse("2019-03-02T18:20:00Z"))
        #expect(chili.images == [.url("https://images.bigoven.example/image/upload/smoky-black-bean-chili.jpg")])
        let recipe = chili.makeRecipe(id: "chili", imageRef: nil, importedAt: fixtureDate)
        let tomatoes = try #require(recipe.ingredients.first { $0.original == "28 ounces crushed tomatoes" })
        #expect(tomatoes.quantity == 28)
        #expect(tomatoes.item == "crushed tomatoes")
        #expect(tomatoes.group == "For the chili")
        let beans = try #require(recipe.ingredients.first { $0.item == "black beans" })
        #expect(beans.note == "drained and rinsed")
        #expect(beans.unit == "can")
        let extras = try #require(chili.extras["bigoven"]?.objectValue)
        #expect(extras["IsPrivate"] == .bool(false))
        #expect(extras["Poster.UserID"] == .int(58001))
        #expect(extras["NutritionInfo.SodiumPct"] == .int(26))
        #expect(extras["Ingredients[1/10].MetricUnit"] == .string("ml"))
        #expect(extras["IngredientsTextBlock"] != nil)
        #expect(chili.fieldCensus.fate(of: "Ingredients") == .carried("ingredients"))
        #expect(chili.fieldCensus.fate(of: "Ingredients[].PreparationNotes") == .carried("ingredients"))
        #expect(chili.fieldCensus.fate(of: "NutritionInfo.TotalCalories") == .carried("nutrition"))
        #expect(chili.fieldCensus.fate(of: "MedalCount") == .extras)
        let pancakes = try #require(sink.recipes.last?.0)
        #expect(pancakes.rating == nil)
        #expect(pancakes.fieldCensus.fate(of: "StarRating") == .dropped("0: not rated"))
        #expect(pancakes.yieldAsWritten == "12 pancakes")
        #expect(pancakes.ingredientHeadings.isEmpty)
    }

    @Test("one object, and an API search response's Results, import; IngredientsTextBlock is read without Ingredients")
    func readsObjectAndEnvelope() throws {
        let dir = try TemporaryDirectory()
        let one = try dir.write(
            "one.json",
            #"{"RecipeID":7,"Title":"Toast","IngredientsTextBlock":"For the top:\n1 slice bread\nbutter","Instructions":"Toast.\nButter."}"#
        )
        #expect(try ImportFormat.detect(path: one) == .bigoven)
        let single = try read(one)
        #expect(single.titles == ["Toast"])
        #expect(single.recipes.first?.0.ingredients == ["1 slice bread", "butter"])
        #expect(single.recipes.first?.0.ingredientHeadings == [0: "For the top"])
        let envelope = try dir.write(
            "search.json",
            #"{"ResultCount":2,"Results":[{"RecipeID":8,"Title":"Tea","YieldNumber":1},{"RecipeID":9,"Title":"Jam"}]}"#)
        #expect(try ImportFormat.detect(path: envelope) == .bigoven)
        let results = try read(envelope)
        #expect(results.titles == ["Tea", "Jam"])
        #expect(results.recipes.map(\.1.index) == [0, 1])
    }

    @Test(
        "a recipe without a title, or with ingredients that are not a list of ingredients, is rejected with its index and field path"
    )
    func rejectsBadRecipes() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "bad.json",
            """
            [{"RecipeID":1,"Title":"Tea","Ingredients":[{"Name":"tea bag","Quantity":1,"DisplayQuantity":"1"}]},
             {"RecipeID":2,"Description":"no title"},
             {"RecipeID":3,"Title":"Jam","Ingredients":{"Name":"fruit"}},
             {"RecipeID":4,"Title":"Soup","Ingredients":[{"Name":"leek"},42]},
             "not a recipe",
             {"RecipeID":5,"Title":"Eggs","Ingredients":["2 eggs",{"IsHeading":true,"Name":"To finish"},{"Name":"salt"}]}]
            """)
        let sink = try read(path)
        #expect(sink.titles == ["Tea", "Eggs"])
        #expect(sink.rejects.map(\.1.index) == [1, 2, 3, 4])
        #expect(
            sink.rejects.map { $0.0.location?.fieldPath?.description } == [
                "Title", "Ingredients", "Ingredients[1]", nil,
            ])
        let eggs = try #require(sink.recipes.last?.0)
        #expect(eggs.ingredients == ["2 eggs", "salt"])
        #expect(eggs.ingredientHeadings == [1: "To finish"])
    }

    @Test(
        "the sample CSV (the API's names as headers) goes to BigOven by its header; --from csv reads it with the generic mapping"
    )
    func readsCSV() throws {
        let path = ImportFixtures.sample("bigoven-recipes.csv")
        #expect(try ImportFormat.detect(path: path) == .bigoven)
        let sink = try read(path)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Smoky Black Bean Chili", "Lemon Ricotta Pancakes"])
        let chili = try #require(sink.recipes.first?.0)
        #expect(chili.nativeID == "900001")
        #expect(chili.ingredientHeadings == [0: "For the chili", 6: "To serve"])
        #expect(chili.categories == ["Main Dish", "Chili"])
        #expect(chili.keywords == ["Beans"])
        #expect(chili.cuisine == "Mexican")
        #expect(chili.servings == 6 && chili.totalMinutes == 45 && chili.prepMinutes == 15)
        #expect(chili.rating == 4.5)
        #expect(chili.sourceURL == "https://bigoven.example/recipe/smoky-black-bean-chili/900001")
        #expect(chili.createdAt == RecipeDate.parse("2019-03-02T18:20:00Z"))
        #expect(chili.fieldCensus.fate(of: "YieldUnit") == .carried("yield"))
        let pancakes = try #require(sink.recipes.last?.0)
        #expect(pancakes.yieldAsWritten == "12 pancakes")
        #expect(pancakes.rating == nil)
        #expect(pancakes.fieldCensus.fate(of: "StarRating") == .extras)
        let generic = try read(path, as: .csv)
        #expect(generic.rejects.isEmpty)
        let row = try #require(generic.recipes.first?.0)
        #expect(row.ingredients.count == 10)
        #expect(row.totalMinutes == 45 && row.prepMinutes == 15)
        #expect(row.sourceURL == "https://bigoven.example/recipe/smoky-black-bean-chili/900001")
        #expect(row.extras["csv"]?.objectValue?["YieldNumber"] == .string("6"))
    }

    @Test(
        "a re-run of either sample into the same output adds nothing",
        arguments: ["bigoven-recipes.json", "bigoven-recipes.csv"])
    func reRunAddsNothing(_ name: String) throws {
        let dir = try TemporaryDirectory()
        let report = try ImportFixtures.expectReRunAddsNothing(ImportFixtures.sample(name), imports: 2, in: dir)
        #expect(report.census.records[.bigoven] == 2)
    }
}
