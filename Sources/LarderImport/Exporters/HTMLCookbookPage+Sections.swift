import Foundation
import LarderCore
import LarderFormats

extension HTMLCookbookPage {
    /// The ingredients, a list per section under the section's heading (nothing when there are none).
    static func ingredients(_ recipe: Recipe) -> String {
        guard !recipe.ingredients.isEmpty else { return "" }
        var runs: [(name: String?, lines: [String])] = []
        for ingredient in recipe.ingredients {
            let line = ExportText.line(ingredient)
            if let last = runs.last, last.name == ingredient.group {
                runs[runs.count - 1].lines.append(line)
            } else {
                runs.append((ingredient.group, [line]))
            }
        }
        var html = "<section class=\"ingredients\">\n<h2>Ingredients</h2>\n"
        for run in runs {
            if let name = run.name { html += "<h3>\(escape(name))</h3>\n" }
            html += "<ul>\n"
            html += run.lines.map { "<li itemprop=\"recipeIngredient\">\(lines($0))</li>\n" }.joined()
            html += "</ul>\n"
        }
        return html + "</section>\n"
    }

    /// The steps, numbered through the recipe, a list per section under its heading.
    static func steps(_ recipe: Recipe) -> String {
        guard !recipe.instructions.isEmpty else { return "" }
        var html = "<section class=\"steps\">\n<h2>Steps</h2>\n"
        var number = 1
        for section in ExportText.sections(recipe.instructions) {
            if let name = section.name { html += "<h3>\(escape(name))</h3>\n" }
            guard !section.steps.isEmpty else { continue }
            html += number == 1 ? "<ol>\n" : "<ol start=\"\(number)\">\n"
            for step in section.steps {
                var text = lines(step.text)
                if let seconds = step.timerSeconds, seconds > 0 {
                    let timer = seconds % 60 == 0 ? ExportText.duration(seconds / 60) : "\(seconds) seconds"
                    text += " <span class=\"timer\">(\(escape(timer)))</span>"
                }
                html += "<li itemprop=\"recipeInstructions\">\(text)</li>\n"
            }
            html += "</ol>\n"
            number += section.steps.count
        }
        return html + "</section>\n"
    }

    /// How each nutrition fact is labelled on a page.
    static let nutritionLabels: [(key: String, label: String)] = [
        ("servingSize", "Serving size"), ("calories", "Calories"), ("fatContent", "Fat"),
        ("saturatedFatContent", "Saturated fat"), ("transFatContent", "Trans fat"),
        ("unsaturatedFatContent", "Unsaturated fat"), ("cholesterolContent", "Cholesterol"),
        ("sodiumContent", "Sodium"), ("carbohydrateContent", "Carbohydrates"), ("sugarContent", "Sugar"),
        ("fiberContent", "Fibre"), ("proteinContent", "Protein"),
    ]

    /// Nutrition facts as a table, then the free text (nothing when there are none).
    static func nutrition(_ recipe: Recipe) -> String {
        guard let nutrition = recipe.nutrition, !nutrition.isEmpty else { return "" }
        var html = "<section class=\"nutrition\" itemprop=\"nutrition\" itemscope"
        html += " itemtype=\"https://schema.org/NutritionInformation\">\n<h2>Nutrition</h2>\n"
        let rows = nutritionLabels.compactMap { key, label in
            nutrition[key].map { "<tr><th>\(label)</th><td itemprop=\"\(key)\">\(escape($0))</td></tr>" }
        }
        if !rows.isEmpty { html += "<table>\n" + rows.joined(separator: "\n") + "\n</table>\n" }
        if let text = nutrition.text { html += paragraphs(text) + "\n" }
        return html + "</section>\n"
    }

    /// The notes, each under its title when it has one (nothing when there are none).
    static func notes(_ recipe: Recipe) -> String {
        guard !recipe.notes.isEmpty else { return "" }
        var html = "<section class=\"notes\">\n<h2>Notes</h2>\n"
        for note in recipe.notes {
            if let title = note.title { html += "<h3>\(escape(title))</h3>\n" }
            html += paragraphs(note.text) + "\n"
        }
        return html + "</section>\n"
    }

    /// Where the recipe comes from, who wrote it, and its tags (nothing when none is known).
    static func source(_ recipe: Recipe) -> String {
        var lines: [String] = []
        if let author = recipe.author {
            lines.append("By <span itemprop=\"author\">\(escape(author.name))</span>")
        }
        let name = recipe.sourceName ?? recipe.sourceURL
        if let url = recipe.sourceURL, isWebURL(url) {
            lines.append("From <a itemprop=\"url\" href=\"\(escape(url))\">\(escape(name ?? url))</a>")
        } else if let name {
            lines.append("From \(escape(name))")
        }
        let tags = recipe.categories + recipe.courses + recipe.cuisines + recipe.tags
        if !tags.isEmpty {
            var seen = Set<String>()
            let unique = tags.filter { seen.insert($0.lowercased()).inserted }
            lines.append("Tags: <span itemprop=\"keywords\">\(escape(unique.joined(separator: ", ")))</span>")
        }
        guard !lines.isEmpty else { return "" }
        return "<footer class=\"source\">\n" + lines.map { "<p>\($0)</p>" }.joined(separator: "\n") + "\n</footer>\n"
    }
}
