import Foundation
import LarderCore

extension HTMLCookbookPage {
    /// A chapter of the book: its name (`nil`: the recipes no chapter took, or the whole book
    /// without chapters) and its recipes A–Z.
    struct Chapter {
        var name: String?
        var entries: [Entry]
    }

    /// The chapters of `entries` (title-only recipes left out: the book lists them at its end):
    /// one per first category, course or cuisine, A–Z, then the recipes without one.
    static func chapters(_ entries: [Entry], by grouping: CookbookLayout.Grouping) -> [Chapter] {
        let printed = entries.filter { !$0.titleOnly }
        func group(_ entry: Entry) -> String? {
            let names: [String]
            switch grouping {
            case .category: names = entry.categories
            case .course: names = entry.courses
            case .cuisine: names = entry.cuisines
            case .none: return nil
            }
            return names.lazy.map(\.trimmingWhitespace).first { !$0.isEmpty }
        }
        // Chapter names compare with case aside; the first spelling met names the chapter.
        var spelling: [String: String] = [:]
        var members: [String?: [Entry]] = [:]
        for entry in printed {
            var name: String?
            if let found = group(entry) {
                name = spelling[found.lowercased(), default: found]
                spelling[found.lowercased()] = name
            }
            members[name, default: []].append(entry)
        }
        let named = members.keys.compactMap { $0 }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        var chapters = named.map { Chapter(name: $0, entries: alphabetical(members[$0] ?? [])) }
        if let rest = members[nil] { chapters.append(Chapter(name: nil, entries: alphabetical(rest))) }
        return chapters
    }

    /// The book, `print.html`.
    ///
    /// A cover, the contents (each recipe under its chapter, with its page
    /// number when `pageNumbers` has it), the chapters (each recipe on a new sheet, A–Z), and the
    /// recipes with nothing but a title listed at the end. Page numbers and each chapter's name run
    /// in the page margins on paper.
    ///
    /// `pageNumbers` `nil` leaves the page column out (a browser's print decides the pages); an
    /// empty dictionary keeps its room with placeholders (the first of the PDF's two passes).
    static func book(
        _ entries: [Entry], layout: CookbookLayout, pageNumbers: [String: Int]?, article: (Entry) throws -> String
    ) rethrows -> String {
        let chapters = chapters(entries, by: layout.groupBy)
        let names = displayTitles(entries)
        let titleOnly = alphabetical(entries.filter(\.titleOnly))
        let printed = entries.count - titleOnly.count
        var body = "<nav><a href=\"index.html\">← All recipes</a></nav>\n<main class=\"book\">\n"
        body += "<section class=\"cover\">\n<h1>\(escape(layout.title))</h1>\n"
        body += "<p class=\"meta\">\(printed) recipe\(printed == 1 ? "" : "s")"
        let named = chapters.filter { $0.name != nil }.count
        if named > 0 { body += " in \(chapters.count) chapter\(chapters.count == 1 ? "" : "s")" }
        body += "</p>\n</section>\n<section class=\"toc\" aria-label=\"Contents\">\n<h1>Contents</h1>\n"
        for chapter in chapters {
            if named > 0 { body += "<h2>\(escape(chapter.name ?? otherRecipes))</h2>\n" }
            body += "<ol>\n"
            for entry in chapter.entries {
                body += "<li><a href=\"#\(entry.anchor)\"><span class=\"toc-title\">"
                body += escape(names[entry.anchor] ?? entry.title) + "</span>"
                if let pageNumbers {
                    let number = pageNumbers[entry.anchor].map(String.init)
                    body +=
                        "<span class=\"toc-page\">\(number ?? "<span style=\"visibility:hidden\">000</span>")</span>"
                }
                body += "</a></li>\n"
            }
            body += "</ol>\n"
        }
        if !titleOnly.isEmpty { body += "<h2><a href=\"#title-only\">Recipes with only a title</a></h2>\n" }
        body += "</section>\n"
        for (index, chapter) in chapters.enumerated() {
            body += "<section class=\"chapter\" style=\"page: chapter-\(index + 1)\">\n"
            if named > 0 { body += "<h1 class=\"chapter-title\">\(escape(chapter.name ?? otherRecipes))</h1>\n" }
            for entry in chapter.entries { body += try article(entry) }
            body += "</section>\n"
        }
        if !titleOnly.isEmpty {
            body += "<section class=\"title-only\" id=\"title-only\">\n<h1>Recipes with only a title</h1>\n"
            body += "<p class=\"meta\">These records have no ingredients, steps, description or notes.</p>\n<ul>\n"
            for entry in titleOnly { body += "<li>\(escape(names[entry.anchor] ?? entry.title))</li>\n" }
            body += "</ul>\n</section>\n"
        }
        body += "</main>\n<style>\n" + pageRules(layout: layout, chapters: chapters) + "</style>"
        return document(title: layout.title, language: nil, body: body)
    }

    /// The chapter of recipes without a category (course, cuisine).
    static let otherRecipes = "Other recipes"

    /// The book's `@page` rules: the paper, the page number at the foot of every page but the
    /// cover, the book's title at the head of the contents and each chapter's name at the head of
    /// its pages.
    static func pageRules(layout: CookbookLayout, chapters: [Chapter]) -> String {
        let margin = "font: 9pt Georgia, serif; color: #666;"
        var css = "@page { size: \(layout.paper.cssSize); margin: 2cm 1.8cm;\n"
        css += "  @top-center { content: \(cssString(layout.title)); \(margin) }\n"
        css += "  @bottom-center { content: counter(page); \(margin) } }\n"
        css += "@page cover { @top-center { content: none; } @bottom-center { content: none; } }\n"
        css += ".cover { page: cover; }\n"
        for (index, chapter) in chapters.enumerated() {
            let name = chapter.name ?? (chapters.count > 1 ? otherRecipes : layout.title)
            css += "@page chapter-\(index + 1) { @top-center { content: \(cssString(name)); \(margin) } }\n"
        }
        return css
    }

    /// `text` as a quoted CSS string: letters, digits, spaces and harmless punctuation as they are,
    /// everything else (quotes, backslashes, `<`, control characters) as a `\hex ` escape, so no
    /// record can end the string or the `<style>` element.
    package static func cssString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let punctuation = " -.,:;!?()'+/".unicodeScalars.contains(scalar)
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || punctuation {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\" + String(scalar.value, radix: 16) + " "
            }
        }
        return out + "\""
    }
}
