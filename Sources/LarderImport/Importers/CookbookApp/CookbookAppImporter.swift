import Foundation
import LarderCore
import LarderFormats

/// Imports the Cookbook app's (CookBook recipe manager's) export: a zip of one `.html` page per
/// recipe; older versions wrote one `.yml` file per recipe instead.
///
/// The layouts are those Tandoor's importer reads (cookbook/integration/cookbookapp.py,
/// github.com/TandoorRecipes/recipes). A page carries its recipe as schema.org markup, which
/// Tandoor hands to recipe-scrapers' generic reader; here it is read as the schema.org importer
/// reads a page: its `application/ld+json` blocks, else its microdata, RDFa, a recipe-plugin card
/// or its headed lists (``HTMLPageImport``), every property through ``SchemaOrgRecipeParser`` with
/// ``pageFieldTable`` for the census. A recipe whose markup names no image takes the page's first
/// `<img>`, as Tandoor does. An image that is a path inside the zip is read from it (never from
/// outside it); a web address stays the image's URL and is never fetched. The YAML layout is read
/// by ``recipe(fromYAML:images:warn:)``.
///
/// Only the zip's central directory is read up front; each page (buffered, within the record size
/// limit) or YAML file is read in turn, and an image when a recipe names it. Each file, and each
/// recipe in it, is isolated: a page that is not HTML, a YAML file that does not parse, or a
/// recipe without a name is rejected with its entry, index and field path, and the rest import.
/// What Larder has no field for is kept in `extras.cookbookapp`.
package struct CookbookAppImporter: RecipeImporter {
    package var format: ImportFormat { .cookbookapp }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        var isDirectory: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        guard !isFolder, ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) else {
            if !isFolder, Self.isRecipeFile(path.lowercased()) {
                try importYAMLFiles(at: path, context: context)
            } else {
                try importPages(at: path, context: context)
            }
            return
        }
        let archive = try ZipArchive(path: path)
        var hasPages = false
        var hasYAML = false
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            let name = entry.fileName.lowercased()
            hasPages = hasPages || Self.isPage(name)
            hasYAML = hasYAML || Self.isRecipeFile(name)
        }
        guard hasPages || hasYAML else {
            throw LarderError(
                .malformedRecord, "the archive holds no .html page and no .yml recipe file",
                location: SourceLocation(file: path))
        }
        if hasYAML { try importYAMLFiles(at: path, context: context) }
        if hasPages { try importPages(at: path, context: context) }
    }

    /// Whether a file name (lower-cased) is a recipe page: `.html` or `.htm`.
    static func isPage(_ fileName: String) -> Bool {
        fileName.hasSuffix(".html") || fileName.hasSuffix(".htm")
    }

    /// Whether a file name (lower-cased) is a recipe file of the older layout: `.yml` or `.yaml`.
    static func isRecipeFile(_ fileName: String) -> Bool {
        fileName.hasSuffix(".yml") || fileName.hasSuffix(".yaml")
    }

    /// Whether a page's first bytes carry a schema.org Recipe: an `application/ld+json` block naming
    /// `"Recipe"`, or a microdata or RDFa item of type `schema.org/Recipe`.
    ///
    /// A weak sign (any saved recipe page has it): detection asks it last, of a zip's first page.
    static func claimsPage(_ head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self).lowercased()
        let hasJSONLD = text.contains("application/ld+json") && text.contains("\"recipe\"")
        return hasJSONLD || text.contains("schema.org/recipe")
    }

    /// Whether a YAML file's keys are those of a Cookbook app recipe: `name`, `ingredients` and
    /// `directions`.
    static func claims(_ keys: ContentKeys) -> Bool {
        keys.has("name") && keys.has("ingredients") && keys.has("directions")
    }

    /// Reads every page of the export at `path` (a zip, a folder or one page).
    private func importPages(at path: String, context: ImportContext) throws {
        try HTMLExportArchive.forEachPage(at: path, context: context, isPage: Self.isPage) { root, origin, loadImage in
            try context.isolating(origin) {
                let (nodes, finder) = try HTMLPageImport.recipes(
                    inPage: root, name: origin.description, limits: context.readerLimits
                ) { context.warn($0, origin: origin) }
                guard !nodes.isEmpty else {
                    throw LarderError(
                        .malformedRecord,
                        "no schema.org Recipe on the page (looked at its JSON-LD, microdata, RDFa, recipe-plugin "
                            + "cards and headed ingredient lists)")
                }
                let parser = SchemaOrgRecipeParser(finder: finder)
                for (index, found) in nodes.enumerated() {
                    var node = found
                    // Tandoor takes a recipe's image from the page's `<img>` tags.
                    if nodes.count == 1, node["image"] == nil, let source = Self.firstImage(in: root) {
                        node.appendMember("image", .string(source))
                    }
                    let itemOrigin = origin.item(index)
                    try context.isolating(itemOrigin, raw: node) {
                        var recipe = try parser.parse(node, table: Self.pageFieldTable)
                        recipe.images = try recipe.images.map {
                            try Self.resolve($0, load: loadImage) { context.warn($0, origin: itemOrigin) }
                        }
                        try context.records.recipe(recipe, origin: itemOrigin)
                    }
                }
            }
        }
    }

    /// Reads every `.yml` file of the export at `path` (a zip, or one file).
    private func importYAMLFiles(at path: String, context: ImportContext) throws {
        let isRecipeFile: (ZipEntry) -> Bool = { Self.isRecipeFile($0.fileName.lowercased()) }
        try BackupArchive.forEachRecordFile(
            at: path, context: context, what: ".yml recipe file", isRecordFile: isRecipeFile
        ) {
            source, origin, images in
            let reader = try YAMLReader(
                source: TranscodingByteSource(source, encoding: nil), limits: context.readerLimits)
            var index = 0
            while let item = try reader.next() {
                let itemOrigin = origin.item(index)
                index += 1
                try context.isolating(itemOrigin, raw: item.value) {
                    do {
                        let recipe = try Self.recipe(fromYAML: item.value, images: images) {
                            context.warn($0, origin: itemOrigin)
                        }
                        try context.records.recipe(recipe, origin: itemOrigin)
                    } catch let error as LarderError {
                        // Point at the field's line in the file when the reader knows it.
                        let location = error.location?.fieldPath.flatMap(reader.location(of:)) ?? item.location
                        throw error.locatedAt(location)
                    }
                }
            }
        }
    }

    /// The `src` of the page's first `<img>`, if any.
    static func firstImage(in root: HTMLElement) -> String? {
        root.first { $0.name == "img" && !($0[attribute: "src"] ?? "").trimmingWhitespace.isEmpty }?[
            attribute: "src"]?.trimmingWhitespace
    }

    /// An image a recipe names: a web (or `data:`) address stays as it is; a path is read from the
    /// export (as written, else percent-decoded, without a leading `./`); one the export lacks is
    /// kept as written, with a warning.
    /// - Throws: ``LarderError`` `refused-input` when the path would leave the export.
    static func resolve(_ image: ImportedRecipe.Image, load: HTMLExportArchive.ImageLoader, warn: (String) -> Void)
        throws -> ImportedRecipe.Image
    {
        guard case .url(let written) = image, !written.contains("://"), !written.lowercased().hasPrefix("data:")
        else { return image }
        var path = written
        while path.hasPrefix("./") { path.removeFirst(2) }
        for candidate in [path, path.removingPercentEncoding].compactMap({ $0 }) {
            if let bytes = try load(candidate) { return HTMLExportArchive.image(bytes) }
        }
        warn("the photo \(written) is not in the export")
        return image
    }

    /// What the importer does with each property of a page's Recipe: schema.org's table, under this
    /// format's name (any other property is kept in `extras.cookbookapp`).
    package static let pageFieldTable = FieldTable(.cookbookapp, SchemaOrgRecipeParser.fieldTable.fates)
}
