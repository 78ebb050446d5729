import Foundation
import LarderCore
import LarderFormats

extension HTMLCookbookPage {
    /// The index page: every recipe, in title order, linked to its page, with its facts; recipes
    /// with the same title are told apart by their source (``displayTitles(_:)``).
    static func index(_ entries: [Entry], title: String) -> String {
        let names = displayTitles(entries)
        var body = "<main class=\"index\">\n<h1>\(escape(title))</h1>\n"
        body += "<p class=\"meta\">\(entries.count) recipe\(entries.count == 1 ? "" : "s")"
        body += " · <a href=\"print.html\">the whole cookbook, to print</a></p>\n<ul>\n"
        for entry in alphabetical(entries) {
            body += "<li><a href=\"\(link(entry.file))\">\(escape(names[entry.anchor] ?? entry.title))</a>"
            if !entry.facts.isEmpty { body += " <span class=\"meta\">\(escape(entry.facts))</span>" }
            body += "</li>\n"
        }
        body += "</ul>\n</main>"
        return document(title: title, language: nil, body: body)
    }

    /// `entries` A–Z by title (numbers in titles by value), then by source, then in export order.
    static func alphabetical(_ entries: [Entry]) -> [Entry] {
        entries.enumerated().sorted { left, right in
            let order = left.element.title.localizedStandardCompare(right.element.title)
            if order != .orderedSame { return order == .orderedAscending }
            let sources = (left.element.source ?? "").localizedStandardCompare(right.element.source ?? "")
            if sources != .orderedSame { return sources == .orderedAscending }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// The title each entry is listed under, by anchor: its own, or, when other recipes have the
    /// same title (case aside), the title and its source (`Pancakes — Serious Eats`), and a number
    /// when the sources are the same too.
    static func displayTitles(_ entries: [Entry]) -> [String: String] {
        let key = { (entry: Entry) in entry.title.trimmingWhitespace.lowercased() }
        var counts: [String: Int] = [:]
        for entry in entries { counts[key(entry), default: 0] += 1 }
        var seen: [String: Int] = [:]
        var names: [String: String] = [:]
        for entry in alphabetical(entries) {
            guard counts[key(entry), default: 0] > 1 else {
                names[entry.anchor] = entry.title
                continue
            }
            let label = entry.title + (entry.source.map { " — \($0)" } ?? "")
            seen[label.lowercased(), default: 0] += 1
            let n = seen[label.lowercased(), default: 1]
            names[entry.anchor] = n == 1 ? label : "\(label) (\(n))"
        }
        return names
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
        .cover { text-align: center; padding: 4rem 0; }
        .cover h1 { font-size: 3rem; }
        .toc ol { list-style: none; padding: 0; margin: 0 0 1rem; }
        .toc li a { display: flex; gap: .75rem; color: inherit; text-decoration: none; padding: .1rem 0; }
        .toc-title { flex: 1; border-bottom: 1px dotted var(--rule); }
        .toc-page { min-width: 3em; text-align: right; font-variant-numeric: tabular-nums; }
        .chapter-title { font-size: 2.6rem; border-bottom: 2px solid var(--accent); padding-bottom: .3rem; }
        .title-only ul { columns: 2 16rem; }
        @media (max-width: 40rem) { .columns { grid-template-columns: 1fr; gap: 0; } }
        @media print {
          @page { margin: 1.6cm; }
          body { font-size: 11pt; max-width: none; padding: 0; }
          nav { display: none; }
          a { color: inherit; text-decoration: none; }
          .photo img { max-height: 9cm; }
          .columns { grid-template-columns: minmax(0, 1fr) minmax(0, 2fr); }
          h1, h2, h3 { break-after: avoid; }
          li, tr, figure, .facts, .ingredients, .nutrition { break-inside: avoid; }
          .book article + article { margin-top: 0; border-top: none; padding-top: 0; break-before: page; }
          .source { margin-top: 1rem; break-before: avoid; break-inside: avoid; }
          .cover { break-after: page; padding-top: 30%; }
          .toc { break-after: page; }
          .chapter, .title-only { break-before: page; }
          .toc h2 { break-after: avoid; }
        }

        """
}
