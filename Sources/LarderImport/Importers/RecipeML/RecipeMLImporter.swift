import LarderCore
package import LarderFormats

/// Imports RecipeML 0.5 (`<recipeml>` with `<recipe>` elements, also inside `<menu>`).
///
/// Reads title, categories, yield, preparation and cooking times, source, ingredients (`<ing>`
/// with `<amt>`/`<qty>`/`<unit>`/`<item>`/`<prep>`, grouped by `<ing-div>`) and directions
/// (`<step>`s, `<dir-div>` sections, or plain text). Streams recipe by recipe; the encoding the
/// XML declaration names is honoured (Latin-1 included) and no DTD is ever fetched.
package struct RecipeMLImporter: RecipeImporter {
    package var format: ImportFormat { .recipeml }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let reader = try XMLSubtreeReader(source: try FileByteSource(path: path), recordElements: ["recipe"])
        var index = 0
        while let recipe = try reader.nextRecord() {
            let origin = ImportOrigin(file: path, index: index)
            index += 1
            try context.isolating(origin) {
                do {
                    try context.records.recipe(try Self.recipe(from: recipe), origin: origin)
                } catch let error as LarderError {
                    throw error.locatedAt(SourceLocation(line: recipe.line))
                }
            }
        }
        if index == 0 {
            let root = reader.rootName ?? "nothing"
            throw LarderError(
                .malformedRecord, "no <recipe> element found (the root element is <\(root)>)",
                location: SourceLocation(file: path))
        }
    }

    /// The recipe a `<recipe>` element describes.
    /// - Throws: ``LarderError`` `malformed-record` at `head.title` when it has no title.
    package static func recipe(from element: XMLElementNode) throws -> ImportedRecipe {
        let head = element.child("head")
        let title = (head?.child("title") ?? element.child("title"))?.text ?? ""
        guard !title.isEmpty else {
            throw LarderError(
                .malformedRecord, "the recipe has no <title>", location: SourceLocation(fieldPath: "head.title"))
        }
        var recipe = ImportedRecipe(title: title)
        if let head {
            recipe.categories = head.child("categories")?.children("cat").map(\.text).filter { !$0.isEmpty } ?? []
            if let yield = head.child("yield") {
                let text = yield.text
                recipe.yieldText = RecipeYield.normalized(text)
                recipe.yieldAsWritten = text
                recipe.servings = RecipeYield.servings(text)
            }
            for time in head.children("preptime") {
                let minutes = Self.minutes(time)
                switch (time.attributes["type"] ?? "").lowercased() {
                case let type where type.contains("cook") || type.contains("bak"): recipe.cookMinutes = minutes
                case let type where type.contains("total"): recipe.totalMinutes = minutes
                default: recipe.prepMinutes = recipe.prepMinutes ?? minutes
                }
            }
            let sources = head.child("source")?.children.map(\.text) ?? []
            recipe.sourceURL = sources.first { $0.hasPrefix("http") }
            let names = sources.filter { !$0.hasPrefix("http") && !$0.isEmpty }
            if !names.isEmpty { recipe.sourceName = names.joined(separator: ", ") }
            recipe.description = head.child("description")?.text
        }
        recipe.description = recipe.description ?? element.child("description")?.text
        if let ingredients = element.child("ingredients") { collectIngredients(ingredients, into: &recipe) }
        if let directions = element.child("directions") { collectDirections(directions, into: &recipe) }
        if let nutrition = element.child("nutrition")?.text, !nutrition.isEmpty { recipe.nutrition["text"] = nutrition }
        takeCensus(of: element, into: &recipe)
        return recipe
    }

    /// What the importer does with each element of a `<recipe>` and of its `<head>` (named
    /// `head/<element>`); any other element is kept in `extras.recipeml`, as Larder reads XML
    /// (text, or an object of its children and attributes).
    package static let fieldTable = FieldTable(
        .recipeml,
        [
            "head": .carried("title"), "head/title": .carried("title"), "title": .carried("title"),
            "head/categories": .carried("categories"), "head/yield": .carried("yield"),
            "head/source": .carried("sourceURL"), "head/description": .carried("description"),
            "description": .carried("description"), "ingredients": .carried("ingredients"),
            "directions": .carried("instructions"), "nutrition": .carried("nutrition"),
        ])

    private static func takeCensus(of element: XMLElementNode, into recipe: inout ImportedRecipe) {
        var fields = Fields()
        var lines: [FieldPath: Int] = [:]
        var fates: [String: FieldFate] = [:]
        func add(_ node: XMLElementNode, key: String) {
            guard !fields.contains(key: key) else { return }
            fields.append(key: key, value: node.plainValue(lines: &lines))
        }
        for child in element.children where child.name != "head" { add(child, key: child.name) }
        if let head = element.child("head") {
            for child in head.children {
                let key = "head/" + child.name
                add(child, key: key)
                if child.name == "preptime" {
                    let type = (child.attributes["type"] ?? "").lowercased()
                    fates[key] = .carried(
                        type.contains("cook") || type.contains("bak")
                            ? "cookTime" : type.contains("total") ? "totalTime" : "prepTime")
                }
            }
            if recipe.sourceURL == nil, recipe.sourceName != nil { fates["head/source"] = .carried("sourceName") }
            if head.child("description") != nil { fates["description"] = .extras }
        }
        recipe.takeCensus(of: fields, table: fieldTable.merging(fates))
    }

    private static func minutes(_ time: XMLElementNode) -> Int? {
        guard let t = time.child("time") else { return RecipeTime.minutes(from: time.text) }
        let quantity = t.child("qty")?.text ?? t.text
        let unit = (t.child("timeunit")?.text ?? "minutes").lowercased()
        guard let value = RecipeTime.readNumber(Array(quantity), 0)?.0 else { return nil }
        let minutes =
            unit.hasPrefix("h")
            ? value * 60 : unit.hasPrefix("d") ? value * 1440 : unit.hasPrefix("s") ? value / 60 : value
        return minutes > 0 ? Int(rounding: minutes) : nil  // past Int's range: none, kept in extras
    }

    private static func collectIngredients(_ node: XMLElementNode, into recipe: inout ImportedRecipe) {
        for child in node.children {
            switch child.name {
            case "ing":
                var parts: [String] = []
                if let amount = child.child("amt") {
                    parts.append(
                        contentsOf: [amount.child("qty")?.text, amount.child("unit")?.text].compactMap { $0 }.filter {
                            !$0.isEmpty
                        })
                }
                if let item = child.child("item")?.text, !item.isEmpty { parts.append(item) }
                var line = parts.joined(separator: " ")
                if let prep = child.child("prep")?.text, !prep.isEmpty { line += ", " + prep }
                if line.isEmpty { line = child.text }
                if !line.isEmpty { recipe.ingredients.append(line) }
            case "ing-div":
                if let heading = child.child("title")?.text, !heading.isEmpty {
                    recipe.ingredientHeadings[recipe.ingredients.count] = heading
                }
                collectIngredients(child, into: &recipe)
            default:
                break
            }
        }
    }

    private static func collectDirections(_ node: XMLElementNode, into recipe: inout ImportedRecipe) {
        let steps = node.children.filter { $0.name == "step" || $0.name == "dir-div" }
        guard !steps.isEmpty else {
            for line in ImportText.lines(node.ownText) {
                recipe.steps.append(.init(text: HTMLText.collapseWhitespace(line)))
            }
            return
        }
        for child in steps {
            if child.name == "dir-div" {
                if let heading = child.child("title")?.text, !heading.isEmpty {
                    recipe.steps.append(.init(text: heading, isSection: true))
                }
                collectDirections(child, into: &recipe)
            } else if !child.text.isEmpty {
                recipe.steps.append(.init(text: child.text))
            }
        }
    }
}

extension XMLElementNode {
    /// All the text inside the element, children included, whitespace collapsed.
    var text: String { HTMLText.collapseWhitespace(allText) }
}
