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

extension HTMLPageImport {
    /// The Recipe nodes of a page already parsed (an archive's page): those of its
    /// `application/ld+json` script blocks, else those ``HTMLPageReader`` finds in its markup
    /// (microdata, RDFa, a recipe-plugin card, headed lists), with the finder that resolves
    /// their references.
    ///
    /// A script block that is not JSON is passed over with a warning (`warn`), as the schema.org
    /// importer does.
    /// - Throws: ``LarderError`` `refused-input` when the markup's properties pass the record size
    ///   limit (``MicrodataReader/TextBudget``).
    static func recipes(inPage root: HTMLElement, name: String, limits: ReaderLimits, warn: (String) -> Void)
        throws -> (nodes: [Value], finder: SchemaOrgNodeFinder)
    {
        let scripts = root.all { element in
            element.name == "script" && (element[attribute: "type"] ?? "").lowercased().contains("ld+json")
        }
        var blocks: [Value] = []
        for (index, script) in scripts.enumerated() {
            let text = script.children.map { if case .text(let t) = $0 { t } else { "" } }.joined()
            do {
                blocks.append(
                    try JSONLDBlocks.parse(text: text, name: "\(name) ld+json block \(index)", limits: limits) {
                        warn(JSONLDBlocks.warningText($0))
                    })
            } catch let error as LarderError {
                warn("skipped an ld+json block that is not JSON: \(error.message)")
            } catch {
                warn("skipped an ld+json block that is not JSON")
            }
        }
        let finder = SchemaOrgNodeFinder(blocks: blocks)
        let nodes = blocks.flatMap { finder.recipes(in: $0) }
        if !nodes.isEmpty { return (nodes, finder) }
        let found = try HTMLPageReader.recipes(in: root, limits: limits)?.values ?? []
        return (found, SchemaOrgNodeFinder(blocks: found))
    }
}
