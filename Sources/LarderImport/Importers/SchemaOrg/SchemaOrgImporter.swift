package import LarderCore
import LarderFormats

/// Imports schema.org `Recipe` JSON-LD from JSON files and saved HTML pages.
///
/// Reads `.jsonld`/`.json` files (one object, an array, a `@graph`) and saved HTML pages
/// (their `application/ld+json` blocks). Every Recipe node becomes a recipe; references
/// between nodes of the same page are resolved. A page with no Recipe in JSON-LD is read
/// whole (see `HTMLPageReader`): its microdata, RDFa, recipe-plugin card, or headed lists.
package struct SchemaOrgImporter: RecipeImporter {
    package var format: ImportFormat { .schemaorg }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let file = try FileByteSource(path: path)
        let peekable = PeekableByteSource(file)
        let head = try peekable.peek(4096)
        let declared = TextEncoding.sniff(head)
        let text = TranscodingByteSource(peekable, encoding: declared)
        let origin = ImportOrigin(file: path)
        let firstByte = head.first {
            $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF && $0 != 0xFF
                && $0 != 0xFE
        }
        var blocks: [(Value, ImportOrigin)] = []
        if firstByte == UInt8(ascii: "<") {
            let scanner = HTMLJSONLDScanner(source: text)
            var index = 0
            while let block = try scanner.nextBlock() {
                let blockOrigin = ImportOrigin(file: path, entry: "ld+json block \(index) (line \(block.line))")
                index += 1
                do {
                    let value = try JSONLDBlocks.parse(
                        text: block.text, name: "\(path):\(block.line)", limits: context.readerLimits
                    ) {
                        context.warn(JSONLDBlocks.warningText($0), origin: blockOrigin)
                    }
                    blocks.append((value, blockOrigin))
                } catch let error as LarderError {
                    // One broken block does not hide the others.
                    context.warn("skipped an ld+json block that is not JSON: \(error.message)", origin: blockOrigin)
                }
            }
        } else {
            blocks.append(
                (
                    try JSONLDBlocks.parse(text, limits: context.readerLimits) {
                        context.warn(JSONLDBlocks.warningText($0), origin: origin)
                    }, origin
                ))
        }
        if text.usedFallback { context.warnEncodingFallback(origin) }
        var pageMarkup: PageMarkup?
        if firstByte == UInt8(ascii: "<") {
            let read = blocks.count
            blocks = try HTMLPageImport.completing(blocks, path: path, limits: context.readerLimits)
            // A JSON-LD Recipe without its ingredients or steps: the page's markup may have them.
            if blocks.count == read {
                pageMarkup = PageMarkup { [limits = context.readerLimits] in
                    guard let found = try? HTMLPageReader.recipes(atPath: path, limits: limits),
                        found.kind != .pageText, let first = found.values.first
                    else { return nil }
                    return (first, found.kind.rawValue + (found.detail.map { " (\($0))" } ?? ""))
                }
            }
        }
        try emitRecipes(in: blocks, context: context, emptyOrigin: origin, pageMarkup: pageMarkup)
    }

    /// The recipe a page's markup (microdata, RDFa, a recipe card) carries, read when first asked for.
    package final class PageMarkup {
        private let read: () -> (Value, String)?
        private var cached: (Value, String)??

        /// Creates the reader; `read` runs at most once.
        package init(_ read: @escaping () -> (Value, String)?) {
            self.read = read
        }

        /// The markup's recipe object and the name of the reader that found it.
        package var recipe: (Value, String)? {
            if let cached { return cached }
            let value = read()
            cached = value
            return value
        }
    }

    /// The members a Recipe node must have for a recipe to be whole; filled from the page's
    /// markup when the node lacks them.
    static let partMembers = [["recipeIngredient", "ingredients"], ["recipeInstructions", "RecipeInstructions"]]

    /// `node` with each part it lacks (no ingredients, no steps) taken from `markup`, and the names
    /// of the members taken; `nil` when it lacks none or the markup has none of them.
    static func fillingMissingParts(_ node: Value, from markup: PageMarkup) -> (Value, [String], String)? {
        func isEmpty(_ value: Value?) -> Bool {
            guard let value else { return true }
            if let s = value.stringValue { return s.trimmingWhitespace.isEmpty }
            if let list = value.arrayValue { return list.allSatisfy { isEmpty($0) } }
            return false
        }
        let missing = partMembers.filter { names in names.allSatisfy { isEmpty(node[$0]) } }
        guard !missing.isEmpty, case .object(var fields) = node, let (found, reader) = markup.recipe else {
            return nil
        }
        var taken: [String] = []
        for names in missing {
            guard let value = found[names[0]], !isEmpty(value) else { continue }
            for name in names where fields[name] != nil { fields.removeValue(forKey: name) }
            fields[names[0]] = value
            taken.append(names[0])
        }
        return taken.isEmpty ? nil : (.object(fields), taken, reader)
    }

    /// Sends every Recipe node of a page's blocks to `context`.
    package func emitRecipes(
        in blocks: [(Value, ImportOrigin)], context: ImportContext, emptyOrigin: ImportOrigin,
        pageMarkup: PageMarkup? = nil
    ) throws {
        let finder = SchemaOrgNodeFinder(blocks: blocks.map(\.0))
        let parser = SchemaOrgRecipeParser(finder: finder)
        var found = 0
        for (block, blockOrigin) in blocks {
            let nodes = finder.recipes(in: block)
            for (index, recipeNode) in nodes.enumerated() {
                var node = recipeNode
                let itemOrigin = nodes.count > 1 || found > 0 ? blockOrigin.item(found) : blockOrigin
                if let pageMarkup, let (filled, taken, reader) = Self.fillingMissingParts(node, from: pageMarkup) {
                    node = filled
                    context.warn(
                        "the JSON-LD Recipe has no \(taken.joined(separator: " and ")); read from the page's \(reader)",
                        origin: itemOrigin)
                }
                try context.isolating(itemOrigin, raw: node) {
                    try context.records.recipe(try parser.parse(node), origin: itemOrigin)
                }
                _ = index
                found += 1
            }
        }
        if found == 0 {
            try context.reject(
                LarderError(
                    .malformedRecord,
                    "no schema.org Recipe found (looked at the top level, @graph, mainEntity and nested nodes; "
                        + "in a web page also at microdata, RDFa, recipe-plugin cards and headed ingredient lists)"),
                origin: emptyOrigin, raw: nil)
        }
    }
}
