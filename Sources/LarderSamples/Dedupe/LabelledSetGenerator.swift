import Foundation
package import LarderCore
package import LarderDedupe

/// One generated record with its ground truth.
package struct LabelledRecipe: Sendable {
    /// How a duplicate differs from the original.
    package enum Edit: String, Sendable, Hashable, CaseIterable {
        /// Another id (a second copy of the recipe).
        case otherID = "other-id"
        /// Title case, punctuation or whitespace changed.
        case titleFormatting = "title-formatting"
        /// Ingredient lines in another order.
        case reorderedIngredients = "reordered-ingredients"
        /// Some ingredient lines reworded (synonyms, units, descriptors, line shape).
        case rewordedIngredients = "reworded-ingredients"
        /// A note added (to an ingredient line, as a step, or a tag).
        case addedNote = "added-note"
        /// Servings changed, quantities scaled.
        case changedServings = "changed-servings"
        /// The same record (same id) in both the saved and the created set.
        case bothSets = "both-sets"
    }

    /// A different recipe that looks like an existing one and must stay apart.
    package enum NearMiss: String, Sendable, Hashable, CaseIterable {
        /// The same title, another dish ("Pancakes" and "Pancakes").
        case sameTitleDifferentDish = "same-title-different-dish"
        /// The same ingredient list, another dish (crêpes and Yorkshire pudding).
        case sameIngredientsDifferentDish = "same-ingredients-different-dish"
    }

    /// What the record is.
    package enum Kind: Sendable, Hashable {
        case original
        case duplicate([Edit])
        case nearMiss(NearMiss)
    }

    /// The record.
    package var recipe: Recipe
    /// The set it belongs to.
    package var role: DedupeInput.Role
    /// The true recipe it is: records with the same entity are duplicates of each other.
    package var entity: Int
    /// Original, duplicate (with its edits) or near-miss.
    package var kind: Kind
}

/// Generates labelled recipe sets for measuring dedupe: realistic recipes, duplicates with
/// every kind of edit, and near-misses that must stay apart, with the truth for each record.
///
/// Deterministic: the same seed and count give the same records on every machine. Streams:
/// each original is followed by its duplicates and near-misses, so nothing but a set of
/// title hashes (to keep originals' titles distinct) is held.
package struct LabelledSetGenerator: Sendable {
    /// The seed.
    package var seed: UInt64
    /// Records to generate (originals, duplicates and near-misses together).
    package var count: Int
    /// The fraction of records that are duplicates of another record.
    package var duplicateFraction = 0.10
    /// The fraction of records that are near-misses of another record.
    package var nearMissFraction = 0.03
    /// The user whose created recipes these are.
    package var ownerID = "_8c1f2a9d4e7b6c3a0f5e1d2c9b8a7f6e"

    package init(seed: UInt64, count: Int) {
        self.seed = seed
        self.count = count
    }

    /// Generates every record in order, handing each to `emit`.
    package func generate(_ emit: (LabelledRecipe) throws -> Void) rethrows {
        var rng = SeededRandom(seed: seed)
        var titles = Set<UInt64>()
        let originalsFraction = max(0.01, 1 - duplicateFraction - nearMissFraction)
        let duplicatesPerOriginal = duplicateFraction / originalsFraction
        let pDuplicate = min(1, duplicatesPerOriginal / 1.2)
        let pNearMiss = min(1, nearMissFraction / originalsFraction)
        var emitted = 0
        var entity = 0
        var editCycle = 0
        while emitted < count {
            let (original, parts) = makeOriginal(entity: entity, rng: &rng, titles: &titles)
            try emit(original)
            emitted += 1
            entity += 1
            if emitted < count && rng.chance(pDuplicate) {
                let copies = rng.chance(0.2) ? 2 : 1
                for _ in 0..<copies where emitted < count {
                    try emit(makeDuplicate(of: original, cycle: editCycle, rng: &rng))
                    editCycle += 1
                    emitted += 1
                }
            }
            if emitted < count && rng.chance(pNearMiss) {
                let kind: LabelledRecipe.NearMiss =
                    rng.chance(0.5) ? .sameTitleDifferentDish : .sameIngredientsDifferentDish
                try emit(makeNearMiss(kind, of: original, parts: parts, entity: entity, rng: &rng))
                entity += 1
                emitted += 1
            }
        }
    }

    /// Generates everything into memory (tests).
    package func generateAll() -> [LabelledRecipe] {
        var all: [LabelledRecipe] = []
        all.reserveCapacity(count)
        generate { all.append($0) }
        return all
    }

    // MARK: - Originals

    struct Parts {
        var dish: Int
        var main: String
        var flavor: Int
    }

    private func makeOriginal(entity: Int, rng: inout SeededRandom, titles: inout Set<UInt64>) -> (
        LabelledRecipe, Parts
    ) {
        var attempt = 0
        while true {
            attempt += 1
            let dishIndex = rng.int(0...(RecipeVocabulary.dishes.count - 1))
            let dish = RecipeVocabulary.dishes[dishIndex]
            let main = rng.pick(dish.isSweet ? RecipeVocabulary.sweetMains : RecipeVocabulary.savoryMains)
            let flavorChoices = RecipeVocabulary.flavors.indices.filter {
                RecipeVocabulary.flavors[$0].isSweet == dish.isSweet
            }
            let flavorIndex = rng.pick(flavorChoices)
            let flavor = RecipeVocabulary.flavors[flavorIndex]
            let adjective = rng.chance(0.45) ? rng.pick(RecipeVocabulary.adjectives) : nil
            let side = !dish.isSweet && rng.chance(0.2) ? rng.pick(RecipeVocabulary.sides) : nil
            let style = !dish.isSweet && rng.chance(0.4) ? rng.pick(RecipeVocabulary.styles) : nil
            let useFlavor = rng.chance(0.85)
            var words: [String] = []
            if let adjective { words.append(Self.field(adjective, 0)) }
            if let style { words.append(Self.field(style, 0)) }
            if useFlavor { words.append(flavor.name) }
            words.append(Self.field(main, 0))
            words.append(dish.name)
            var title = words.joined(separator: " ")
            if let side { title += " with \(side)" }
            if attempt > 20 { title += " No. \(attempt - 19)" }
            let key = CandidateTitleKey.hash(title)
            guard titles.insert(key).inserted else { continue }

            var specs: [String] = [Self.tail(main)]
            if useFlavor || rng.chance(0.5) { specs += flavor.ingredients }
            if let adjective, !Self.tail(adjective).isEmpty { specs.append(Self.tail(adjective)) }
            if let style {
                specs.append(Self.field(style, 1) + "|" + Self.field(style, 2))
                specs.append(Self.field(style, 3) + "|" + Self.field(style, 4))
            }
            for spec in dish.core where rng.chance(0.7) { specs.append(spec) }
            let extraCount = rng.int(3...6)
            for _ in 0..<extraCount {
                let extra = rng.pick(dish.isSweet ? RecipeVocabulary.sweetExtras : RecipeVocabulary.extras)
                if !specs.contains(extra) { specs.append(extra) }
            }
            if let side, let spec = RecipeVocabulary.sideIngredients[side] { specs.append(spec) }
            // Every cook measures differently.
            let ingredients = specs.map { Self.ingredient($0, scale: rng.pick([0.5, 0.75, 1, 1, 1, 1.25, 1.5, 2])) }
            let mainItem = Self.field(main, 2).lowercased()
            let steps = dish.steps.map { step in
                InstructionStep(
                    text: Self.fill(step, main: mainItem, flavor: flavor.name.lowercased()),
                    timerSeconds: rng.chance(0.3) ? rng.int(1...20) * 60 : nil)
            }
            let role: DedupeInput.Role = rng.chance(0.5) ? .created : .saved
            let created = Date(timeIntervalSince1970: 1_672_531_200 + Double(rng.int(0...(600 * 86_400))))
            let updated = created.addingTimeInterval(Double(rng.int(0...(60 * 86_400))))
            let id = rng.uuid()
            var tags = dish.tags
            if let adjective, rng.chance(0.5) { tags.append(Self.field(adjective, 0).lowercased()) }
            let vegetarian = [
                "Tofu", "Chickpea", "Lentil", "Mushroom", "Eggplant", "Cauliflower", "Halloumi", "Paneer", "Black Bean",
                "Tempeh", "Feta",
            ]
            var dietary: [String] = vegetarian.contains(Self.field(main, 0)) ? ["vegetarian"] : []
            if rng.chance(0.1) { dietary.append("gluten-free") }
            let slug = TextNormalizer.normalize(title).map { $0 == 0x20 ? UInt8(ascii: "-") : $0 }
            let recipe = Recipe(
                id: id, title: title, ingredients: ingredients, instructions: steps, createdAt: created,
                updatedAt: updated,
                ownerID: role == .created
                    ? ownerID : "_" + String(rng.next(), radix: 16) + String(rng.next(), radix: 16),
                imageRef: rng.chance(0.5) ? "images/\(id).jpg" : nil, cuisine: dish.cuisine,
                difficulty: rng.pick(Recipe.Difficulty.allCases), prepTime: rng.int(dish.prep),
                cookTime: rng.int(dish.cook),
                servings: rng.pick(dish.servings), dietaryNotes: dietary, tags: tags, isPublic: rng.chance(0.3),
                sourceURL: rng.chance(0.35)
                    ? "https://www.\(rng.pick(RecipeVocabulary.sites))/\(String(decoding: slug, as: UTF8.self))-\(entity)"
                    : nil,
                isSaved: role == .saved, isCreated: role == .created, isFavorited: rng.chance(0.1))
            return (
                LabelledRecipe(recipe: recipe, role: role, entity: entity, kind: .original),
                Parts(dish: dishIndex, main: main, flavor: flavorIndex)
            )
        }
    }

    // MARK: - Duplicates

    private func makeDuplicate(of original: LabelledRecipe, cycle: Int, rng: inout SeededRandom) -> LabelledRecipe {
        var recipe = original.recipe
        var edits: [LabelledRecipe.Edit] = []
        var role = original.role
        if cycle % 5 == 4 {
            edits.append(.bothSets)
            role = original.role == .created ? .saved : .created
            recipe.isFavorited = recipe.isFavorited || rng.chance(0.5)
        } else {
            edits.append(.otherID)
            recipe.id = rng.uuid()
            if recipe.imageRef != nil { recipe.imageRef = "images/\(recipe.id).jpg" }
            role = rng.chance(0.7) ? (original.role == .created ? .saved : .created) : original.role
            if let url = recipe.sourceURL {
                switch rng.int(0...5) {
                case 0: recipe.sourceURL = url.replacingOccurrences(of: "https://www.", with: "http://")
                case 1: recipe.sourceURL = url + "/"
                case 2: recipe.sourceURL = url + "?utm_source=pinterest&utm_medium=social"
                case 3: recipe.sourceURL = nil
                default: break
                }
            }
        }
        recipe.isSaved = role == .saved
        recipe.isCreated = role == .created
        // Every fourth duplicate gets one extra edit of each cycle position, so each kind is well covered.
        let pool: [LabelledRecipe.Edit] = [
            .titleFormatting, .reorderedIngredients, .rewordedIngredients, .addedNote, .changedServings,
        ]
        var chosen = [pool[cycle % pool.count]]
        for edit in pool where edit != chosen[0] && rng.chance(0.25) { chosen.append(edit) }
        if edits.contains(.bothSets) && rng.chance(0.5) { chosen = [] }
        for edit in chosen {
            switch edit {
            case .titleFormatting: recipe.title = Self.reformat(recipe.title, rng: &rng)
            case .reorderedIngredients: recipe.ingredients = rng.shuffled(recipe.ingredients)
            case .rewordedIngredients: recipe.ingredients = Self.reword(recipe.ingredients, rng: &rng)
            case .addedNote: Self.addNote(to: &recipe, rng: &rng)
            case .changedServings: Self.changeServings(of: &recipe, rng: &rng)
            default: break
            }
            edits.append(edit)
        }
        let shift = Double(rng.int(-20...40) * 86_400)
        recipe.updatedAt = max(recipe.createdAt, recipe.updatedAt.addingTimeInterval(shift))
        return LabelledRecipe(recipe: recipe, role: role, entity: original.entity, kind: .duplicate(edits))
    }

    private static func reformat(_ title: String, rng: inout SeededRandom) -> String {
        var t = title
        switch rng.int(0...5) {
        case 0: t = t.lowercased()
        case 1: t = t.uppercased()
        case 2: t = t.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "'", with: "")
        case 3: t = "  " + t.replacingOccurrences(of: " ", with: "  ") + " "
        case 4: t = t + "!"
        default: t = t.prefix(1).uppercased() + t.dropFirst().lowercased() + "."
        }
        return t
    }

    private static func reword(_ ingredients: [Ingredient], rng: inout SeededRandom) -> [Ingredient] {
        var result = ingredients
        let lines = min(result.count, rng.int(1...3))
        for index in rng.shuffled(Array(result.indices)).prefix(lines) {
            var ingredient = result[index]
            if let synonym = RecipeVocabulary.rewordings[ingredient.item], rng.chance(0.6) {
                ingredient.item = synonym
            } else {
                switch rng.int(0...2) {
                case 0:
                    ingredient.item =
                        ["fresh", "chopped", "large", "finely sliced"][rng.int(0...3)] + " " + ingredient.item
                case 1:
                    ingredient.unit = ingredient.unit.map {
                        ["tbsp": "tablespoons", "tsp": "teaspoons", "g": "grams", "ml": "millilitres"][$0] ?? $0
                    }
                default: break
                }
            }
            let quantity = ingredient.quantity.map(Self.formatQuantity) ?? ""
            let unit = ingredient.unit.map { " " + $0 } ?? ""
            // Half the time the line is turned around: "soy sauce, 2 tbsp".
            ingredient.original =
                rng.chance(0.5) ? "\(ingredient.item), \(quantity)\(unit)" : "\(quantity)\(unit) \(ingredient.item)"
            if rng.chance(0.15) { ingredient.item = ingredient.original }
            result[index] = ingredient
        }
        return result
    }

    private static func addNote(to recipe: inout Recipe, rng: inout SeededRandom) {
        switch rng.int(0...2) {
        case 0 where !recipe.ingredients.isEmpty:
            let index = rng.int(0...(recipe.ingredients.count - 1))
            let note = rng.pick(RecipeVocabulary.ingredientNotes)
            recipe.ingredients[index].note = note
            recipe.ingredients[index].original += " (\(note))"
        case 1:
            recipe.instructions.append(InstructionStep(text: rng.pick(RecipeVocabulary.stepNotes)))
        default:
            recipe.tags.append(["family favourite", "make again", "tried and tested", "party"][rng.int(0...3)])
        }
    }

    private static func changeServings(of recipe: inout Recipe, rng: inout SeededRandom) {
        let old = recipe.servings ?? 4
        let new = rng.chance(0.5) ? old * 2 : max(1, old == 1 ? 2 : old / 2)
        let factor = Double(new) / Double(old)
        recipe.servings = new
        recipe.ingredients = recipe.ingredients.map { ingredient in
            var scaled = ingredient
            guard let q = ingredient.quantity else { return scaled }
            scaled.quantity = q * factor
            let unit = scaled.unit.map { " " + $0 } ?? ""
            scaled.original = "\(formatQuantity(q * factor))\(unit) \(scaled.item)"
            return scaled
        }
    }

    // MARK: - Near-misses

    private func makeNearMiss(
        _ kind: LabelledRecipe.NearMiss, of original: LabelledRecipe, parts: Parts, entity: Int, rng: inout SeededRandom
    ) -> LabelledRecipe {
        var recipe = original.recipe
        recipe.id = rng.uuid()
        recipe.sourceURL = nil
        recipe.imageRef = nil
        let sameKind = RecipeVocabulary.dishes.indices.filter {
            $0 != parts.dish && RecipeVocabulary.dishes[$0].isSweet == RecipeVocabulary.dishes[parts.dish].isSweet
        }
        let other = RecipeVocabulary.dishes[rng.pick(sameKind)]
        let mainItem = Self.field(parts.main, 2).lowercased()
        recipe.instructions = other.steps.map {
            InstructionStep(text: Self.fill($0, main: mainItem, flavor: "seasoning"))
        }
        recipe.prepTime = rng.int(other.prep)
        recipe.cookTime = rng.int(other.cook)
        recipe.servings = rng.pick(other.servings)
        recipe.cuisine = other.cuisine
        recipe.tags = other.tags
        switch kind {
        case .sameTitleDifferentDish:
            // The same name for another dish: keeps the main ingredient, everything else differs.
            var specs = [Self.tail(parts.main)]
            specs += other.core
            for _ in 0..<rng.int(2...4) {
                specs.append(rng.pick(other.isSweet ? RecipeVocabulary.sweetExtras : RecipeVocabulary.extras))
            }
            recipe.ingredients = specs.map { Self.ingredient($0, scale: 1) }
            if rng.chance(0.3) { recipe.title = recipe.title.lowercased() }
        case .sameIngredientsDifferentDish:
            // The same shopping list cooked as another dish: only the main ingredient's name may repeat.
            let adjective = Self.field(rng.pick(RecipeVocabulary.adjectives), 0)
            recipe.title = rng.chance(0.5) ? "\(adjective) \(other.name)" : "\(Self.field(parts.main, 0)) \(other.name)"
            if rng.chance(0.5) { recipe.ingredients = rng.shuffled(recipe.ingredients) }
        }
        let role: DedupeInput.Role = rng.chance(0.5) ? .created : .saved
        recipe.isSaved = role == .saved
        recipe.isCreated = role == .created
        return LabelledRecipe(recipe: recipe, role: role, entity: entity, kind: .nearMiss(kind))
    }

    // MARK: - Specs

    /// A step template with `{main}` and `{flavor}` filled in.
    static func fill(_ template: String, main: String, flavor: String) -> String {
        guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            switch rest[rest.index(after: open)..<close] {
            case "main": out += main
            case "flavor": out += flavor
            default: out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    private static let fields: [String: [String]] = {
        var table: [String: [String]] = [:]
        let entries =
            RecipeVocabulary.savoryMains + RecipeVocabulary.sweetMains + RecipeVocabulary.adjectives
            + RecipeVocabulary.styles
        for entry in entries {
            table[entry] = entry.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
        return table
    }()

    /// Field `n` of a `|`-separated vocabulary entry.
    static func field(_ entry: String, _ n: Int) -> String {
        if let parts = fields[entry] { return n < parts.count ? parts[n] : "" }
        let parts = entry.split(separator: "|", omittingEmptySubsequences: false)
        return n < parts.count ? String(parts[n]) : ""
    }

    /// The ingredient spec after the first field (`Chicken|500 g|chicken breast` → `500 g|chicken breast`).
    static func tail(_ entry: String) -> String {
        guard let bar = entry.firstIndex(of: "|") else { return "" }
        return String(entry[entry.index(after: bar)...])
    }

    private struct Spec {
        var quantity: Double?
        var unit: String?
        var item: String
    }

    private static let specs: [String: Spec] = {
        var all =
            RecipeVocabulary.extras + RecipeVocabulary.sweetExtras + Array(RecipeVocabulary.sideIngredients.values)
        for dish in RecipeVocabulary.dishes { all += dish.core }
        for flavor in RecipeVocabulary.flavors { all += flavor.ingredients }
        for entry in RecipeVocabulary.savoryMains + RecipeVocabulary.sweetMains + RecipeVocabulary.adjectives {
            all.append(tail(entry))
        }
        var table: [String: Spec] = [:]
        for spec in all where table[spec] == nil { table[spec] = parse(spec) }
        return table
    }()

    static func ingredient(_ spec: String, scale: Double) -> Ingredient {
        let parsed = specs[spec] ?? parse(spec)
        let quantity = parsed.quantity.map { $0 * scale }
        var text = quantity.map(formatQuantity) ?? ""
        if let unit = parsed.unit { text += (text.isEmpty ? "" : " ") + unit }
        text += (text.isEmpty ? "" : " ") + parsed.item
        return Ingredient(quantity: quantity, unit: parsed.unit, item: parsed.item, original: text)
    }

    private static func parse(_ spec: String) -> Spec {
        let halves = spec.split(separator: "|", maxSplits: 1).map(String.init)
        let amount = halves.first?.split(separator: " ").map(String.init) ?? []
        let item = halves.count > 1 ? halves[1] : spec
        var quantity: Double?
        if let q = amount.first {
            if q.contains("/") {
                let nd = q.split(separator: "/").compactMap { Double($0) }
                if nd.count == 2, nd[1] != 0 { quantity = nd[0] / nd[1] }
            } else {
                quantity = Double(q)
            }
        }
        let unit = amount.count > 1 && amount[1] != "-" ? amount[1] : nil
        return Spec(quantity: quantity, unit: unit, item: item)
    }

    static func formatQuantity(_ q: Double) -> String {
        let whole = Int(q)
        let fraction = q - Double(whole)
        let part: String
        switch fraction {
        case 0.2..<0.3: part = "1/4"
        case 0.3..<0.4: part = "1/3"
        case 0.45..<0.55: part = "1/2"
        case 0.6..<0.7: part = "2/3"
        case 0.7..<0.8: part = "3/4"
        default: return fraction < 0.2 ? String(whole) : String(whole + 1)
        }
        return whole == 0 ? part : "\(whole) \(part)"
    }
}

/// Keeps generated originals' titles distinct after normalization.
enum CandidateTitleKey {
    static func hash(_ title: String) -> UInt64 {
        let key = RecordFeatures.titleKey(TextNormalizer.normalize(title))
        var words = key.split(separator: 0x20).map { StableHasher.hash($0) }
        words.sort()
        var hasher = StableHasher(seed: 0x67656E)
        for word in words { hasher.combine(word) }
        return hasher.finalize()
    }
}

extension LabelledRecipe {
    /// The truth label as a value: `{set, index, id, entity, kind, edits}`.
    package func labelValue(index: Int) -> Value {
        var b = ValueBuilder()
        b.set("set", role.rawValue)
        b.set("index", index)
        b.set("id", recipe.id)
        b.set("entity", entity)
        switch kind {
        case .original: b.set("kind", "original")
        case .duplicate(let edits):
            b.set("kind", "duplicate")
            b.set("edits", edits.map(\.rawValue))
        case .nearMiss(let nearMiss):
            b.set("kind", nearMiss.rawValue)
        }
        return b.value
    }
}
