import Foundation
public import LarderCore
import LarderFormats

/// Writes RecipeML 0.5: `<recipeml version="0.5">` holding one `<recipe>` per recipe with its
/// `head` (title, categories, yield, prep and cook times, source), `ingredients` (`<ing>` with
/// `<amt>` when the ingredient is structured) and `directions` (`<step>`s).
public final class RecipeMLExporter: RecipeExporter {
    private let sink: any ByteSink

    /// Opens the output (`nil`/`-`: standard output).
    public init(path: String?) throws {
        sink = try ExportSession.sink(path)
        try sink.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<recipeml version=\"0.5\">\n")
    }

    public func write(_ item: ExportItem) throws {
        try sink.write(Self.element(item.recipe))
    }

    public func finish() throws {
        try sink.write("</recipeml>\n")
        try sink.close()
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                // Characters XML 1.0 cannot hold at all are dropped.
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The `<recipe>` element of a recipe.
    static func element(_ recipe: Recipe) -> String {
        var x = "  <recipe>\n    <head>\n"
        x += "      <title>\(escape(recipe.title))</title>\n"
        if !recipe.tags.isEmpty {
            x += "      <categories>" + recipe.tags.map { "<cat>\(escape($0))</cat>" }.joined() + "</categories>\n"
        }
        if let servings = recipe.servings { x += "      <yield>\(servings)</yield>\n" }
        for (type, minutes) in [("Preparation", recipe.prepTime), ("Cooking", recipe.cookTime)] {
            if let minutes {
                x +=
                    "      <preptime type=\"\(type)\"><time><qty>\(minutes)</qty><timeunit>minutes</timeunit></time></preptime>\n"
            }
        }
        if let url = recipe.sourceURL { x += "      <source><srcitem>\(escape(url))</srcitem></source>\n" }
        x += "    </head>\n    <ingredients>\n"
        for ingredient in recipe.ingredients {
            let line = ingredient.original.isEmpty ? ingredient.item : ingredient.original
            // Structured only when the parts say exactly what the line says; else the line as written.
            let parts = [ingredient.quantity.map(Self.number), ingredient.unit, ingredient.item].compactMap { $0 }
                .joined(separator: " ")
            let rebuilt = parts + (ingredient.note.map { ", " + $0 } ?? "")
            if let quantity = ingredient.quantity, rebuilt == line {
                var amount = "<amt><qty>\(Self.number(quantity))</qty>"
                if let unit = ingredient.unit { amount += "<unit>\(escape(unit))</unit>" }
                amount += "</amt>"
                let prep = ingredient.note.map { "<prep>\(escape($0))</prep>" } ?? ""
                x += "      <ing>\(amount)<item>\(escape(ingredient.item))</item>\(prep)</ing>\n"
            } else {
                x += "      <ing><item>\(escape(line))</item></ing>\n"
            }
        }
        x += "    </ingredients>\n    <directions>\n"
        for step in recipe.instructions { x += "      <step>\(escape(step.text))</step>\n" }
        x += "    </directions>\n  </recipe>\n"
        return x
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
