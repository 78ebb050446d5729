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

extension Recipe {
    /// A recipe with every v4 field filled: sections, step images, notes, nutrition, yield,
    /// author, rating, categories, two cuisines, tools, images, extras.
    public static func makeFull(id: String = "r-full") -> Recipe {
        var recipe = Recipe(
            id: id, title: "Pad Thai",
            ingredients: [
                Ingredient(
                    quantity: 200, unit: "g", item: "rice noodles", original: "200 g rice noodles", group: "Noodles"),
                Ingredient(
                    quantity: 2, unit: "tablespoons", item: "fish sauce", original: "2 tablespoons fish sauce",
                    group: "Sauce"),
                Ingredient(
                    quantity: 1, quantityMax: 2, unit: "tablespoons", item: "palm sugar", note: "grated",
                    original: "1-2 tablespoons palm sugar, grated", group: "Sauce"),
            ],
            instructions: [
                InstructionStep(text: "Soak the noodles in warm water.", timerSeconds: 1200, name: "Noodles"),
                InstructionStep(
                    text: "Stir the sauce together.", name: "Sauce",
                    images: [RecipeImage(url: "https://example.org/sauce.jpg")]),
                InstructionStep(text: "Toss everything in the wok.", timerSeconds: 180),
            ],
            createdAt: fixtureDate, updatedAt: fixtureDate.addingTimeInterval(86_400), ownerID: "user-1",
            imageRef: "images/r-full.jpg", difficulty: .medium, prepTime: 20, cookTime: 10, servings: 2,
            dietaryNotes: ["dairy-free"], tags: ["quick", "weeknight"], isPublic: true,
            sourceURL: "https://example.org/pad-thai", isSaved: true, isCreated: false, isFavorited: true,
            description: "Sweet, sour & salty: the street-food classic.",
            notes: [
                RecipeNote(title: "Swaps", text: "Use tofu instead of shrimp."), RecipeNote(text: "Serve at once."),
            ],
            nutrition: Nutrition(
                calories: "540 kcal", fatContent: "18 g", saturatedFatContent: "3 g", transFatContent: "0 g",
                unsaturatedFatContent: "12 g", cholesterolContent: "120 mg", sodiumContent: "1.2 g",
                carbohydrateContent: "72 g", sugarContent: "14 g", fiberContent: "3 g", proteinContent: "22 g",
                servingSize: "1 plate"),
            yield: Recipe.Yield(quantity: 2, unit: "plates", text: "2 plates"), totalTime: 45,
            author: RecipeAuthor(name: "Somchai", url: "https://example.org/somchai"),
            sourceName: "Example Street Food",
            rating: RecipeRating(score: 4.5, scale: 5, count: 210), categories: ["Noodles"], courses: ["Main course"],
            cuisines: ["Thai", "Street food"], tools: ["Wok", "Tongs"],
            images: [
                RecipeImage(ref: "images/r-full.jpg", url: "https://example.org/pad-thai.jpg", isPrimary: true),
                RecipeImage(url: "https://example.org/pad-thai-2.jpg"),
            ],
            language: "en-GB", videoURL: "https://example.org/pad-thai.mp4",
            reviews: ["Better than takeaway.", "Too sweet for me; halve the sugar."])
        recipe.extras = Fields([
            Field(
                key: "paprika",
                value: .object(
                    Fields([
                        Field(key: "hash", value: .string("e3b0c44298fc")),
                        Field(key: "photo_hash", value: .string("none")),
                    ]))),
            Field(key: "mealie", value: .object(Fields([Field(key: "slug", value: .string("pad-thai"))]))),
        ])
        return recipe
    }
}

extension BrewLog {
    /// A brew log with every v3 field filled: bean, grinder, bloom, water, TDS, extraction yield,
    /// photos, extras.
    public static func makeFull(id: String = "log-full") -> BrewLog {
        var log = BrewLog.make(id: id)
        log.brewTimeSeconds = 205
        log.bean = CoffeeBean(
            name: "Kenya Nyeri AA", roaster: "Square Mile", origin: "Kenya", variety: "SL28, SL34", process: "washed",
            roastLevel: "light", roastDate: "2024-02-20")
        log.grinder = Grinder(name: "Comandante C40", setting: "24 clicks")
        log.bloom = Bloom(waterGrams: 45, seconds: 40)
        log.water = BrewWater(name: "Third Wave Water", hardness: "68 ppm")
        log.tds = 1.38
        log.extractionYield = 20.6
        log.photos = ["images/log-full.jpg", "https://example.org/brew.jpg"]
        log.extras = Fields([
            Field(key: "beanconqueror", value: .object(Fields([Field(key: "mill_timer", value: .string("12 s"))])))
        ])
        return log
    }
}

extension BrewRecipe {
    /// The V60 starter with every v2 field filled.
    public static func makeFull() -> BrewRecipe {
        var recipe = BrewRecipe.v60Starter()
        recipe.brewTimeSeconds = 195
        recipe.bean = CoffeeBean(name: "House blend", roaster: "Friedhats", roastLevel: "medium-light")
        recipe.grinder = Grinder(name: "1Zpresso K-Ultra", setting: "6.5")
        recipe.bloom = Bloom(waterGrams: 45, seconds: 45)
        recipe.water = BrewWater(name: "tap, filtered", hardness: "4 dGH")
        recipe.tds = 1.35
        recipe.extractionYield = 20.5
        recipe.photos = ["images/starter.jpg"]
        recipe.extras = Fields([
            Field(key: "beanconqueror", value: .object(Fields([Field(key: "preparation", value: .string("V60"))])))
        ])
        return recipe
    }
}
