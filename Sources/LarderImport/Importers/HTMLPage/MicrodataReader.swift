import LarderCore
import LarderFormats

/// Reads a page's microdata (`itemscope`, `itemtype`, `itemprop`) and RDFa (`typeof`,
/// `property`) items into schema.org-shaped objects, as JSON-LD would publish them.
///
/// An item becomes an object with `@type` (the last path segment of its type) and one member
/// per property; a property given twice becomes a list. A property's value is a nested item, an
/// element's `content` attribute, a `meta`'s content, a link's `href`, a media element's `src`,
/// a `time`'s `datetime`, else its text (line breaks kept at block elements, so a property
/// holding a whole list is read line by line).
enum MicrodataReader {
    /// The two attribute vocabularies.
    enum Syntax {
        case microdata
        case rdfa
    }

    /// data-vocabulary.org's names for the schema.org properties the recipe parser reads.
    private static let aliases: [String: String] = [
        "ingredient": "recipeIngredient", "instructions": "recipeInstructions", "photo": "image",
        "summary": "description", "published": "datePublished", "review": "aggregateRating",
    ]
    /// Properties whose value is the element's text even when the element is an item.
    private static let textProperties: Set<String> = ["recipeIngredient", "ingredients"]
    /// Properties a link gives by its address (RDFa reads every other link by its text).
    private static let addressProperties: Set<String> = ["image", "url", "thumbnailUrl", "sameAs", "contentUrl"]

    /// The top-level items of the page (items that are no other item's property), in document order.
    /// - Throws: ``LarderError`` `refused-input` when the properties' text passes `limit` bytes
    ///   (see ``TextBudget``).
    static func items(in root: HTMLElement, syntax: Syntax, limit: Int) throws -> [Value] {
        let budget = TextBudget(limit: limit)
        return try root.all { element in
            isItem(element, syntax) && properties(of: element, syntax).isEmpty
        }.map { try item($0, syntax, depth: 0, budget: budget) }
    }

    /// A `Recipe` made of the recipe properties a page marks outside any item (an `itemprop`
    /// on each ingredient but no `itemscope` around them); `nil` when it marks no ingredients.
    /// - Throws: ``LarderError`` `refused-input` as ``items(in:syntax:limit:)`` does.
    static func looseRecipe(in root: HTMLElement, syntax: Syntax, limit: Int) throws -> Value? {
        var recipe: Value = ["@type": "Recipe"]
        try collect(root, syntax, into: &recipe, depth: 0, budget: TextBudget(limit: limit))
        guard recipe["recipeIngredient"] != nil || recipe["ingredients"] != nil else { return nil }
        return recipe
    }

    /// How much text the properties of one page may take between them.
    ///
    /// A property's value is its element's whole text, nested properties' text included, so
    /// properties nested inside each other repeat the text below them: 100 of them nested over a
    /// 100 KB page made 15 MB of recipe text and took 3 s to import, 200 over 200 KB 61 MB and
    /// 12 s (quadratic). Real pages nest a property in another one or two deep. The page is refused
    /// once its properties' text passes the record size limit (16 MiB unless `--max-record-size`
    /// says otherwise); no more text is made after that.
    final class TextBudget {
        let limit: Int
        private var used = 0

        init(limit: Int) { self.limit = limit }

        /// Counts `text` against the limit.
        /// - Throws: ``LarderError`` `refused-input` once the text so far passes it.
        func spend(_ text: String) throws {
            used += text.utf8.count
            guard used > limit else { return }
            throw LarderError(
                .refusedInput,
                "the page's microdata or RDFa properties are nested so deep that their text passes the record size "
                    + "limit (\(ReaderLimits.describe(bytes: limit))); raise it with --max-record-size to read it")
        }
    }

    private static func isItem(_ element: HTMLElement, _ syntax: Syntax) -> Bool {
        switch syntax {
        case .microdata: element[attribute: "itemscope"] != nil || element[attribute: "itemtype"] != nil
        case .rdfa: element[attribute: "typeof"] != nil
        }
    }

    private static func properties(of element: HTMLElement, _ syntax: Syntax) -> [String] {
        let raw = element[attribute: syntax == .microdata ? "itemprop" : "property"] ?? ""
        return raw.split(whereSeparator: \.isWhitespace).map { name in
            var n = String(name)
            if let cut = n.lastIndex(where: { $0 == "/" || $0 == "#" || $0 == ":" }) {
                n = String(n[n.index(after: cut)...])
            }
            return aliases[n] ?? n
        }.filter { !$0.isEmpty }
    }

    private static func typeName(_ element: HTMLElement, _ syntax: Syntax) -> Value {
        let raw = element[attribute: syntax == .microdata ? "itemtype" : "typeof"] ?? ""
        let names = raw.split(whereSeparator: \.isWhitespace).map { name -> Value in
            var n = String(name)
            while n.hasSuffix("/") { n.removeLast() }
            if let cut = n.lastIndex(where: { $0 == "/" || $0 == "#" || $0 == ":" }) {
                n = String(n[n.index(after: cut)...])
            }
            return .string(n)
        }
        return names.count == 1 ? names[0] : .array(names)
    }

    private static func item(_ element: HTMLElement, _ syntax: Syntax, depth: Int, budget: TextBudget) throws -> Value {
        var value: Value = .object(Fields([Field(key: "@type", value: typeName(element, syntax))]))
        if let id = element[attribute: syntax == .microdata ? "itemid" : "resource"] {
            value.appendMember("@id", .string(id))
        }
        try collect(element, syntax, into: &value, depth: depth, budget: budget)
        return value
    }

    private static func collect(
        _ element: HTMLElement, _ syntax: Syntax, into item: inout Value, depth: Int, budget: TextBudget
    ) throws {
        guard depth < HTMLDocument.maxDepth else { return }
        for case .element(let child) in element.children {
            let names = properties(of: child, syntax)
            let childIsItem = isItem(child, syntax)
            if !names.isEmpty {
                for name in names {
                    let value =
                        childIsItem && !textProperties.contains(name)
                        ? try self.item(child, syntax, depth: depth + 1, budget: budget)
                        : try propertyValue(child, name: name, budget: budget)
                    item.appendMember(name, value)
                }
            }
            if !childIsItem { try collect(child, syntax, into: &item, depth: depth + 1, budget: budget) }
        }
    }

    private static func propertyValue(_ element: HTMLElement, name: String, budget: TextBudget) throws -> Value {
        if let content = element[attribute: "content"] {
            // A whole list given as markup in the attribute (`content="<p><b>Dressing</b><br>…"`)
            // is read as that markup, so its bold group names stay group names.
            if textProperties.contains(name), content.contains("<"),
                let fragment = try? HTMLDocument.parse(Array(content.utf8), name: "itemprop \(name)")
            {
                let marked = fragment.lineTextMarkingGroupNames
                if HTMLText.hasLineBreak(marked) { return .string(marked) }
            }
            return jsonOrText(content, name: name)
        }
        switch element.name {
        case "meta": return .string("")
        case "img", "audio", "video", "source", "embed", "iframe", "track":
            return .string(element[attribute: "src"] ?? element[attribute: "data-src"] ?? "")
        case "a", "area", "link":
            if element.name == "link" || addressProperties.contains(name) {
                return .string(element[attribute: "href"] ?? "")
            }
        case "time": if let datetime = element[attribute: "datetime"] { return .string(datetime) }
        case "data", "meter": if let value = element[attribute: "value"] { return .string(value) }
        default: break
        }
        if textProperties.contains(name) {
            // One ingredient per line: a list's items; a term and its description (amount, name)
            // on one line.
            let items = element.all(nested: false) { $0.name == "li" }
            if !items.isEmpty { return .string(try spent(items.map(\.flatText).joined(separator: "\n"), budget)) }
            if element.first(where: { $0.name == "dt" || $0.name == "dd" }) != nil {
                return .string(try spent(element.flatText, budget))
            }
            // A container holding the whole list may head its groups in bold; a lone line is an ingredient.
            let marked = try spent(element.lineTextMarkingGroupNames, budget)
            if HTMLText.hasLineBreak(marked) { return jsonOrText(marked, name: name) }
        }
        return jsonOrText(try spent(element.lineText, budget), name: name)
    }

    /// `text`, counted against the page's budget.
    private static func spent(_ text: String, _ budget: TextBudget) throws -> String {
        try budget.spend(text)
        return text
    }

    private static func jsonOrText(_ text: String, name: String) -> Value {
        // Some pages put JSON-LD in the property (`content="[{&quot;@type&quot;:…"`).
        if text.hasPrefix("[") || text.hasPrefix("{"),
            let json = try? JSONLDBlocks.parse(text: text, name: "itemprop \(name)")
        {
            return json
        }
        return .string(text)
    }
}
