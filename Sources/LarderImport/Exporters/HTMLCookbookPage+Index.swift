import Foundation
import LarderCore
import LarderFormats

extension HTMLCookbookPage {
    /// The index page: every recipe, in title order, linked to its page, with its facts.
    static func index(_ entries: [Entry]) -> String {
        let sorted = entries.sorted {
            $0.title.localizedStandardCompare($1.title) == .orderedAscending
        }
        var body = "<main class=\"index\">\n<h1>Cookbook</h1>\n"
        body += "<p class=\"meta\">\(entries.count) recipe\(entries.count == 1 ? "" : "s")"
        body += " · <a href=\"print.html\">the whole cookbook on one page, to print</a></p>\n<ul>\n"
        for entry in sorted {
            body += "<li><a href=\"\(link(entry.file))\">\(escape(entry.title))</a>"
            if !entry.facts.isEmpty { body += " <span class=\"meta\">\(escape(entry.facts))</span>" }
            body += "</li>\n"
        }
        body += "</ul>\n</main>"
        return document(title: "Cookbook", language: nil, body: body)
    }

    /// `print.html`: every recipe's article (`articles`, in export order), each starting a new sheet on paper.
    static func printBook(articles: String) -> String {
        let body = "<nav><a href=\"index.html\">← All recipes</a></nav>\n<main class=\"book\">\n" + articles + "</main>"
        return document(title: "Cookbook", language: nil, body: body)
    }

    /// `cookbook.css`: a readable page on screen, and on paper one recipe per sheet with no
    /// navigation, links as plain text, and lists and table rows kept whole.
    static let stylesheet = """
        :root { --ink: #222; --muted: #666; --accent: #9c3d10; --rule: #ddd; }
        * { box-sizing: border-box; }
        body { font: 17px/1.5 Georgia, "Times New Roman", serif; color: var(--ink); max-width: 56rem;
               margin: 0 auto; padding: 1.5rem; }
        a { color: var(--accent); }
        nav { font-size: .9rem; margin-bottom: 1rem; }
        h1 { font-size: 2.2rem; line-height: 1.15; margin: .25rem 0 1rem; color: var(--accent); }
        h2 { font-size: 1rem; text-transform: uppercase; letter-spacing: .06em; color: var(--accent);
             border-bottom: 1px solid var(--rule); padding-bottom: .2rem; margin: 1.75rem 0 .75rem; }
        h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
        .photo { margin: 0 0 1rem; }
        .photo img { display: block; width: 100%; max-height: 26rem; object-fit: cover; border-radius: 6px; }
        .description p { font-style: italic; }
        .facts { display: flex; flex-wrap: wrap; gap: .5rem 2.5rem; margin: 1rem 0; padding: .75rem 0;
                 border-top: 1px solid var(--rule); border-bottom: 1px solid var(--rule); }
        .facts dt { font-size: .75rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
        .facts dd { margin: 0; font-weight: bold; }
        .columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 2fr); gap: 2.5rem; }
        .ingredients ul { padding-left: 1.1rem; }
        .ingredients li { margin: .25rem 0; }
        .steps ol { padding-left: 1.4rem; }
        .steps li { margin: .6rem 0; }
        .timer { color: var(--muted); white-space: nowrap; }
        .nutrition table { border-collapse: collapse; }
        .nutrition th, .nutrition td { text-align: left; padding: .15rem 1.5rem .15rem 0;
                                       border-bottom: 1px solid var(--rule); }
        .nutrition th { font-weight: normal; color: var(--muted); }
        .source { margin-top: 2rem; font-size: .9rem; color: var(--muted); }
        .index ul { list-style: none; padding: 0; columns: 2 18rem; column-gap: 2.5rem; }
        .index li { break-inside: avoid; margin: .35rem 0; }
        .meta { color: var(--muted); font-size: .85rem; }
        .book article + article { margin-top: 3rem; border-top: 1px solid var(--rule); padding-top: 1rem; }
        @media (max-width: 40rem) { .columns { grid-template-columns: 1fr; gap: 0; } }
        @media print {
          @page { margin: 1.6cm; }
          body { font-size: 11pt; max-width: none; padding: 0; }
          nav { display: none; }
          a { color: inherit; text-decoration: none; }
          .photo img { max-height: 9cm; }
          .columns { grid-template-columns: minmax(0, 1fr) minmax(0, 2fr); }
          h1, h2, h3 { break-after: avoid; }
          li, tr, figure, .facts { break-inside: avoid; }
          .book article + article { break-before: page; }
        }

        """
}
