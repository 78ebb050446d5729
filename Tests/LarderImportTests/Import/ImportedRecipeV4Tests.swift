import Foundation
import LarderCore
import LarderImport
import LarderTestSupport
import Testing

/// `ImportedRecipe.makeRecipe` carries what importers read into recipe v4's fields, and
/// `ImportedRecipe(recipe:)` gives it back to the exporters.
@Suite struct ImportedRecipeV4Tests {
    private func imported() -> ImportedRecipe {
        var recipe = ImportedRecipe(title: "Focaccia")
        recipe.description = "Airy, olive-oily, crisp at the edges."
        recipe.author = "Maria Rossi"
        recipe.ingredients = ["500 g flour", "400 ml water", "3 tbsp olive oil", "1 tsp flaky salt"]
        recipe.ingredientHeadings = [0: "Dough", 2: "Topping"]
        recipe.steps = [
            .init(text: "Dough", isSection: true), .init(text: "Mix flour and water."),
            .init(text: "Rest overnight.", timerSeconds: 43_200), .init(text: "Bake", isSection: true),
            .init(text: "Dimple, drizzle and bake.", timerSeconds: 1_500), .init(text: "Serving", isSection: true),
        ]
        recipe.yieldText = "2 loaves"
        recipe.servings = 8
        recipe.prepMinutes = 30
        recipe.cookMinutes = 25
        recipe.totalMinutes = 780
        recipe.nutrition = ["calories": "240 kcal", "proteinContent": "6 g", "kcalPerSlice": "120"]
        recipe.notes = "Use strong bread flour if you have it."
        recipe.rating = 4.5
        recipe.categories = ["Bread", "bread", "Baking"]
        recipe.keywords = ["italian"]
        recipe.cuisine = "Italian"
        recipe.images = [.url("https://example.org/focaccia.jpg"), .url("https://example.org/focaccia-2.jpg")]
        recipe.extras = Fields([
            Field(key: "mealie", value: .object(Fields([Field(key: "slug", value: .string("focaccia"))])))
        ])
        return recipe
    }

    @Test(
        "makeRecipe fills description, author, nutrition, yield, total time, notes, rating, categories, sections, images, extras"
    )
    func fillsV4Fields() throws {
        let recipe = imported().makeRecipe(
            id: "f-1", imageRef: "https://example.org/focaccia.jpg", importedAt: fixtureDate)
        #expect(recipe.validate().isEmpty, "\(recipe.validate())")
        #expect(recipe.description == "Airy, olive-oily, crisp at the edges.")
        #expect(recipe.author == RecipeAuthor(name: "Maria Rossi"))
        #expect(recipe.nutrition?.calories == "240 kcal" && recipe.nutrition?.proteinContent == "6 g")
        #expect(recipe.nutrition?.text == "kcalPerSlice: 120", "a source's own nutrition names are kept as text")
        #expect(recipe.yield == Recipe.Yield(quantity: 2, unit: "loaves", text: "2 loaves"))
        #expect(recipe.servings == 8 && recipe.totalTime == 780)
        #expect(recipe.notes == [RecipeNote(text: "Use strong bread flour if you have it.")])
        #expect(recipe.rating == RecipeRating(score: 4.5, scale: 5))
        #expect(recipe.categories == ["Bread", "Baking"])
        #expect(recipe.tags == ["Bread", "Baking", "italian"], "tags still hold categories then keywords")
        #expect(recipe.cuisines == ["Italian"])
        #expect(recipe.ingredients.map(\.group) == ["Dough", "Dough", "Topping", "Topping"])
        #expect(recipe.instructions.map(\.name) == ["Dough", "Dough", "Bake", "Serving"])
        #expect(recipe.instructions.last?.text == "Serving", "a heading no step follows stays a step")
        #expect(
            recipe.images == [
                RecipeImage(url: "https://example.org/focaccia.jpg", isPrimary: true),
                RecipeImage(url: "https://example.org/focaccia-2.jpg"),
            ])
        #expect(recipe.extras["mealie"]?["slug"] == "focaccia")
    }

    @Test("what only restates servings or prep + cook is left to them; a single image is imageRef alone")
    func normalisesRedundantValues() {
        var source = imported()
        source.yieldText = "8 servings"
        source.totalMinutes = 55
        source.images = [.url("https://example.org/focaccia.jpg")]
        source.rating = 0
        let recipe = source.makeRecipe(id: "f-2", imageRef: "https://example.org/focaccia.jpg", importedAt: fixtureDate)
        #expect(recipe.yield == nil && recipe.servings == 8)
        #expect(recipe.totalTime == nil && recipe.prepTime == 30 && recipe.cookTime == 25)
        #expect(recipe.images.isEmpty && recipe.imageRef == "https://example.org/focaccia.jpg")
        #expect(recipe.rating == nil, "Paprika's 0 means not rated")
    }

    @Test("ImportedRecipe(recipe:) gives the v4 fields back, so makeRecipe of it is the same recipe")
    func readsBack() {
        let recipe = imported().makeRecipe(
            id: "f-1", imageRef: "https://example.org/focaccia.jpg", importedAt: fixtureDate)
        let back = ImportedRecipe(recipe: recipe)
        #expect(back.ingredientHeadings == [0: "Dough", 2: "Topping"])
        #expect(back.steps.filter(\.isSection).map(\.text) == ["Dough", "Bake", "Serving"])
        #expect(back.categories == ["Bread", "Baking"] && back.keywords == ["italian"])
        #expect(back.yieldText == "2 loaves" && back.totalMinutes == 780)
        #expect(back.description == recipe.description && back.author == "Maria Rossi")
        #expect(back.nutrition["calories"] == "240 kcal" && back.notes == "Use strong bread flour if you have it.")
        #expect(back.rating == 4.5 && back.images.count == 2)
        let again = back.makeRecipe(id: "f-1", imageRef: recipe.imageRef, importedAt: fixtureDate)
        #expect(again == recipe)
    }
}
