package import LarderCore
package import LarderFormats

/// Finds a recipe on an HTML page that publishes none in JSON-LD: in its microdata, its RDFa,
/// a recipe plugin's card, or failing those its headed lists.
///
/// Each reader produces the schema.org-shaped object JSON-LD would have carried, so the one
/// ``SchemaOrgRecipeParser`` maps every field. Buffers the page (up to
/// ``ReaderLimits/maxRecordSize`` bytes) and its tree.
package enum HTMLPageReader {
    /// Which reader found the recipe.
    package enum Kind: String, Sendable, CaseIterable {
        case jsonLD = "JSON-LD"
        case microdata
        case rdfa = "RDFa"
        case recipeCard = "recipe card"
        case pageText = "page text"
    }

    /// The page's recipe objects and the reader that found them; empty when no reader finds one.
    ///
    /// - Parameters:
    ///   - path: the page.
    ///   - limits: `maxRecordSize` caps the page's decoded size.
    /// - Returns: one object per recipe (`@type` `Recipe`), with what found it (`plugin` names a card's plugin).
    /// - Throws: ``LarderError`` `refused-input` naming the file when the page passes the limit;
    ///   `io-error` when it cannot be read.
    package static func recipes(atPath path: String, limits: ReaderLimits) throws -> (
        values: [Value], kind: Kind, detail: String?
    )? {
        let root = try HTMLDocument.parse(try pageBytes(atPath: path, limits: limits), name: path)
        return try recipes(in: root, limits: limits)
    }

    /// The recipe objects of a parsed page (see ``recipes(atPath:limits:)``).
    package static func recipes(in root: HTMLElement, limits: ReaderLimits = .default) throws -> (
        values: [Value], kind: Kind, detail: String?
    )? {
        guard let found = try untidyRecipes(in: root, limits: limits) else { return nil }
        return (found.values.map(MarkupIngredientLines.tidying), found.kind, found.detail)
    }

    private static func untidyRecipes(in root: HTMLElement, limits: ReaderLimits) throws -> (
        values: [Value], kind: Kind, detail: String?
    )? {
        // JSON-LD a page keeps in a `<meta name="application/ld+json" content="…">`.
        let metaBlocks = root.all { element in
            element.name == "meta"
                && (element[attribute: "name"] ?? element[attribute: "itemprop"])?.lowercased() == "application/ld+json"
        }.compactMap { meta in
            // A block that is not JSON is passed over, as the script blocks are.
            try? JSONLDBlocks.parse(text: meta[attribute: "content"] ?? "", name: "meta", limits: limits)
        }
        let metaFinder = SchemaOrgNodeFinder(blocks: metaBlocks)
        let metaRecipes = metaBlocks.flatMap { metaFinder.recipes(in: $0) }
        if !metaRecipes.isEmpty { return (metaRecipes, .jsonLD, "meta content") }
        for syntax in [MicrodataReader.Syntax.microdata, .rdfa] {
            let items = try MicrodataReader.items(in: root, syntax: syntax, limit: limits.maxRecordSize)
            let finder = SchemaOrgNodeFinder(blocks: items)
            let recipes = items.flatMap { finder.recipes(in: $0) }
            if !recipes.isEmpty { return (recipes, syntax == .microdata ? .microdata : .rdfa, nil) }
        }
        for syntax in [MicrodataReader.Syntax.microdata, .rdfa] {
            guard var recipe = try MicrodataReader.looseRecipe(in: root, syntax: syntax, limit: limits.maxRecordSize)
            else { continue }
            if recipe["name"] == nil, let title = PageTextReader.title(of: root) {
                recipe.appendMember("name", .string(title))
            }
            return ([recipe], syntax == .microdata ? .microdata : .rdfa, "properties outside an item")
        }
        if let (card, plugin) = RecipeCardReader.recipe(in: root) { return ([card], .recipeCard, plugin) }
        if let recipe = PageTextReader.recipe(in: root) { return ([recipe], .pageText, nil) }
        return nil
    }

    /// The page's bytes as UTF-8 (decoded from its declared charset).
    ///
    /// - Throws: ``LarderError`` `refused-input` when the page passes `limits.maxRecordSize`.
    package static func pageBytes(atPath path: String, limits: ReaderLimits) throws -> [UInt8] {
        let file = try FileByteSource(path: path)
        let peekable = PeekableByteSource(file)
        let head = try peekable.peek(4096)
        let text = TranscodingByteSource(peekable, encoding: TextEncoding.sniff(head))
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: text.chunkSize)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try text.read(into: $0) }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > limits.maxRecordSize {
                throw LarderError(
                    .refusedInput,
                    "the page passes the record size limit (\(limits.maxRecordSize) bytes); "
                        + "raise it with --max-record-size to read it",
                    location: SourceLocation(file: path))
            }
        }
        return bytes
    }
}
