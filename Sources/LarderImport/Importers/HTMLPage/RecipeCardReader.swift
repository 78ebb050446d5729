import LarderCore
import LarderFormats

/// Reads the recipe cards WordPress recipe plugins print (WP Recipe Maker, Tasty Recipes,
/// Mediavine Create, WP Ultimate Recipe, EasyRecipe, Zip Recipes, Jetpack, Cooked) by their class
/// names (or, for older Zip Recipes cards, their ids), into a schema.org-shaped `Recipe` object.
enum RecipeCardReader {
    /// The class names one plugin marks a card's parts with.
    struct Markup {
        var plugin: String
        var title: [String]
        var ingredients: Part
        var instructions: Part
        var groupNames: [String]
        var yield: [String]
        var summary: [String]
    }

    /// How a card marks a list: a container class, and the class of each item (`nil`: its `li`s).
    struct Part {
        var container: String
        var item: String?
    }

    static let known: [Markup] = [
        Markup(
            plugin: "WP Recipe Maker", title: ["wprm-recipe-name"],
            ingredients: Part(container: "wprm-recipe-ingredients-container", item: "wprm-recipe-ingredient"),
            instructions: Part(container: "wprm-recipe-instructions-container", item: "wprm-recipe-instruction-text"),
            groupNames: [
                "wprm-recipe-group-name", "wprm-recipe-ingredient-group-name", "wprm-recipe-instruction-group-name",
            ],
            yield: ["wprm-recipe-servings-with-unit", "wprm-recipe-servings"], summary: ["wprm-recipe-summary"]),
        Markup(
            plugin: "Tasty Recipes", title: ["tasty-recipes-title"],
            ingredients: Part(container: "tasty-recipes-ingredients", item: nil),
            instructions: Part(container: "tasty-recipes-instructions", item: nil), groupNames: [],
            yield: ["tasty-recipes-yield"], summary: ["tasty-recipes-description"]),
        Markup(
            plugin: "Mediavine Create", title: ["mv-create-title"],
            ingredients: Part(container: "mv-create-ingredients", item: nil),
            instructions: Part(container: "mv-create-instructions", item: nil), groupNames: [],
            yield: ["mv-create-yield"], summary: ["mv-create-description"]),
        Markup(
            plugin: "WP Ultimate Recipe", title: ["wpurp-recipe-title"],
            ingredients: Part(container: "wpurp-recipe-ingredients", item: "wpurp-recipe-ingredient"),
            instructions: Part(container: "wpurp-recipe-instructions", item: "wpurp-recipe-instruction-text"),
            groupNames: ["wpurp-recipe-ingredient-group", "wpurp-recipe-instruction-group"],
            yield: ["wpurp-recipe-servings"], summary: ["wpurp-recipe-description"]),
        Markup(
            plugin: "EasyRecipe", title: ["ERSName"],
            ingredients: Part(container: "ERSIngredients", item: "ingredient"),
            instructions: Part(container: "ERSInstructions", item: "instruction"), groupNames: ["ERSSectionHead"],
            yield: ["ERSServes"], summary: ["ERSSummary"]),
        Markup(
            plugin: "Zip Recipes", title: ["zrdn-recipe-title"],
            ingredients: Part(container: "zrdn-ingredients-list", item: nil),
            instructions: Part(container: "zrdn-instructions-list", item: nil),
            groupNames: ["zrdn-subtitle"], yield: ["zrdn-yield"],
            summary: ["zrdn-summary"]),
        // Zip Recipes before version 5 (ZipList): the parts are named by `id`.
        Markup(
            plugin: "Zip Recipes", title: ["zlrecipe-title"],
            ingredients: Part(container: "zlrecipe-ingredients-list", item: nil),
            instructions: Part(container: "zlrecipe-instructions-list", item: nil),
            groupNames: ["ingredient-label", "instruction-label"], yield: ["zlrecipe-yield"],
            summary: ["zlrecipe-summary"]),
        Markup(
            plugin: "Jetpack", title: ["jetpack-recipe-title"],
            ingredients: Part(container: "jetpack-recipe-ingredients", item: nil),
            instructions: Part(container: "jetpack-recipe-directions", item: nil), groupNames: [],
            yield: ["jetpack-recipe-servings"], summary: ["jetpack-recipe-notes"]),
        Markup(
            plugin: "Cooked", title: ["cooked-recipe-name"],
            ingredients: Part(container: "cooked-recipe-ingredients", item: "cooked-ing-name"),
            instructions: Part(container: "cooked-recipe-directions", item: "cooked-dir-content"),
            groupNames: ["cooked-heading"], yield: ["cooked-servings"], summary: ["cooked-recipe-excerpt"]),
    ]

    /// The first recipe card on the page, with the plugin's name; `nil` when there is none.
    static func recipe(in root: HTMLElement) -> (Value, plugin: String)? {
        for markup in known {
            guard root.first(where: { $0.isNamed(markup.ingredients.container) }) != nil else { continue }
            let lines = partLines(in: root, part: markup.ingredients, other: markup.instructions, markup: markup)
            guard !lines.isEmpty else { continue }
            var recipe: Value = ["@type": "Recipe"]
            if let title = text(in: root, classes: markup.title) { recipe.appendMember("name", .string(title)) }
            recipe.appendMember("recipeIngredient", .array(lines.map { .string($0) }))
            if root.first(where: { $0.isNamed(markup.instructions.container) }) != nil {
                let steps = partLines(in: root, part: markup.instructions, other: markup.ingredients, markup: markup)
                recipe.appendMember("recipeInstructions", .array(steps.map(step)))
            }
            if let yield = text(in: root, classes: markup.yield) { recipe.appendMember("recipeYield", .string(yield)) }
            if let summary = text(in: root, classes: markup.summary) {
                recipe.appendMember("description", .string(summary))
            }
            return (recipe, markup.plugin)
        }
        return nil
    }

    /// A group name (`"For the glaze:"`) becomes a section, anything else a step.
    private static func step(_ line: String) -> Value {
        if line.hasSuffix(":") {
            return ["@type": "HowToSection", "name": .string(String(line.dropLast())), "itemListElement": []]
        }
        return ["@type": "HowToStep", "text": .string(line)]
    }

    private static func text(in root: HTMLElement, classes: [String]) -> String? {
        for name in classes {
            if let element = root.first(where: { $0.isNamed(name) }), !element.flatText.isEmpty {
                return element.flatText
            }
        }
        return nil
    }

    /// The lines of every container of `part` on the page, in order.
    ///
    /// A card that closes its list for each group (Zip Recipes: `ul`, `h4.zrdn-subtitle`, `ul`) names the group between two
    /// containers: the last group name seen since the previous container (of either part) heads
    /// the next one.
    private static func partLines(in root: HTMLElement, part: Part, other: Part, markup: Markup) -> [String] {
        var lines: [String] = []
        var pendingGroup: String?
        root.walk { element in
            if element.isNamed(part.container) {
                if let group = pendingGroup { lines.append(group) }
                pendingGroup = nil
                lines += items(of: element, part: part, groupNames: markup.groupNames)
                return false
            }
            if element.isNamed(other.container) {
                pendingGroup = nil
                return false
            }
            if markup.groupNames.contains(where: { element.isNamed($0) }) {
                let name = element.flatText
                pendingGroup = name.isEmpty ? nil : (name.hasSuffix(":") ? name : name + ":")
                return false
            }
            return true
        }
        return lines
    }

    /// The container's items in order, group names as `"Name:"` lines.
    private static func items(of container: HTMLElement, part: Part, groupNames: [String]) -> [String] {
        var lines: [String] = []
        container.walk { element in
            if groupNames.contains(where: { element.isNamed($0) }) || ["h3", "h4", "h5"].contains(element.name) {
                let name = element.flatText
                // The card's own "Ingredients" / "Instructions" title is no group.
                let isPartTitle =
                    PageTextReader.names(name, PageTextReader.ingredientWords)
                    || PageTextReader.names(name, PageTextReader.instructionWords)
                if !name.isEmpty, !isPartTitle { lines.append(name.hasSuffix(":") ? name : name + ":") }
                return false
            }
            let isItem = part.item.map { element.isNamed($0) } ?? (element.name == "li")
            if isItem {
                let text = element.flatText
                if !text.isEmpty { lines.append(text) }
                return false
            }
            return true
        }
        return lines
    }
}
