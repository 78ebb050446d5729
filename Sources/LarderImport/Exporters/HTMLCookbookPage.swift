import Foundation
import LarderCore
import LarderFormats

/// The HTML of the cookbook's pages (``HTMLCookbookExporter``): a recipe page, the index and
/// the stylesheet.
///
/// Every text from a record goes through ``escape(_:)``; links (`href`, `src`) are either files
/// the exporter wrote (percent-encoded) or `http(s)` URLs, so no record can add markup, a script
/// or a `javascript:` link.
package enum HTMLCookbookPage {
    /// A recipe in the index and the book.
    struct Entry {
        var title: String
        /// The page's file name.
        var file: String
        /// One line of facts: total time, yield.
        var facts: String
        /// Where the recipe comes from (its source's name, else its URL's host), to tell
        /// recipes with the same title apart.
        var source: String?
        /// The recipe's categories, courses and cuisines, for chapters.
        var categories: [String], courses: [String], cuisines: [String]
        /// Whether the recipe has nothing but a title (no ingredient, step, description or note).
        var titleOnly: Bool
        /// The article's anchor in the book (`r1`, `r2`, … in export order).
        var anchor: String
        /// Where the article's bytes are in the exporter's spool.
        var spool: Range<Int>

        init(recipe: Recipe, file: String, anchor: String, spool: Range<Int>) {
            title = recipe.title
            self.file = file
            facts = [ExportText.totalMinutes(recipe).map(ExportText.duration), ExportText.yieldText(recipe)]
                .compactMap { $0 }.joined(separator: " · ")
            source =
                recipe.sourceName.flatMap { $0.trimmingWhitespace.isEmpty ? nil : $0 }
                ?? recipe.sourceURL.flatMap { URLComponents(string: $0)?.host }
            categories = recipe.categories
            courses = recipe.courses
            cuisines = recipe.cuisines
            titleOnly =
                recipe.ingredients.isEmpty && recipe.instructions.isEmpty && recipe.notes.isEmpty
                && (recipe.description ?? "").trimmingWhitespace.isEmpty
            self.anchor = anchor
            self.spool = spool
        }
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, and the control
    /// characters HTML does not allow in text dropped (``ExportText/escapeMarkup(_:apostrophe:)``).
    static func escape(_ text: String) -> String {
        ExportText.escapeMarkup(text, apostrophe: true)
    }

    /// Escaped text with its line breaks as `<br>`.
    static func lines(_ text: String) -> String {
        escape(text.replacingAll("\r\n", with: "\n").trimmingWhitespace).replacingAll("\n", with: "<br>")
    }

    /// Text as paragraphs: blank lines separate them, single line breaks stay (`<br>`).
    static func paragraphs(_ text: String) -> String {
        text.replacingAll("\r\n", with: "\n").components(separatedBy: "\n\n")
            .filter { !$0.trimmingWhitespace.isEmpty }
            .map { "<p>\(lines($0))</p>" }
            .joined(separator: "\n")
    }

    /// A relative file path as an `href`/`src` value: percent-encoded, then escaped.
    static func link(_ file: String) -> String {
        escape(file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file)
    }

    /// The first `http(s)` image URL of the recipe, primary first.
    static func remotePhoto(_ recipe: Recipe) -> String? {
        ExportText.imageLocations(recipe).first { isWebURL($0) }
    }

    /// Whether `text` is an `http:` or `https:` URL (the only links a page makes from a record).
    static func isWebURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && !text.contains(where: \.isWhitespace)
    }

    /// A whole HTML document around `body`.
    static func document(title: String, language: String?, body: String) -> String {
        let lang = language.flatMap {
            $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } ? $0 : nil
        }
        return """
            <!DOCTYPE html>
            <html lang="\(lang ?? "en")">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="Larder">
            <title>\(escape(title))</title>
            <link rel="stylesheet" href="cookbook.css">
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
    }

    /// A recipe's page; `photo` is the image file the exporter wrote, or a web URL.
    static func page(_ recipe: Recipe, photo: String?) -> String {
        let body = "<nav><a href=\"index.html\">← All recipes</a></nav>\n" + article(recipe, photo: photo)
        return document(title: recipe.title, language: recipe.language, body: body)
    }

    /// A recipe's `<article>`: its page's content, and (with its `anchor`) its part of the book, `print.html`.
    static func article(_ recipe: Recipe, photo: String?, anchor: String? = nil) -> String {
        let id = anchor.map { " id=\"\($0)\"" } ?? ""
        var body = "<article class=\"recipe\"\(id) itemscope itemtype=\"https://schema.org/Recipe\">\n"
        body += "<h1 itemprop=\"name\">\(escape(recipe.title))</h1>\n"
        if let photo {
            let src = isWebURL(photo) ? escape(photo) : link(photo)
            body +=
                "<figure class=\"photo\"><img itemprop=\"image\" src=\"\(src)\" alt=\"\(escape(recipe.title))\"></figure>\n"
        }
        if let description = recipe.description, !description.trimmingWhitespace.isEmpty {
            body += "<div class=\"description\" itemprop=\"description\">\(paragraphs(description))</div>\n"
        }
        body += facts(recipe)
        body += "<div class=\"columns\">\n" + ingredients(recipe) + steps(recipe) + "</div>\n"
        body += nutrition(recipe) + notes(recipe) + source(recipe)
        return body + "</article>\n"
    }

    /// Times, yield, servings and difficulty as a definition list (nothing when none is known).
    static func facts(_ recipe: Recipe) -> String {
        var items: [String] = []
        func fact(_ label: String, _ value: String?, _ prop: String? = nil, minutes: Int? = nil) {
            guard let value, !value.isEmpty else { return }
            var dd = escape(value)
            if let prop, let minutes {
                dd = "<time itemprop=\"\(prop)\" datetime=\"\(RecipeTime.iso8601(minutes: minutes))\">\(dd)</time>"
            } else if let prop {
                dd = "<span itemprop=\"\(prop)\">\(dd)</span>"
            }
            items.append("<div><dt>\(label)</dt><dd>\(dd)</dd></div>")
        }
        fact("Prep", recipe.prepTime.map(ExportText.duration), "prepTime", minutes: recipe.prepTime)
        fact("Cook", recipe.cookTime.map(ExportText.duration), "cookTime", minutes: recipe.cookTime)
        let total = ExportText.totalMinutes(recipe)
        fact("Total", total.map(ExportText.duration), "totalTime", minutes: total)
        fact("Yield", ExportText.yieldText(recipe), "recipeYield")
        if recipe.yield != nil { fact("Servings", recipe.servings.map(String.init)) }
        fact("Difficulty", recipe.difficulty?.rawValue.capitalized)
        guard !items.isEmpty else { return "" }
        return "<dl class=\"facts\">\n" + items.joined(separator: "\n") + "\n</dl>\n"
    }
}
