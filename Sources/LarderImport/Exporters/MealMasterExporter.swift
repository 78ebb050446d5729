import Foundation
package import LarderCore
import LarderFormats

/// Writes MealMaster: one text file (CRLF line endings, as MealMaster's DOS exports) holding every
/// recipe between a `MMMMM----- Recipe via Meal-Master` header line and an `MMMMM` end line.
///
/// Each recipe has its title, categories, and yield (`Yield:` with the yield text, else
/// `Servings:`), its ingredients in the one-column layout (quantity in 7 columns as fractions
/// such as `1 1/2`, the unit as a MealMaster code, the text wrapped into `-` continuation lines at
/// 79 columns), ingredient groups and step sections as `MMMMM-----Heading-----` lines, and the
/// directions as paragraphs wrapped at 79 columns. MealMaster has no place for the rest (times,
/// description, notes, images, step timers), which is left out. Normalisation, so that
/// ``MealMasterImporter`` reads back what it wrote: unit words become the code's word (`2
/// tablespoons` → `2 tbsp`), decimals fractions, and a quantity wider than 7 columns or a unit
/// with no code stays in the text; a capitalised word longer than 4 letters after the quantity is
/// text, not a unit (`1 Pinch of salt`, as MealMaster capitalises ingredient text).
package final class MealMasterExporter: RecipeExporter {
    private let sink: any ByteSink

    /// Opens the output file (written atomically) or standard output.
    package init(path: String?) throws {
        sink = try ExportSession.sink(path)
    }

    package func write(_ item: ExportItem) throws {
        try sink.write(Self.lines(item.recipe).map { $0 + "\r\n" }.joined())
    }

    package func finish() throws {
        try sink.close()
    }

    /// The lines of one recipe, header line to the blank line after its end line.
    package static func lines(_ recipe: Recipe) -> [String] {
        let imported = ImportedRecipe(recipe: recipe)
        var out = ["MMMMM----- Recipe via Meal-Master (tm) exported by Larder", ""]
        out.append("      Title: " + oneLine(recipe.title))
        out.append((" Categories: " + imported.categories.map(oneLine).joined(separator: ", ")).trimmingTrailingSpaces)
        if let text = recipe.yield?.text, !text.isEmpty {
            out.append("      Yield: " + oneLine(text))
        } else if let servings = recipe.servings {
            out.append("   Servings: \(servings)")
        }
        out.append("")
        for (index, line) in imported.ingredients.enumerated() {
            if let heading = imported.ingredientHeadings[index] { out.append(headingLine(heading)) }
            out += ingredientLines(line)
        }
        for step in imported.steps {
            out.append("")
            if step.isSection {
                out.append(headingLine(step.text))
            } else {
                out += wrap(oneLine(step.text), width: 79)
            }
        }
        out += ["", "MMMMM", ""]
        return out
    }

    /// A heading line, `MMMMM` and dashes around the text, 79 columns wide.
    static func headingLine(_ text: String) -> String {
        let label = oneLine(text)
        let dashes = max(10, 79 - 5 - label.count)
        let left = dashes / 2
        return "MMMMM" + String(repeating: "-", count: left) + label + String(repeating: "-", count: dashes - left)
    }

    /// One ingredient in the one-column layout, with continuation lines for long text.
    package static func ingredientLines(_ line: String) -> [String] {
        let (quantity, unit, text) = columns(line)
        let pieces = wrap(text, width: 67)
        let amount =
            String(repeating: " ", count: max(0, 7 - quantity.count)) + quantity + " "
            + unit.padding(toLength: 2, withPad: " ", startingAt: 0) + " "
        var out = [(amount + (pieces.first ?? "")).trimmingTrailingSpaces]
        for piece in pieces.dropFirst() {
            out.append(String(repeating: " ", count: 11) + "-" + piece)
        }
        return out
    }

    /// An ingredient line split into MealMaster's columns: quantity, unit code, text.
    package static func columns(_ line: String) -> (String, String, String) {
        var tokens = oneLine(line).split(separator: " ").map(String.init).map(spellFractions)
        tokens = tokens.flatMap { $0.split(separator: " ").map(String.init) }
        let leading = leadingQuantity(tokens)
        let quantity = leading?.text ?? ""
        var used = leading?.count ?? 0
        var unit = ""
        if used > 0, used < tokens.count {
            let word = tokens[used].lowercased()
            if word == "fl" || word == "fl.", used + 1 < tokens.count,
                MealMasterUnit.code(forWord: tokens[used + 1]) == "oz"
            {
                unit = "fl"
                used += 2
            } else if let code = MealMasterUnit.code(forWord: tokens[used]),
                tokens[used] == word || tokens[used].count <= 4
            {
                unit = code
                used += 1
            }
        }
        return (quantity, unit, tokens[used...].joined(separator: " "))
    }

    /// The quantity the first one or two tokens make (`1 1/2`, `2`), normalised, when it fits the
    /// 7-column quantity field, and how many tokens it took.
    static func leadingQuantity(_ tokens: [String]) -> (text: String, count: Int)? {
        for count in [2, 1] where count <= tokens.count {
            if let text = MealMasterQuantity.normalized(tokens[0..<count].joined(separator: " ")), text.count <= 7 {
                return (text, count)
            }
        }
        return nil
    }

    /// `1½` → `1 1/2`, `¾` → `3/4`.
    private static func spellFractions(_ token: String) -> String {
        let fractions: [Character: String] = [
            "½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8", "⅞": "7/8",
        ]
        guard let last = token.last, let fraction = fractions[last] else { return token }
        let whole = token.dropLast()
        return whole.isEmpty ? fraction : whole + " " + fraction
    }

    /// Text with line breaks and runs of spaces as single spaces.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Words wrapped into lines of at most `width` characters (a longer word has a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
