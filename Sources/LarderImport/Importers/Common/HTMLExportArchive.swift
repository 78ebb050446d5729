import Foundation
import LarderCore
import LarderFormats

/// The HTML export of a recipe app: a zip with one `recipes.html` holding every recipe and an
/// `images/` folder beside it (Recipe Keeper, CopyMeThat), or with a page per recipe (Gourmet); that
/// folder itself; or the page alone.
///
/// Hands each page to the importer parsed, with a loader for the images its `img` elements name
/// (paths relative to the page's folder; one that would leave the archive is refused). The page is
/// buffered, decoded from its declared charset, up to the record size limit; images are read one
/// at a time, when a recipe names them.
struct HTMLExportArchive {
    /// The name of the page the apps write.
    static let pageName = "recipes.html"

    /// Loads the bytes of the image a page names, or `nil` when the export has no such file.
    typealias ImageLoader = (String) throws -> [UInt8]?

    /// Whether a zip entry's file name (lower-cased) is the export's page: `recipes.html`.
    static func isRecipesPage(_ fileName: String) -> Bool { fileName == pageName }

    /// Calls `body` with each page of the export at `path` (a zip, a folder or a single page), its
    /// origin and an image loader.
    ///
    /// `isPage` picks the pages among a zip's entries or a folder's files by their lower-cased file
    /// name (in a folder, a page and its images are read only while they resolve inside it); an image path
    /// a page gives with Windows backslashes (`pics\1.jpg`) is looked up with slashes.
    /// - Throws: ``LarderError`` when the archive or page cannot be read at all; a page that
    ///   cannot be read is rejected and the others are read.
    static func forEachPage(
        at path: String, context: ImportContext, isPage: (String) -> Bool = isRecipesPage,
        _ body: (HTMLElement, ImportOrigin, ImageLoader) throws -> Void
    ) throws {
        let fileOrigin = ImportOrigin(file: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            try forEachPage(inFolder: path, context: context, isPage: isPage, body)
            return
        }
        guard ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) else {
            let root = try HTMLDocument.parse(
                try HTMLPageReader.pageBytes(atPath: path, limits: context.readerLimits), name: path)
            try body(root, fileOrigin) { _ in nil }
            return
        }
        let archive = try ZipArchive(path: path)
        var pages: [ZipEntry] = []
        var files: [String: ZipEntry] = [:]
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            if isPage(entry.fileName.lowercased()) { pages.append(entry) } else { files[entry.path] = entry }
        }
        for page in pages {
            let origin = fileOrigin.entry(page.path)
            let folder = String(page.path.dropLast(page.fileName.count))
            try context.isolating(origin) {
                _ = try page.safeRelativePath(archive: path)
                let bytes = try utf8(archive.open(page), limits: context.readerLimits)
                try body(try HTMLDocument.parse(bytes, name: origin.description), origin) { written in
                    let source = written.replacingAll("\\", with: "/")
                    guard let entry = files[folder + source] ?? files[source] else { return nil }
                    _ = try entry.safeRelativePath(archive: path)
                    return try archive.open(entry).readAll(limit: 64 << 20)
                }
            }
        }
    }

    /// The folder case of ``forEachPage(at:into:isPage:_:)``.
    private static func forEachPage(
        inFolder path: String, context: ImportContext, isPage: (String) -> Bool,
        _ body: (HTMLElement, ImportOrigin, ImageLoader) throws -> Void
    ) throws {
        func accept(_ file: String) -> Bool {
            isPage((file.split(separator: "/").last.map(String.init) ?? file).lowercased())
        }
        try FolderWalker(path: path).forEachFile(context: context, accept: accept) { file, resolved, origin in
            let folder = file.lastIndex(of: "/").map { String(file[...$0]) } ?? ""
            let bytes = try HTMLPageReader.pageBytes(atPath: resolved, limits: context.readerLimits)
            try body(try HTMLDocument.parse(bytes, name: origin.description), origin) { written in
                let source = folder + written.replacingAll("\\", with: "/")
                switch ContainedFile.resolveInside(source, base: path, folder: ".") {
                case .success(let image): return try FileByteSource(path: image).readAll(limit: 64 << 20)
                case .failure(.missing): return nil
                case .failure(let reason): throw LarderError(.refusedInput, "\(source): \(reason); not read")
                }
            }
        }
    }

    /// Sends a recipe for every card (`isCard`) of every page to `context`, each isolated: `read` gives
    /// a card's fields (the raw record of a reject) and the `src` of its photos, which are loaded from
    /// the export (one the export lacks is a warning), and `recipe` makes the recipe of both.
    /// - Throws: what ``forEachPage(at:into:_:)`` throws.
    static func importCards(
        at path: String, context: ImportContext, isPage: (String) -> Bool = isRecipesPage,
        isCard: (HTMLElement) -> Bool, read: (HTMLElement) -> (fields: Fields, photos: [String]),
        recipe: (Fields, [ImportedRecipe.Image]) throws -> ImportedRecipe
    ) throws {
        try forEachPage(at: path, context: context, isPage: isPage) { root, origin, loadImage in
            for (index, card) in root.all(nested: false, where: isCard).enumerated() {
                let itemOrigin = origin.item(index)
                let (fields, sources) = read(card)
                try context.isolating(itemOrigin, raw: .object(fields)) {
                    var photos: [ImportedRecipe.Image] = []
                    for source in sources {
                        if let bytes = try loadImage(source) {
                            photos.append(image(bytes))
                        } else {
                            context.warn("the photo \(source) is not in the export", origin: itemOrigin)
                        }
                    }
                    try context.records.recipe(try recipe(fields, photos), origin: itemOrigin)
                }
            }
        }
    }

    /// A page's bytes as UTF-8, decoded from the charset it declares, within the record size limit.
    private static func utf8(_ source: any ByteSource, limits: ReaderLimits) throws -> [UInt8] {
        let peekable = PeekableByteSource(source)
        let text = TranscodingByteSource(peekable, encoding: TextEncoding.sniff(try peekable.peek(4096)))
        return try text.readAll(limit: limits.maxRecordSize)
    }

    /// A card's fields with the photo its `image` field names (for ``importCards``'s `read`).
    static func withPhoto(_ fields: Fields) -> (fields: Fields, photos: [String]) {
        (fields, fields["image"]?.stringValue.map { [$0] } ?? [])
    }

    /// The non-empty texts of a card's field (one value or a list), trimmed.
    static func texts(_ fields: Fields, _ key: String) -> [String] {
        (fields[key].map { $0.arrayValue ?? [$0] } ?? []).compactMap { $0.stringValue?.trimmingWhitespace }
            .filter { !$0.isEmpty }
    }

    /// An image read from the export, with its file type from its first bytes.
    static func image(_ bytes: [UInt8]) -> ImportedRecipe.Image {
        .data(bytes, fileExtension: ImageKind.fileExtension(for: Array(bytes.prefix(16))))
    }
}
