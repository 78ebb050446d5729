public import Foundation
public import LarderCore

/// A fixed instant for fixtures: 2024-03-01T08:00:00Z.
public let fixtureDate = Date(timeIntervalSince1970: 1_709_280_000)

extension Recipe {
    /// A valid recipe with defaults for every field a test does not care about.
    public static func make(
        id: String = "r-1", title: String = "Pasta Carbonara",
        ingredients: [Ingredient] = [
            Ingredient(quantity: 200, unit: "g", item: "spaghetti", original: "200 g spaghetti"),
            Ingredient(quantity: 2, item: "eggs", original: "2 eggs"),
        ],
        instructions: [InstructionStep] = [
            InstructionStep(text: "Boil the pasta", timerSeconds: 540), InstructionStep(text: "Mix"),
        ],
        createdAt: Date = fixtureDate, updatedAt: Date? = nil, ownerID: String? = "user-1", servings: Int? = 4,
        tags: [String] = ["italian"], isSaved: Bool = false, isCreated: Bool = true, sync: SyncMetadata = SyncMetadata()
    ) -> Recipe {
        Recipe(
            id: id, title: title, ingredients: ingredients, instructions: instructions, createdAt: createdAt,
            updatedAt: updatedAt, ownerID: ownerID, cuisine: "Italian", difficulty: .medium, prepTime: 15, cookTime: 20,
            servings: servings, tags: tags, isSaved: isSaved, isCreated: isCreated, sync: sync)
    }
}

extension BrewLog {
    /// A valid brew log with defaults.
    public static func make(
        id: String = "log-1", rating: Int = 4, note: String? = "Great balance", doseGrams: Double = 15
    ) -> BrewLog {
        BrewLog(
            id: id, method: .v60, recipeNameAtBrew: "V60 Starter", doseGrams: doseGrams, targetYieldGrams: 250,
            waterTemperatureCelsius: 94, grindLabel: .medium, rating: rating, tasteTags: [.balanced], note: note,
            createdAt: fixtureDate, recipeID: "starter-v60")
    }
}
