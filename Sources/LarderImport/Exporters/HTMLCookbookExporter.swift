import Foundation
import LarderCore
import LarderFormats

/// Writes a static, printable cookbook: `index.html` (every recipe, linked), one page per recipe
/// (`<title>.html`: photo, description, times, yield, ingredients under their section headings,
/// steps under theirs, nutrition, notes, source), `print.html` (the book: a cover, the contents,
/// chapters by ``CookbookLayout/groupBy`` with their recipes A–Z, each on a new sheet when printed,
/// page numbers and running titles; see ``HTMLCookbookPage/book(_:layout:pageNumbers:article:)``)
/// and `cookbook.css` with a print stylesheet.
///
/// The output is a folder (`-o Cookbook`) or a `.zip` of that folder (`-o cookbook.zip`, and
/// standard output). Page names come from titles made one safe path component
/// (`ContainedFile.safeComponent`, then characters that are special in a URL or on Windows
/// replaced by `-`), unique without regard to case, never `index`, `print` or `cookbook`; every path is
/// checked again by ``ExportOutput`` (no absolute path, no `.` or `..` component). A recipe's
/// local image (an `imageRef` the export session read from inside the records file's folder)
/// is copied to `images/<name>.<ext>`; without one, a recipe's page links the first `http(s)` image
/// URL, but the book prints local photos only (a linked photo prints as a broken image offline).
/// Every text is escaped (``HTMLCookbookPage/escape(_:)``); the pages carry schema.org
/// microdata, so an HTML page importer reads a recipe back from its page.
///
/// Pages stream out one recipe at a time; only the index entries (title, file, one line of
/// facts) are held until ``finish()``.
package final class HTMLCookbookExporter: RecipeExporter {
    private let output: ExportOutput
    /// Taken page names, lower case: `index` and `cookbook` are the index and the stylesheet's.
    private var names: Set<String> = ["index", "cookbook", "print"]
    private var entries: [HTMLCookbookPage.Entry] = []
    /// Every recipe's article, in export order, for `print.html`: spooled to a temporary file,
    /// so the export stays one recipe at a time in memory; the book reads them back in its order.
    private let spool: FileByteSink
    private let spoolPath: String
    private var spooled = 0
    /// How the book is laid out.
    private let layout: CookbookLayout

    /// Opens the output: a folder (created) or a `.zip` (also standard output).
    /// - Throws: ``LarderError`` `io-error` when the folder or file cannot be created.
    package init(path: String?, layout: CookbookLayout = CookbookLayout()) throws {
        self.layout = layout
        output = try ExportOutput(path: path, zipSuffixes: [".zip"], singleSuffixes: [], stdoutIsZip: true)
        spoolPath =
            FileManager.default.temporaryDirectory.appendingPathComponent("larder-cookbook-\(UUID().uuidString).html")
            .path
        spool = try FileByteSink(path: spoolPath)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: spoolPath)
    }

    package func write(_ item: ExportItem) throws {
        let recipe = item.recipe
        let name = ExportText.unique(Self.pageName(recipe.title), in: &names)
        var localPhoto: String?
        if let image = item.image {
            let file = "images/\(name).\(ImageKind.fileExtension(for: Array(image.prefix(16))))"
            try output.add(file, image, deflate: false, modified: recipe.updatedAt)
            localPhoto = file
        }
        let page = name + ".html"
        let photo = localPhoto ?? HTMLCookbookPage.remotePhoto(recipe)
        try output.add(page, Array(HTMLCookbookPage.page(recipe, photo: photo).utf8), modified: recipe.updatedAt)
        let anchor = "r\(entries.count + 1)"
        let article = Array(HTMLCookbookPage.article(recipe, photo: localPhoto, anchor: anchor).utf8)
        try spool.write(article)
        entries.append(
            HTMLCookbookPage.Entry(
                recipe: recipe, file: page, anchor: anchor, spool: spooled..<(spooled + article.count)))
        spooled += article.count
    }

    package func finish() throws {
        try output.add("cookbook.css", Array(HTMLCookbookPage.stylesheet.utf8))
        try output.add("index.html", Array(HTMLCookbookPage.index(entries, title: layout.title).utf8))
        try spool.close()
        try output.add("print.html", try book(pageNumbers: nil))
        try output.finish()
    }

    /// The book's bytes (`print.html`), with the contents' page numbers from `pageNumbers`.
    ///
    /// Numbers are by anchor (see ``HTMLCookbookPage/book(_:layout:pageNumbers:article:)``).
    /// Callable after ``finish()``.
    /// - Throws: ``LarderError`` `io-error` when the spooled articles cannot be read back.
    func book(pageNumbers: [String: Int]?) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: spoolPath) else {
            throw LarderError(
                .io, "the cookbook's spooled recipes could not be read back", location: SourceLocation(file: spoolPath))
        }
        let bytes = [UInt8](data)
        let text = HTMLCookbookPage.book(entries, layout: layout, pageNumbers: pageNumbers) { entry in
            String(decoding: bytes[entry.spool], as: UTF8.self)
        }
        return Array(text.utf8)
    }

    /// A page name from a title: one safe path component, with the characters a URL or Windows
    /// treats specially (`: * ? " < > | # %`) replaced by `-`.
    static func pageName(_ title: String) -> String {
        let safe = ContainedFile.safeComponent(title)
        let name = String(safe.map { ":*?\"<>|#%".contains($0) ? "-" : $0 })
        return name.trimmingWhitespace.isEmpty ? "Recipe" : name
    }
}
