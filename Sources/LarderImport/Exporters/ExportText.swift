import Foundation
import LarderCore
import LarderFormats

/// How the exporters turn Larder's fields into the text other apps hold: ingredient lines with
/// their group headings, steps grouped by section, durations, nutrition as lines, slugs.
enum ExportText {
    /// The recipe's ingredient lines in order, with `heading(group)` before the first line of each group.
    static func ingredientLines(_ recipe: Recipe, heading: (String) -> String) -> [String] {
        var lines: [String] = []
        var group: String?
        for ingredient in recipe.ingredients {
            if let name = ingredient.group, name != group { lines.append(heading(name)) }
            group = ingredient.group
            lines.append(line(ingredient))
        }
        return lines
    }

    /// An ingredient as the line the user wrote.
    static func line(_ ingredient: Ingredient) -> String {
        ingredient.original.isEmpty ? ingredient.item : ingredient.original
    }

    /// One run of steps under the same section name.
    struct Section {
        /// The section's heading, `nil` for steps outside any section.
        var name: String?
        /// The steps; empty for a heading no step follows (kept by Larder as a step named after itself).
        var steps: [InstructionStep]
    }

    /// The steps grouped into runs of the same `name`, in order.
    static func sections(_ steps: [InstructionStep]) -> [Section] {
        var result: [Section] = []
        for step in steps {
            if let last = result.last, last.name == step.name, step.name != nil {
                result[result.count - 1].steps.append(step)
            } else {
                result.append(Section(name: step.name, steps: [step]))
            }
        }
        // A heading no step follows comes back from the importers as a step named after itself.
        for index in result.indices {
            let section = result[index]
            if let name = section.name, section.steps.count == 1, section.steps[0].text == name,
                section.steps[0].timerSeconds == nil, section.steps[0].images.isEmpty
            {
                result[index].steps = []
            }
        }
        return result
    }

    /// `10 minutes`, `1 hour`, `1 hour 30 minutes`: a duration as apps that keep text show it.
    static func duration(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        let h = hours == 1 ? "1 hour" : "\(hours) hours"
        let m = rest == 1 ? "1 minute" : "\(rest) minutes"
        if hours == 0 { return m }
        return rest == 0 ? h : "\(h) \(m)"
    }

    /// The total time the recipe states, or preparation plus cooking when it states both.
    static func totalMinutes(_ recipe: Recipe) -> Int? {
        if let total = recipe.totalTime { return total }
        guard let prep = recipe.prepTime, let cook = recipe.cookTime else { return nil }
        // Times of Int.max minutes (a record edited by hand) have no total rather than overflow.
        let (sum, overflow) = prep.addingReportingOverflow(cook)
        return overflow ? nil : sum
    }

    /// What the recipe yields as one text: the yield as written, else `4 servings`.
    static func yieldText(_ recipe: Recipe) -> String? {
        recipe.yield?.text ?? recipe.servings.map { "\($0) serving\($0 == 1 ? "" : "s")" }
    }

    /// Nutrition as lines: the free text first, then `name: value` for each structured fact.
    static func nutritionText(_ nutrition: Nutrition?) -> String? {
        guard let nutrition else { return nil }
        var lines: [String] = []
        if let text = nutrition.text { lines.append(text) }
        for key in Nutrition.keys where key != "text" {
            if let value = nutrition[key] { lines.append("\(key): \(value)") }
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// The notes as one text: each note's title on its own line before it, notes a blank line apart.
    static func notesText(_ notes: [RecipeNote]) -> String? {
        guard !notes.isEmpty else { return nil }
        return notes.map { note in note.title.map { "\($0)\n\(note.text)" } ?? note.text }.joined(separator: "\n\n")
    }

    /// The rating on a five-star scale, rounded to whole stars; `nil` when that is not a number Int
    /// holds (a score of 1e300, or a scale so small the quotient is infinite).
    static func stars(_ rating: RecipeRating?) -> Int? {
        guard let rating, rating.scale > 0 else { return nil }
        return Int(rounding: rating.score / rating.scale * 5)
    }

    /// The URLs (or local references) of the recipe's images, the primary one first.
    static func imageLocations(_ recipe: Recipe) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        let ordered = recipe.images.filter(\.isPrimary) + recipe.images.filter { !$0.isPrimary }
        for location in ordered.compactMap({ $0.url ?? $0.ref }) + (recipe.imageRef.map { [$0] } ?? [])
        where seen.insert(location).inserted {
            result.append(location)
        }
        return result
    }

    /// The first remote image URL (primary first).
    static func remoteImageURL(_ recipe: Recipe) -> String? {
        imageLocations(recipe).first { $0.contains("://") }
    }

    /// A URL slug as Mealie makes them: lower case ASCII letters and digits joined by `-`.
    static func slug(_ title: String) -> String {
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var out = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                if pendingDash && !out.isEmpty { out += "-" }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return out.isEmpty ? "recipe" : String(out.prefix(100))
    }

    /// `name`, or `name (2)`, `name (3)`… the first one not in `taken` (compared without case); inserts it.
    static func unique(_ name: String, in taken: inout Set<String>, separator: String = " ") -> String {
        var candidate = name
        var n = 2
        while !taken.insert(candidate.lowercased()).inserted {
            candidate = separator == " " ? "\(name) (\(n))" : "\(name)\(separator)\(n)"
            n += 1
        }
        return candidate
    }

    /// The recipe's id when it is a UUID, else a UUID made from the id's SHA-256 (stable across exports).
    static func uuid(_ id: String) -> String {
        if let uuid = UUID(uuidString: id) { return uuid.uuidString.lowercased() }
        var bytes = Array(SHA256.hash(Array(id.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
        ]
        return parts.joined(separator: "-") + "-" + hex.dropFirst(20)
    }

    /// The first number in a text such as `240 kcal` or `12,5 g`.
    static func number(in text: String) -> Double? {
        var digits = ""
        for c in text {
            if c.isNumber || ((c == "." || c == ",") && !digits.isEmpty) {
                digits.append(c == "," ? "." : c)
            } else if !digits.isEmpty {
                break
            }
        }
        while digits.hasSuffix(".") { digits.removeLast() }
        return Double(digits)
    }

    /// `url` when it is an `http` or `https` address (after surrounding space), else nil: what an
    /// export may put in a link.
    static func webURL(_ url: String) -> String? {
        let trimmed = url.trimmingWhitespace
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
            !trimmed.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" })
        else { return nil }
        return trimmed
    }

    /// Text for XML or HTML: `&`, `<`, `>` and `"` (and `'` with `apostrophe`) as references, and
    /// the control characters XML 1.0 cannot hold (all below U+0020 but tab, line feed and carriage
    /// return) dropped.
    static func escapeMarkup(_ text: String, apostrophe: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'" where apostrophe: out += "&#39;"
            default:
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
