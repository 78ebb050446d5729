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
        if firstByte == UInt8(ascii: "<") {
            blocks = try HTMLPageImport.completing(blocks, path: path, limits: context.readerLimits)
        }
        try emitRecipes(in: blocks, context: context, emptyOrigin: origin)
    }

    /// Sends every Recipe node of a page's blocks to `context`.
    package func emitRecipes(in blocks: [(Value, ImportOrigin)], context: ImportContext, emptyOrigin: ImportOrigin)
        throws
    {
        let finder = SchemaOrgNodeFinder(blocks: blocks.map(\.0))
        let parser = SchemaOrgRecipeParser(finder: finder)
        var found = 0
        for (block, blockOrigin) in blocks {
            let nodes = finder.recipes(in: block)
            for (index, node) in nodes.enumerated() {
                let itemOrigin = nodes.count > 1 || found > 0 ? blockOrigin.item(found) : blockOrigin
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
