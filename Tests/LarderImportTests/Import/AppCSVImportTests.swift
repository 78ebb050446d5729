import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// App CSV exports read through their header profiles: Plan to Eat and MyRecipeBox.
@Suite struct AppCSVImportTests {
    private func read(_ path: String, as format: ImportFormat) throws -> ImportCollector {
        let collector = ImportCollector()
        try format.makeImporter().importItems(at: path, context: collector.context)
        return collector
    }

    @Test("Plan to Eat: `, Heading` lines head ingredient groups; source, cuisine, nutrition, rating and dates carried")
    func readsPlanToEat() throws {
        let collector = try read(ImportFixtures.sample("plantoeat-recipes.csv"), as: .plantoeat)
        #expect(collector.rejects.isEmpty)
        #expect(collector.titles == ["Chickpea Tikka Masala", "Lemon Drizzle Traybake"])
        let curry = try #require(collector.recipes.first?.0)
        #expect(curry.ingredients.first == "1 onion, diced")
        #expect(curry.ingredients.count == 5)
        #expect(curry.ingredientHeadings == [0: "Sauce", 3: "To finish"])
        #expect(curry.steps.count == 3)
        #expect(curry.categories == ["Main Course"])
        #expect(curry.cuisine == "Indian")
        #expect(curry.keywords == ["Vegetarian", "Freezer-Friendly", "Chickpeas"])
        #expect(curry.sourceName == "Larder test kitchen")
        #expect(curry.sourceURL == "https://larder.example/recipes/chickpea-tikka-masala")
        #expect(curry.images == [.url("https://plantoeat.example/recipes/41234567/tikka-large.jpg")])
        #expect(curry.prepMinutes == 15)
        #expect(curry.totalMinutes == 40)
        #expect(curry.servings == 4)
        #expect(curry.rating == 4)
        #expect(curry.nutrition["calories"] == "420")
        #expect(curry.nutrition["carbohydrateContent"] == "48")
        #expect(curry.createdAt == RecipeDate.parse("2024-02-11T19:02:44Z"))
        let extras = try #require(curry.extras["plantoeat"]?.objectValue)
        #expect(extras.keys == ["Url Host", "Public Url", "Private"])
        #expect(curry.fieldCensus.fate(of: "Calories") == .carried("nutrition"))
        #expect(curry.fieldCensus.fate(of: "Private") == .extras)
        #expect(curry.fieldCensus.fate(of: "Main Ingredient") == .carried("tags"))
        let cake = try #require(collector.recipes.last?.0)
        #expect(cake.yieldAsWritten == "16 squares")
        #expect(cake.nutrition.isEmpty)
    }

    @Test("MyRecipeBox: nutrition lines, ';' lists, favourite, video; the inactive time kept in extras")
    func readsMyRecipeBox() throws {
        let collector = try read(ImportFixtures.sample("myrecipebox.csv"), as: .myrecipebox)
        #expect(collector.rejects.isEmpty)
        #expect(collector.titles == ["Roasted Tomato Soup", "Overnight Oats"])
        let soup = try #require(collector.recipes.first?.0)
        #expect(soup.steps.count == 3)
        #expect(soup.categories == ["Soups", "Starters"])
        #expect(soup.keywords == ["Vegetarian", "Batch"])
        #expect(soup.isFavorite)
        #expect(soup.rating == 5)
        #expect(soup.videoURL == "https://video.larder.example/tomato-soup")
        #expect(soup.nutrition["carbohydrateContent"] == "14 g")
        #expect(soup.nutrition["saturatedFatContent"] == "1 g")
        #expect(soup.nutrition["servingSize"] == "1 bowl")
        #expect(soup.fieldCensus.fate(of: "nutrition") == .carried("nutrition"))
        let oats = try #require(collector.recipes.last?.0)
        #expect(!oats.isFavorite)
        #expect(oats.extras["myrecipebox"]?.objectValue?["inactiveTime"] == .string("480"))
        #expect(oats.totalMinutes == 485)
    }

    @Test("a row without a title is rejected with its line and field path; the rest import, and again on re-run")
    func rejectsRowAndReRuns() throws {
        let dir = try TemporaryDirectory()
        var text = try String(contentsOfFile: ImportFixtures.sample("myrecipebox.csv"), encoding: .utf8)
        text += ",no title here,5,,,,,1 egg,Boil it.,,,false,,,,,,,\n"
        let path = try dir.write("box.csv", text)
        let collector = try read(path, as: .myrecipebox)
        #expect(collector.titles.count == 2)
        let reject = try #require(collector.rejects.first)
        #expect(reject.0.location?.fieldPath?.description == "title")
        #expect(reject.0.location?.line == 26)
        let (first, _) = try ImportFixtures.session([path], in: dir)
        #expect(first.imported.count == 2)
        #expect(first.rejected.count == 1)
        let (second, records) = try ImportFixtures.session([path], in: dir)
        #expect(second.imported.isEmpty)
        #expect(second.duplicates.count == 2)
        #expect(records.count == 2)
    }

    @Test("a generic spreadsheet now reports its field census under csv")
    func genericCSVCensus() throws {
        let collector = try read(ImportFixtures.sample("recipes.csv"), as: .csv)
        let salad = try #require(collector.recipes.first?.0)
        #expect(salad.fieldCensus.fate(of: "Bewertung") == .extras)
        #expect(salad.fieldCensus.entries.contains { $0.fate == .carried("ingredients") })
    }
}
