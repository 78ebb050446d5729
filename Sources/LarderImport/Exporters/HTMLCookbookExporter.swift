import Foundation
import LarderCore
import LarderFormats

/// Writes a static, printable cookbook: `index.html` (every recipe, linked), one page per recipe
/// (`<title>.html`: photo, description, times, yield, ingredients under their section headings,
/// steps under theirs, nutrition, notes, source), `print.html` (every recipe on one page, each
/// on a new sheet when printed) and `cookbook.css` with a print stylesheet.
///
/// The output is a folder (`-o Cookbook`) or a `.zip` of that folder (`-o cookbook.zip`, and
/// standard output). Page names come from titles made one safe path component
/// (`ContainedFile.safeComponent`, then characters that are special in a URL or on Windows
/// replaced by `-`), unique without regard to case, never `index`, `print` or `cookbook`; every path is
/// checked again by ``ExportOutput`` (no absolute path, no `.` or `..` component). A recipe's
/// local image (an `imageRef` the export session read from inside the records file's folder)
/// is copied to `images/<name>.<ext>`; without one, the first `http(s)` image URL is linked.
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
    /// so the export stays one recipe at a time in memory.
    private let spool: FileByteSink
    private let spoolPath: String

    /// Opens the output: a folder (created) or a `.zip` (also standard output).
    /// - Throws: ``LarderError`` `io-error` when the folder or file cannot be created.
    package init(path: String?) throws {
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
        var photo = HTMLCookbookPage.remotePhoto(recipe)
        if let image = item.image {
            let file = "images/\(name).\(ImageKind.fileExtension(for: Array(image.prefix(16))))"
            try output.add(file, image, deflate: false, modified: recipe.updatedAt)
            photo = file
        }
        let page = name + ".html"
        try output.add(page, Array(HTMLCookbookPage.page(recipe, photo: photo).utf8), modified: recipe.updatedAt)
        try spool.write(HTMLCookbookPage.article(recipe, photo: photo))
        entries.append(HTMLCookbookPage.Entry(recipe: recipe, file: page))
    }

    package func finish() throws {
        try output.add("cookbook.css", Array(HTMLCookbookPage.stylesheet.utf8))
        try output.add("index.html", Array(HTMLCookbookPage.index(entries).utf8))
        try spool.close()
        let articles = try String(contentsOfFile: spoolPath, encoding: .utf8)
        try output.add("print.html", Array(HTMLCookbookPage.printBook(articles: articles).utf8))
        try output.finish()
    }

    /// A page name from a title: one safe path component, with the characters a URL or Windows
    /// treats specially (`: * ? " < > | # %`) replaced by `-`.
    static func pageName(_ title: String) -> String {
        let safe = ContainedFile.safeComponent(title)
        let name = String(safe.map { ":*?\"<>|#%".contains($0) ? "-" : $0 })
        return name.trimmingWhitespace.isEmpty ? "Recipe" : name
    }
}
