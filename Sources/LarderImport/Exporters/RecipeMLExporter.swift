import Foundation
import LarderCore
import LarderFormats

/// Writes RecipeML 0.5: `<recipeml version="0.5">` holding one `<recipe>` per recipe with its
/// `head` (title, categories, yield, prep, cook and total times, source), `description`,
/// `equipment`, `ingredients` (`<ing>` with `<amt>` when the ingredient is structured, groups as
/// `<ing-div>`), `directions` (`<step>`s, sections as `<dir-div>`) and `nutrition`.
package final class RecipeMLExporter: RecipeExporter {
    private let sink: any ByteSink

    /// Opens the output (`nil`/`-`: standard output).
    package init(path: String?) throws {
        sink = try ExportSession.sink(path)
        try sink.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<recipeml version=\"0.5\">\n")
    }

    package func write(_ item: ExportItem) throws {
        try sink.write(Self.element(item.recipe))
    }

    package func finish() throws {
        try sink.write("</recipeml>\n")
        try sink.close()
    }

    static func escape(_ text: String) -> String {
        ExportText.escapeMarkup(text)
    }

    /// The `<recipe>` element of a recipe: `head` (title, categories from the tags, yield as
    /// written, preparation, cooking and total times, source with its name, author and URL as
    /// `srcitem`s, then `extras["recipeml"]`'s members), `description`, `equipment` (the tools),
    /// `ingredients` (groups as `ing-div`s
    /// with a `title`), `directions` (sections as `dir-div`s with a `title`) and `nutrition`.
    static func element(_ recipe: Recipe) -> String {
        var x = "  <recipe>\n    <head>\n"
        x += "      <title>\(escape(recipe.title))</title>\n"
        if !recipe.tags.isEmpty {
            x += "      <categories>" + recipe.tags.map { "<cat>\(escape($0))</cat>" }.joined() + "</categories>\n"
        }
        if let text = recipe.yield?.text ?? recipe.servings.map(String.init) {
            x += "      <yield>\(escape(text))</yield>\n"
        }
        let total = recipe.totalTime
        for (type, minutes) in [("Preparation", recipe.prepTime), ("Cooking", recipe.cookTime), ("Total", total)] {
            if let minutes {
                x +=
                    "      <preptime type=\"\(type)\"><time><qty>\(minutes)</qty><timeunit>minutes</timeunit></time></preptime>\n"
            }
        }
        let sources = [recipe.sourceURL, recipe.sourceName, recipe.author?.name].compactMap { $0 }
        if !sources.isEmpty {
            x += "      <source>" + sources.map { "<srcitem>\(escape($0))</srcitem>" }.joined() + "</source>\n"
        }
        x += extraHeadElements(recipe)
        x += "    </head>\n"
        if let description = recipe.description { x += "    <description>\(escape(description))</description>\n" }
        if !recipe.tools.isEmpty {
            x += "    <equipment>" + recipe.tools.map { "<tool>\(escape($0))</tool>" }.joined() + "</equipment>\n"
        }
        x += "    <ingredients>\n"
        var group: String?
        var inGroup = false
        for ingredient in recipe.ingredients {
            if ingredient.group != group {
                if inGroup { x += "      </ing-div>\n" }
                inGroup = ingredient.group != nil
                if let heading = ingredient.group { x += "      <ing-div><title>\(escape(heading))</title>\n" }
                group = ingredient.group
            }
            x += "      " + ing(ingredient) + "\n"
        }
        if inGroup { x += "      </ing-div>\n" }
        x += "    </ingredients>\n    <directions>\n"
        for section in ExportText.sections(recipe.instructions) {
            let steps = section.steps.map { "      <step>\(escape($0.text))</step>\n" }.joined()
            if let name = section.name {
                x += "      <dir-div><title>\(escape(name))</title>\n" + steps + "      </dir-div>\n"
            } else {
                x += steps
            }
        }
        x += "    </directions>\n"
        if let nutrition = ExportText.nutritionText(recipe.nutrition) {
            x += "    <nutrition>\(escape(nutrition))</nutrition>\n"
        }
        x += "  </recipe>\n"
        return x
    }

    /// The head elements Larder writes itself; `extras["recipeml"]` members by these names are not restored.
    static let ownedHeadElements: Set<String> = ["title", "categories", "yield", "preptime", "source"]

    /// The head elements that restore `extras["recipeml"]`.
    ///
    /// Each text or number member becomes an element of its name (`<subtitle>`, `<version>`), a
    /// list of texts one element each. Members whose name is not an XML name, that Larder writes
    /// itself, or that are objects are left out.
    static func extraHeadElements(_ recipe: Recipe) -> String {
        guard let extras = recipe.extras[ImportFormat.recipeml.rawValue]?.objectValue else { return "" }
        var x = ""
        for member in extras where isXMLName(member.key) && !ownedHeadElements.contains(member.key) {
            let values: [Value] = member.value.arrayValue ?? [member.value]
            for value in values {
                let text: String
                switch value {
                case .string(let s): text = s
                case .int(let i): text = String(i)
                case .double(let d): text = String(d)
                case .bool(let b): text = b ? "true" : "false"
                default: continue
                }
                x += "      <\(member.key)>\(escape(text))</\(member.key)>\n"
            }
        }
        return x
    }

    /// Whether `name` can name an XML element: a letter or `_` first, then letters, digits, `-`, `_`, `.`.
    static func isXMLName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
            !name.lowercased().hasPrefix("xml")
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "."
        }
    }

    /// One `<ing>`: structured only when the parts say exactly what the line says; else the line as written.
    private static func ing(_ ingredient: Ingredient) -> String {
        let line = ExportText.line(ingredient)
        let parts = [ingredient.quantity.map(Self.number), ingredient.unit, ingredient.item].compactMap { $0 }
            .joined(separator: " ")
        let rebuilt = parts + (ingredient.note.map { ", " + $0 } ?? "")
        guard let quantity = ingredient.quantity, rebuilt == line else {
            return "<ing><item>\(escape(line))</item></ing>"
        }
        var amount = "<amt><qty>\(Self.number(quantity))</qty>"
        if let unit = ingredient.unit { amount += "<unit>\(escape(unit))</unit>" }
        amount += "</amt>"
        let prep = ingredient.note.map { "<prep>\(escape($0))</prep>" } ?? ""
        return "<ing>\(amount)<item>\(escape(ingredient.item))</item>\(prep)</ing>"
    }

    private static func number(_ value: Double) -> String {
        Int(exactly: value).map { String($0) } ?? String(value)
    }
}
