import LarderCore
import LarderFormats

/// The schema.org importer's step for pages: when a page's JSON-LD holds no Recipe, the
/// recipes ``HTMLPageReader`` finds in the whole page.
enum HTMLPageImport {
    /// `blocks` (a page's JSON-LD blocks and their origins), with the recipes the page's other
    /// markup carries appended when none of the blocks holds a Recipe.
    ///
    /// - Throws: ``LarderError`` `refused-input` when the page passes `limits.maxRecordSize`.
    static func completing(_ blocks: [(Value, ImportOrigin)], path: String, limits: ReaderLimits) throws
        -> [(Value, ImportOrigin)]
    {
        let finder = SchemaOrgNodeFinder(blocks: blocks.map(\.0))
        guard !blocks.contains(where: { !finder.recipes(in: $0.0).isEmpty }) else { return blocks }
        guard let found = try HTMLPageReader.recipes(atPath: path, limits: limits) else { return blocks }
        let entry = found.kind.rawValue + (found.detail.map { " (\($0))" } ?? "")
        return blocks + found.values.map { ($0, ImportOrigin(file: path, entry: entry)) }
    }
}
