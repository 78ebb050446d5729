import Foundation
public import LarderCore

/// Generates realistic synthetic records deterministically, for benchmarks and tests.
///
/// Record `i` depends only on the seed and `i`, so a corpus of any size is produced in
/// O(1) memory and the first n records of a larger corpus equal a smaller one.
public struct RecordGenerator: Sendable {
    /// The seed.
    public var seed: UInt64

    /// Creates a generator.
    public init(seed: UInt64 = 42) {
        self.seed = seed
    }

    private func rng(_ index: Int) -> SeededGenerator {
        SeededGenerator(seed: seed ^ (UInt64(index) &* 0x2545_F491_4F6C_DD1D))
    }

    /// Record `index` of type `type`, as a value of the current schema version.
    public func record(_ type: RecordType, index: Int) -> Value {
        switch type {
        case .recipe: recipe(index).value
        case .brewRecipe: brewRecipe(index).value
        case .brewLog: brewLog(index).value
        }
    }

    private static let base = Date(timeIntervalSince1970: 1_672_531_200)  // 2023-01-01

    private static func id(_ prefix: String, _ rng: inout SeededGenerator) -> String {
        let a = rng.next()
        let b = rng.next()
        func hex(_ v: UInt64, _ n: Int) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: max(0, n - s.count)) + s.suffix(n)
        }
        return
            "\(hex(a >> 32, 8))-\(hex(a >> 16 & 0xFFFF, 4))-4\(hex(a & 0xFFF, 3))-8\(hex(b >> 52, 3))-\(hex(b & 0xFFFF_FFFF_FFFF, 12))"
    }

    /// A cooking recipe.
    public func recipe(_ index: Int) -> Recipe {
        var g = rng(index)
        let dish = Vocabulary.dishes[Int(g.next() % UInt64(Vocabulary.dishes.count))]
        let style = Vocabulary.styles[Int(g.next() % UInt64(Vocabulary.styles.count))]
        let cuisine = Vocabulary.cuisines[Int(g.next() % UInt64(Vocabulary.cuisines.count))]
        let count = 4 + Int(g.next() % 9)
        var ingredients: [Ingredient] = []
        for _ in 0..<count {
            let item = Vocabulary.ingredients[Int(g.next() % UInt64(Vocabulary.ingredients.count))]
            let unit = Vocabulary.units[Int(g.next() % UInt64(Vocabulary.units.count))]
            let quantity = Double(1 + g.next() % 8) * (g.next() % 3 == 0 ? 0.5 : 1)
            let q = quantity.rounded() == quantity ? String(Int(quantity)) : String(quantity)
            let note = g.next() % 4 == 0 ? Vocabulary.notes[Int(g.next() % UInt64(Vocabulary.notes.count))] : nil
            let original = "\(q) \(unit.isEmpty ? "" : unit + " ")\(item)\(note.map { ", " + $0 } ?? "")"
            ingredients.append(
                Ingredient(
                    quantity: quantity, unit: unit.isEmpty ? nil : unit, item: item, note: note, original: original))
        }
        let stepCount = 3 + Int(g.next() % 6)
        var steps: [InstructionStep] = []
        for s in 0..<stepCount {
            let verb = Vocabulary.verbs[Int(g.next() % UInt64(Vocabulary.verbs.count))]
            let thing = ingredients[Int(g.next() % UInt64(ingredients.count))].item
            var timer: Int?
            if g.next() % 3 == 0 { timer = 60 * (1 + Int(g.next() % 30)) }
            let manner: String = Vocabulary.manners[Int(g.next() % UInt64(Vocabulary.manners.count))]
            steps.append(InstructionStep(text: "Step \(s + 1): \(verb) the \(thing) \(manner).", timerSeconds: timer))
        }
        let created = Self.base.addingTimeInterval(Double(g.next() % 60_000_000))
        let updated = created.addingTimeInterval(Double(g.next() % 5_000_000))
        let tags: [String] = (0..<Int(g.next() % 4)).map { _ -> String in
            Vocabulary.tags[Int(g.next() % UInt64(Vocabulary.tags.count))]
        }
        let diets = g.next() % 3 == 0 ? [Vocabulary.diets[Int(g.next() % UInt64(Vocabulary.diets.count))]] : []
        let id = Self.id("r", &g)
        return Recipe(
            id: id, title: "\(style) \(dish)", ingredients: ingredients, instructions: steps, createdAt: created,
            updatedAt: updated, ownerID: "_user\(g.next() % 5000)",
            imageRef: g.next() % 2 == 0 ? "images/\(id).jpg" : nil,
            cuisine: cuisine, difficulty: Recipe.Difficulty.allCases[Int(g.next() % 3)],
            prepTime: Int(5 + g.next() % 40), cookTime: Int(g.next() % 120), servings: Int(1 + g.next() % 8),
            dietaryNotes: diets, tags: Array(Set(tags)).sorted(), isPublic: g.next() % 2 == 0,
            sourceURL: g.next() % 3 == 0 ? "https://example.com/recipes/\(index)" : nil,
            isSaved: g.next() % 2 == 0, isCreated: g.next() % 2 == 0, isFavorited: g.next() % 5 == 0,
            sync: SyncMetadata(recordName: "recipe-\(id)"))
    }

    /// A brew recipe whose water additions sum to the target yield.
    public func brewRecipe(_ index: Int) -> BrewRecipe {
        var g = rng(index)
        let method = BrewMethod.allCases[Int(g.next() % 10)]
        let dose = Double(12 + g.next() % 10)
        let ratio = 15.0 + Double(g.next() % 30) / 10
        let yield = (dose * ratio).rounded()
        let bloom = (dose * 3).rounded()
        let pours = 1 + Int(g.next() % 3)
        var steps = [BrewStep(order: 1, instruction: "Rinse the filter and preheat", timerSeconds: 0)]
        steps.append(
            BrewStep(
                order: 2, instruction: "Bloom with \(Int(bloom)) g of water", timerSeconds: 30 + Int(g.next() % 16),
                waterGrams: bloom))
        var remaining = yield - bloom
        for p in 0..<pours {
            let amount = p == pours - 1 ? remaining : (remaining / Double(pours - p)).rounded()
            remaining -= amount
            steps.append(
                BrewStep(
                    order: steps.count + 1, instruction: "Pour \(Int(amount)) g in slow circles",
                    timerSeconds: 30 + Int(g.next() % 30), waterGrams: amount))
        }
        steps.append(
            BrewStep(order: steps.count + 1, instruction: "Let it draw down", timerSeconds: 45 + Int(g.next() % 45)))
        let created = Self.base.addingTimeInterval(Double(g.next() % 60_000_000))
        let id = Self.id("b", &g)
        return BrewRecipe(
            id: id,
            name:
                "\(Vocabulary.origins[Int(g.next() % UInt64(Vocabulary.origins.count))]) \(method.rawValue) #\(index)",
            method: method,
            isStarter: false, origin: g.next() % 10 == 0 ? .conflictedCopy : .custom, doseGrams: dose,
            targetYieldGrams: yield,
            waterTemperatureCelsius: Double(88 + g.next() % 9), grindLabel: GrindLabel.allCases[Int(g.next() % 7)],
            steps: steps,
            createdAt: created, updatedAt: created.addingTimeInterval(Double(g.next() % 100_000)),
            sync: SyncMetadata(recordName: "brewRecipe-\(id)"))
    }

    /// A brew log entry.
    public func brewLog(_ index: Int) -> BrewLog {
        var g = rng(index)
        let dose = Double(12 + g.next() % 10)
        let created = Self.base.addingTimeInterval(Double(g.next() % 60_000_000))
        let tags = (0..<Int(g.next() % 3)).map { _ in TasteTag.allCases[Int(g.next() % UInt64(TasteTag.allCases.count))]
        }
        let id = Self.id("l", &g)
        return BrewLog(
            id: id, method: BrewMethod.allCases[Int(g.next() % 10)],
            recipeNameAtBrew: Vocabulary.origins[Int(g.next() % UInt64(Vocabulary.origins.count))] + " pour-over",
            doseGrams: dose,
            targetYieldGrams: (dose * 16).rounded(), waterTemperatureCelsius: Double(88 + g.next() % 9),
            grindLabel: GrindLabel.allCases[Int(g.next() % 7)], rating: Int(1 + g.next() % 5),
            tasteTags: Array(Set(tags)).sorted { $0.rawValue < $1.rawValue },
            brewTimeSeconds: g.next() % 2 == 0 ? Int(150 + g.next() % 90) : nil,
            note: g.next() % 2 == 0
                ? Vocabulary.brewNotes[Int(g.next() % UInt64(Vocabulary.brewNotes.count))] as String? : nil,
            createdAt: created, recipeID: g.next() % 2 == 0 ? "starter-v60" : nil,
            sync: SyncMetadata(recordName: "brewLog-\(id)"))
    }
}

enum Vocabulary {
    static let dishes = [
        "Pasta Carbonara", "Chicken Tikka Masala", "Beef Stew", "Shakshuka", "Pad Thai", "Risotto", "Banana Bread",
        "Lentil Soup", "Fish Tacos", "Ratatouille", "Pancakes", "Caesar Salad", "Chili con Carne", "Miso Ramen",
        "Greek Moussaka", "Apple Crumble", "Falafel Wraps", "Paella", "Butter Chicken", "Minestrone", "Bibimbap",
        "Tiramisu", "Quiche Lorraine", "Pho", "Guacamole", "Goulash", "Focaccia", "Dal Tadka", "Gazpacho", "Jambalaya",
    ]
    static let styles = [
        "Classic", "Easy", "Weeknight", "Grandma's", "Smoky", "Spicy", "Vegan", "One-Pot", "Crispy", "Creamy",
        "Quick", "Slow-Cooker", "Rustic", "Lemony", "Herby", "Sheet-Pan",
    ]
    static let cuisines = [
        "Italian", "Indian", "French", "Mexican", "Thai", "Japanese", "Greek", "Spanish", "Korean", "American",
        "Middle Eastern",
    ]
    static let ingredients = [
        "all-purpose flour", "sugar", "unsalted butter", "eggs", "whole milk", "olive oil", "garlic", "yellow onion",
        "carrots", "celery", "canned tomatoes", "chicken thighs", "ground beef", "red lentils", "basmati rice",
        "spaghetti", "parmesan cheese", "heavy cream", "fresh basil", "cilantro", "lime juice", "soy sauce",
        "fish sauce", "ginger", "cumin", "smoked paprika", "chili flakes", "black pepper", "sea salt", "baking soda",
        "baking powder", "vanilla extract", "ripe bananas", "brown sugar", "chickpeas", "tahini", "lemon zest",
        "bell pepper", "zucchini", "eggplant", "mushrooms", "spinach", "coconut milk", "vegetable stock", "honey",
    ]
    static let units = ["g", "kg", "ml", "cup", "tablespoon", "teaspoon", "", "clove", "can", "pinch", "oz", "lb"]
    static let notes = [
        "finely chopped", "at room temperature", "divided", "plus more to taste", "drained and rinsed", "thinly sliced",
        "melted",
    ]
    static let verbs = [
        "Whisk", "Simmer", "Roast", "Fold in", "Sauté", "Season", "Stir", "Bake", "Chop", "Toast", "Blend", "Marinate",
    ]
    static let manners = [
        "until golden", "for a few minutes", "over medium heat", "until fragrant", "gently", "until smooth",
        "until just combined", "in batches", "until tender", "and set aside",
    ]
    static let tags = [
        "dinner", "breakfast", "dessert", "quick", "meal-prep", "family", "comfort", "summer", "holiday", "budget",
    ]
    static let diets = ["vegetarian", "vegan", "gluten-free", "dairy-free", "nut-free", "low-carb"]
    static let origins = [
        "Ethiopia Yirgacheffe", "Colombia Huila", "Kenya Nyeri", "Guatemala Antigua", "Brazil Cerrado",
        "Rwanda Nyamasheke", "Costa Rica Tarrazú",
    ]
    static let brewNotes = [
        "Bright and clean, a little sour at the end", "Grind one step finer next time", "Sweet, syrupy body",
        "Drawdown stalled at 3:45", "Great balance", "Too bitter, lower the temperature", "Juicy, notes of blueberry",
    ]
}
