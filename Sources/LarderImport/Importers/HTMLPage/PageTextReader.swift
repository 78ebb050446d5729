import Foundation
import LarderCore
import LarderFormats

/// Reads a recipe from a page with no recipe markup at all.
///
/// The title is the last `h1` before the ingredients, else the first `h1`, `og:title` or
/// `title`; the ingredients are the list (or lines) after a heading such as "Ingredients" or
/// "Zutaten", else a list of quantities followed by steps; the instructions likewise after
/// "Instructions", "Method", "Zubereitung" and their kin, else what follows the ingredients.
enum PageTextReader {
    /// One piece of the page's running text.
    struct Block {
        enum Kind: Equatable {
            case heading(level: Int)
            case item
            case line
        }
        var kind: Kind
        var text: String
        /// Which list an item is in (0: none), so adjacent lists stay apart.
        var list = 0
    }

    static let ingredientWords = [
        "ingredients", "ingredient list", "zutaten", "ingrédients", "ingredientes", "ingredienti", "ingrediënten",
        "ingredienser", "ingredienten", "benodigdheden", "what you need", "what you'll need", "you will need",
        "you'll need", "材料",
    ]
    static let instructionWords = [
        "instructions", "directions", "method", "preparation", "zubereitung", "préparation", "preparación",
        "preparo", "modo de preparo", "preparazione", "procedimento", "bereiding", "bereidingswijze",
        "fremgangsmåde", "fremgangsmade", "steps", "how to make it", "how to make", "to make", "作り方", "做法", "作法",
        "get started", "recipe",
        "cooking instructions", "the method",
    ]
    /// Instruction headings that may also name something else (`Recipe: Carrots`, `Steps to a
    /// better kitchen`): read only when no other instruction heading has lines under it.
    static let weakInstructionWords: Set<String> = ["recipe", "steps", "to make", "get started", "how to make"]
    /// Headings that end a recipe's lists.
    static let otherWords = [
        "notes", "note", "tips", "nutrition", "comments", "related", "share", "you may also like", "reviews",
        "more recipes", "serving suggestions", "equipment", "leave a comment", "leave a reply", "rate this recipe",
        "print", "download pdf", "email", "people who like this dish", "facebook twitter",
    ]

    /// The page's recipe, or `nil` when it has no ingredient list under a heading.
    static func recipe(in root: HTMLElement) -> Value? {
        var blocks: [Block] = []
        if let body = root.first(where: { $0.name == "body" }) {
            flatten(body, into: &blocks, depth: 0)
        } else {
            flatten(root, into: &blocks, depth: 0)
        }
        let ingredientStart = blocks.indices.first {
            blocks[$0].kind != .item && names(blocks[$0].text, ingredientWords)
        }
        var ingredients = section(after: ingredientWords, in: blocks) ?? []
        // The instructions' heading after the ingredients' one, else anywhere.
        // Headings that name the method outright ("Directions") win over ones that may name
        // something else ("Recipe", "Steps", "To make").
        let strongWords = instructionWords.filter { !weakInstructionWords.contains($0) }
        var steps =
            section(after: strongWords, in: blocks, from: ingredientStart ?? 0)
            ?? section(after: strongWords, in: blocks)
            ?? section(after: instructionWords, in: blocks, from: ingredientStart ?? 0)
            ?? section(after: instructionWords, in: blocks) ?? []
        steps = steps.filter { !MarkupIngredientLines.isStepLabel($0) }
        if steps.isEmpty, let start = ingredientStart {
            // No heading over the steps: what follows the ingredients.
            steps = lines(after: section(from: start, in: blocks).end, in: blocks)
        }
        if ingredients.isEmpty, let list = quantityList(in: blocks) {
            // No heading: the list whose items start with quantities, and what follows it.
            if steps.isEmpty { steps = lines(after: list.upperBound, in: blocks) }
            // Without a heading, a list of numbers is a recipe only with steps after it.
            guard !steps.isEmpty else { return nil }
            ingredients = blocks[list].map(\.text)
            // A heading such as "Recipe: Carrots" over the list is no method heading: the steps follow the list.
            if steps == ingredients {
                steps = lines(after: list.upperBound, in: blocks)
                guard !steps.isEmpty else { return nil }
            }
        }
        guard !ingredients.isEmpty else { return nil }
        var recipe: Value = ["@type": "Recipe"]
        // Of several top headings, the last one before the ingredients names the recipe.
        let anchor = ingredientStart ?? quantityList(in: blocks)?.lowerBound ?? blocks.count
        let heading = blocks[..<anchor].last { $0.kind == .heading(level: 1) }?.text
        if let title = heading ?? title(of: root) { recipe.appendMember("name", .string(title)) }
        recipe.appendMember("recipeIngredient", .array(ingredients.map { .string($0) }))
        if let yield = blocks.lazy.compactMap({ yieldLine($0.text) }).first {
            recipe.appendMember("recipeYield", .string(yield))
        }
        for (member, words) in timeWords {
            if let time = blocks.lazy.compactMap({ timeFact($0.text, words: words) }).first {
                recipe.appendMember(member, .string(time))
            }
        }
        recipe.appendMember(
            "recipeInstructions", .array(steps.map { ["@type": "HowToStep", "text": .string($0)] }))
        return recipe
    }

    /// Words that open a line giving the yield ("Serves 4", "Makes: 12 muffins", "Portionen 4").
    static let yieldWords = [
        "serves", "servings", "serving", "yield", "yields", "makes", "portions", "portionen", "personen", "porties",
        "personnes", "porzioni", "raciones", "porciones",
    ]

    /// The yield a line gives (up to a `|` that starts the next fact), when it opens with a yield
    /// word and holds a number; `nil` otherwise.
    static func yieldLine(_ line: String) -> String? {
        let fact = String(line.prefix { $0 != "|" }).trimmingWhitespace
        guard fact.count < 60, fact.contains(where: \.isNumber) else { return nil }
        let lower = fact.lowercased().drop { !$0.isLetter }
        for word in yieldWords where lower.hasPrefix(word) {
            let next = lower.dropFirst(word.count).first
            if next == nil || next == ":" || next?.isWhitespace == true { return fact }
        }
        return nil
    }

    /// Words that open a line giving a time, by the schema.org member they give (longest first).
    static let timeWords: [(String, [String])] = [
        (
            "prepTime",
            ["preparation time", "prep time", "preparation", "prep", "temps de préparation", "vorbereitungszeit"]
        ),
        (
            "cookTime",
            [
                "cooking time", "cook time", "baking time", "bake time", "cooking", "cook", "temps de cuisson",
                "kochzeit", "backzeit",
            ]
        ),
        ("totalTime", ["total time", "ready in", "total", "temps total", "gesamtzeit"]),
    ]

    /// The time a line gives after one of `words` (`Prep time: 10 min` → `10 min`), looking at each
    /// `|`-separated fact of the line; `nil` when none opens with one of them and holds a number.
    static func timeFact(_ line: String, words: [String]) -> String? {
        for fact in line.split(separator: "|") {
            let trimmed = String(fact).trimmingWhitespace
            guard trimmed.count < 60, trimmed.contains(where: \.isNumber) else { continue }
            let lower = Substring(trimmed.lowercased()).drop { !$0.isLetter }
            for word in words where lower.hasPrefix(word) {
                let rest = lower.dropFirst(word.count)
                guard let next = rest.first, next == ":" || next.isWhitespace else { continue }
                let value = rest.drop { $0 == ":" || $0.isWhitespace }
                if value.first?.isNumber == true { return String(value) }
            }
        }
        return nil
    }

    /// The first `h1`, else `og:title` or the `title` without a trailing site name.
    static func title(of root: HTMLElement) -> String? {
        if let h1 = root.first(where: { $0.name == "h1" })?.flatText, !h1.isEmpty { return h1 }
        if let og = root.first(where: {
            $0.name == "meta" && ($0[attribute: "property"] == "og:title" || $0[attribute: "name"] == "og:title")
        })?[attribute: "content"].map(HTMLText.normalize), !og.isEmpty {
            return withoutSiteName(og)
        }
        if let title = root.first(where: { $0.name == "title" })?.flatText, !title.isEmpty {
            return withoutSiteName(title)
        }
        return nil
    }

    /// A page title without the site's name after it ("Green Shakshuka - Farmhouse Delivery").
    static func withoutSiteName(_ title: String) -> String {
        for separator in [" | ", " - ", " – ", " — ", " :: "] {
            if let range = title.range(of: separator, options: .backwards) {
                let head = String(title[..<range.lowerBound]).trimmingWhitespace
                if !head.isEmpty { return head }
            }
        }
        return title
    }

    private static let skipped: Set<String> = ["nav", "footer", "form", "aside"]

    /// The page's text as headings, list items and lines, in document order.
    static func flatten(_ element: HTMLElement, into blocks: inout [Block], depth: Int) {
        guard depth < HTMLDocument.maxDepth else { return }
        var pending = ""
        func flush() {
            for line in HTMLText.normalizeKeepingLines(pending).split(separator: "\n") {
                let text = HTMLElement.resolvingGroupMarks(String(line))
                if !text.isEmpty { blocks.append(Block(kind: .line, text: text)) }
            }
            pending = ""
        }
        for child in element.children {
            switch child {
            case .text(let text): pending += text.replacingAll("\n", with: " ")
            case .element(let e):
                if HTMLElement.hiddenNames.contains(e.name) || skipped.contains(e.name) { continue }
                if let level = ["h1", "h2", "h3", "h4", "h5", "h6"].firstIndex(of: e.name) {
                    flush()
                    let text = e.flatText
                    if !text.isEmpty { blocks.append(Block(kind: .heading(level: level + 1), text: text)) }
                } else if e.name == "li" || e.name == "dd" {
                    flush()
                    if e.first(where: { $0.name == "li" }) != nil {
                        flatten(e, into: &blocks, depth: depth + 1)
                    } else {
                        let text = e.flatText
                        if !text.isEmpty { blocks.append(Block(kind: .item, text: text)) }
                    }
                } else if e.name == "br" {
                    pending += "\n"
                } else if e.name == "ul" || e.name == "ol" {
                    flush()
                    let start = blocks.count
                    flatten(e, into: &blocks, depth: depth + 1)
                    for index in start..<blocks.count where blocks[index].list == 0 { blocks[index].list = start + 1 }
                } else if HTMLElement.blockNames.contains(e.name) {
                    flush()
                    flatten(e, into: &blocks, depth: depth + 1)
                } else if e.first(where: { HTMLElement.blockNames.contains($0.name) }) != nil {
                    flush()
                    flatten(e, into: &blocks, depth: depth + 1)
                } else if e.name == "strong" || e.name == "b" {
                    // A line all in bold with no digit names a group (see `resolvingGroupMarks`).
                    pending.append(HTMLElement.groupMarkStart)
                    pending += e.flatText
                    pending.append(HTMLElement.groupMarkEnd)
                } else {
                    pending += e.lineText.replacingAll("\n", with: " ")
                }
            }
        }
        flush()
    }

    /// The run of list items with the most lines starting with a quantity (at least three, and
    /// at least half of the run), or `nil`.
    static func quantityList(in blocks: [Block]) -> Range<Int>? {
        var best: (range: Range<Int>, score: Int)?
        var index = 0
        while index < blocks.count {
            guard blocks[index].kind == .item else {
                index += 1
                continue
            }
            let start = index
            while index < blocks.count, blocks[index].kind == .item, blocks[index].list == blocks[start].list {
                index += 1
            }
            let score = blocks[start..<index].filter { startsWithQuantity($0.text) }.count
            if score >= 3, score * 2 >= index - start, score > (best?.score ?? 0) { best = (start..<index, score) }
        }
        return best?.range
    }

    private static func startsWithQuantity(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        return first.properties.numericType != nil
    }

    /// The steps after a list that had no heading: the next run of list items, or the lines up
    /// to the next heading.
    static func lines(after end: Int, in blocks: [Block]) -> [String] {
        var lines: [String] = []
        var index = end
        while index < blocks.count, lines.count < 60 {
            let block = blocks[index]
            if isHeadingLike(block) || names(block.text, otherWords) { break }
            if block.kind == .item {
                if !lines.isEmpty { break }
                var items: [String] = []
                let list = block.list
                while index < blocks.count, blocks[index].kind == .item, blocks[index].list == list {
                    items.append(blocks[index].text)
                    index += 1
                }
                return items
            }
            lines.append(block.text)
            index += 1
        }
        return lines
    }

    /// Whether `text` is a heading naming one of `words` ("Ingredients", "INGREDIENTS:", "Ingredients for 4").
    static func names(_ text: String, _ words: [String]) -> Bool {
        var t = text.lowercased().replacingAll("\u{2019}", with: "'")
        while let last = t.last, last == ":" || last == "：" || last == " " || last == "." { t.removeLast() }
        // Headings often start with an emoji or a number.
        while let first = t.first, !first.isLetter { t.removeFirst() }
        guard t.count <= 60 else { return false }
        return words.contains { word in
            t == word || (t.hasPrefix(word + " ") && t.count <= word.count + 45) || t.hasPrefix(word + ":")
        }
    }

    /// Whether `line` starts with a bullet typed as text (`- `, `• `, `* `, `– `).
    static func hasTypedBullet(_ line: String) -> Bool {
        guard let first = line.first, "-•*–·▪".contains(first) else { return false }
        return line.dropFirst().first?.isWhitespace ?? false
    }

    private static func isHeadingLike(_ block: Block) -> Bool {
        if case .heading = block.kind { return true }
        return false
    }

    /// The lines under the first heading naming one of `words`.
    ///
    /// Its list items, or its lines when it has no list, up to the next heading of the same or a higher level or a heading
    /// naming another part of the recipe. A deeper heading becomes a group line (`"For the sauce:"`).
    static func section(after words: [String], in blocks: [Block], from first: Int = 0) -> [String]? {
        let starts = blocks.indices.filter { $0 >= first && blocks[$0].kind != .item && names(blocks[$0].text, words) }
        var best: [String]?
        for start in starts {
            let lines = section(from: start, in: blocks).lines
            if lines.count > (best?.count ?? 0) { best = lines }
            if (best?.count ?? 0) >= 2 { break }
        }
        return best
    }

    /// The lines of the section starting at `start`, and the index of the block after it.
    static func section(from start: Int, in blocks: [Block]) -> (lines: [String], end: Int) {
        let level: Int
        if case .heading(let l) = blocks[start].kind { level = l } else { level = 7 }
        let everyWord = ingredientWords + instructionWords + otherWords
        var items: [String] = []
        var lines: [String] = []
        var index = start + 1
        while index < blocks.count {
            let block = blocks[index]
            index += 1
            if block.kind != .item, names(block.text, everyWord) {
                index -= 1
                break
            }
            switch block.kind {
            case .heading(let l):
                if l <= level { return (items.isEmpty ? lines : items, index - 1) }
                let name = block.text.hasSuffix(":") ? block.text : block.text + ":"
                if items.isEmpty { lines.append(name) } else { items.append(name) }
            case .item:
                if items.isEmpty, !lines.isEmpty {
                    // Lines then a list: group names before their list, else the list is past the section.
                    guard lines.allSatisfy({ $0.hasSuffix(":") }) else { return (lines, index - 1) }
                    items = lines
                    lines = []
                }
                items.append(block.text)
            case .line:
                if !items.isEmpty {
                    // A short line ending in a colon or followed by a list heads the next group;
                    // other text ends the list.
                    let headsList = index < blocks.count && blocks[index].kind == .item
                    guard block.text.hasSuffix(":") || headsList, block.text.count < 60 else {
                        return (items, index - 1)
                    }
                    items.append(block.text.hasSuffix(":") ? block.text : block.text + ":")
                } else if let last = lines.last, hasTypedBullet(last), !hasTypedBullet(block.text),
                    !block.text.hasSuffix(":")
                {
                    // Lines with typed bullets ("- 250g pastry") end where the bullets do.
                    return (lines, index - 1)
                } else {
                    lines.append(block.text)
                }
            }
            if items.isEmpty, lines.count > 60 { break }
        }
        return (items.isEmpty ? lines : items, index)
    }
}
