import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport

/// The Recipe nodes of the schema.org corpus (`../shared/corpus/schemaorg`), each with its page's
/// `.refs.json` blocks resolved, as the census and round-trip tests read them.
enum SchemaOrgCorpusPages {
    /// One page's Recipe node, imported.
    struct Page {
        var file: String
        var source: Value
        var imported: ImportedRecipe
        /// Resolves the page's references (`{"@id": …}` to its node).
        var finder: SchemaOrgNodeFinder
    }

    /// The `.jsonld` files, sorted; and every page whose Recipe node imports, in that order.
    static func load() throws -> (files: Int, pages: [Page]) {
        let root = URL(fileURLWithPath: Corpus.path("schemaorg"))
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".jsonld") }
            .sorted()
        var pages: [Page] = []
        for file in files {
            let stem = String(file.dropLast(".jsonld".count))
            let node = try JSONLDBlocks.parse(FileByteSource(path: root.appendingPathComponent(file).path))
            var blocks = [node]
            let refsPath = root.appendingPathComponent(stem + ".refs.json").path
            if FileManager.default.fileExists(atPath: refsPath) {
                blocks.append(
                    .array((try JSONLDBlocks.parse(FileByteSource(path: refsPath))).objectValue?.map(\.value) ?? []))
            }
            let finder = SchemaOrgNodeFinder(blocks: blocks)
            guard let source = finder.recipes(in: node).first,
                let imported = try? SchemaOrgRecipeParser(finder: finder).parse(source)
            else { continue }
            pages.append(Page(file: file, source: source, imported: imported, finder: finder))
        }
        return (files.count, pages)
    }
}
