import Foundation
import LarderCore
import LarderFormats

/// Writes the cookbook as a PDF (`larder export --to pdf`): the HTML book
/// (``HTMLCookbookExporter``) laid out in a scratch folder, printed by headless Chromium.
///
/// Chromium cannot fill in page numbers it has not laid out yet (CSS `target-counter` is not
/// supported), so the book is printed twice: the first print's named destinations (one per
/// recipe, `/Dests` in the PDF) give each recipe's page, which the contents then show, and the
/// second print is the book. A third is made in the rare case the numbers moved a page break.
/// The PDF is written atomically (or to standard output).
package final class CookbookPDFExporter: RecipeExporter {
    private let book: HTMLCookbookExporter
    private let scratch: String
    private let outputPath: String?
    private let chromium: String

    /// Prepares a book for `path` (`nil` or `-`: standard output).
    /// - Throws: ``LarderError`` `usage-error` when no Chromium is installed; `io-error` when the
    ///   scratch folder cannot be made.
    package init(path: String?, layout: CookbookLayout) throws {
        guard let chromium = ChromiumPrinter.find() else {
            throw LarderError(
                .usage,
                "--to pdf prints the cookbook with headless Chromium, which is not installed: install it "
                    + "(apt-get install chromium) or name it in LARDER_CHROMIUM; or export --to html and print "
                    + "print.html from a browser")
        }
        self.chromium = chromium
        outputPath = path == "-" ? nil : path
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("larder-book-\(UUID().uuidString)").path
        book = try HTMLCookbookExporter(path: scratch + "/book", layout: layout)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    package func write(_ item: ExportItem) throws {
        try book.write(item)
    }

    package func finish() throws {
        try book.finish()
        let page = scratch + "/book/print.html"
        let printer = ChromiumPrinter(executable: chromium, scratch: scratch)
        var numbers: [String: Int] = [:]
        var pdf: [UInt8] = []
        for _ in 0..<3 {
            let html = try FileByteSink(path: page)
            try html.write(try book.book(pageNumbers: numbers))
            try html.close()
            pdf = try printer.print(page)
            let found = PDFDestinations.pages(in: pdf)
            if found == numbers { break }
            numbers = found
        }
        let sink = try outputPath.map { try FileByteSink(path: $0) } ?? FileByteSink(standardOutput: ())
        try sink.write(pdf)
        try sink.close()
    }
}

/// Headless Chromium's print to PDF.
struct ChromiumPrinter {
    /// The Chromium binary.
    var executable: String
    /// A folder for Chromium's profile and the PDF.
    var scratch: String

    /// The Chromium to print with: `LARDER_CHROMIUM`, else the first of `chromium`,
    /// `chromium-browser`, `google-chrome` on `PATH`; `nil` when there is none.
    static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let named = environment["LARDER_CHROMIUM"], !named.isEmpty {
            return FileManager.default.isExecutableFile(atPath: named) ? named : nil
        }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    /// Prints the page at `path` and returns the PDF's bytes.
    /// - Throws: ``LarderError`` `io-error` with Chromium's last words when it fails or outlives two minutes.
    func print(_ path: String) throws -> [UInt8] {
        let pdf = scratch + "/print.pdf"
        try? FileManager.default.removeItem(atPath: pdf)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        var arguments = [
            "--headless", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(scratch)/profile", "--no-pdf-header-footer", "--print-to-pdf=\(pdf)",
        ]
        // Chromium refuses to run as root with its sandbox (containers, CI).
        if geteuid() == 0 { arguments.append("--no-sandbox") }
        arguments.append(URL(fileURLWithPath: path).absoluteString)
        process.arguments = arguments
        let log = scratch + "/chromium.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw LarderError(.io, "could not start \(executable): \(error)")
        }
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw LarderError(.io, "\(executable) did not finish printing the cookbook within two minutes")
        }
        guard process.terminationStatus == 0, let bytes = FileManager.default.contents(atPath: pdf) else {
            let said = FileManager.default.contents(atPath: log) ?? Data()
            let lastWords = String(decoding: said.suffix(800), as: UTF8.self)
            throw LarderError(
                .io, "\(executable) could not print the cookbook (exit \(process.terminationStatus)): \(lastWords)")
        }
        return [UInt8](bytes)
    }
}

/// Reads, from a PDF Chromium wrote, the page each named destination (an element's `id`) is on.
///
/// Chromium (Skia) writes the catalog, the page tree and the `/Dests` dictionary as plain
/// objects (`12 0 obj <</Type /Pages /Kids [2 0 R …]>> endobj`); streams are skipped whole.
package enum PDFDestinations {
    /// The 1-based page of every named destination, by name; empty when the PDF has none or is
    /// laid out otherwise.
    package static func pages(in pdf: [UInt8]) -> [String: Int] {
        let objects = dictionaries(in: pdf)
        guard let catalog = objects.values.first(where: { $0.contains("/Type /Catalog") }),
            let root = reference(after: "/Pages", in: catalog),
            let destinations = reference(after: "/Dests", in: catalog).flatMap({ objects[$0] })
        else { return [:] }
        var order: [Int: Int] = [:]
        var pending = [root]
        var visited = Set<Int>()
        var leaves: [Int] = []
        // Depth first, kids in order: the pages in reading order.
        while let node = pending.popLast() {
            guard visited.insert(node).inserted, let text = objects[node] else { continue }
            if text.contains("/Type /Pages") {
                pending += kids(of: text).reversed()
            } else {
                leaves.append(node)
            }
        }
        for (index, page) in leaves.enumerated() { order[page] = index + 1 }
        var pages: [String: Int] = [:]
        for (name, object) in named(in: destinations) {
            if let page = order[object] { pages[name] = page }
        }
        return pages
    }

    /// Every object's dictionary text (up to its stream, if it has one), by object number.
    static func dictionaries(in pdf: [UInt8]) -> [Int: String] {
        let marker = Array(" 0 obj".utf8)
        let stream = Array("stream".utf8)
        let end = Array("endobj".utf8)
        let endStream = Array("endstream".utf8)
        var objects: [Int: String] = [:]
        var i = 0
        while let hit = pdf[i...].firstRange(of: marker)?.lowerBound {
            var start = hit
            while start > 0, pdf[start - 1] >= 0x30, pdf[start - 1] <= 0x39 { start -= 1 }
            let number = Int(String(decoding: pdf[start..<hit], as: UTF8.self))
            let body = hit + marker.count
            let close = pdf[body...].firstRange(of: end)?.lowerBound ?? pdf.count
            // Looked for before the object's end only: an object without a stream must not scan on to
            // the next object's (the structure tree's thousands of objects at a PDF's end would each
            // scan to the end of the file).
            let opensStream = pdf[body..<close].firstRange(of: stream)?.lowerBound
            let text = pdf[body..<(opensStream ?? close)]
            if let number { objects[number] = String(decoding: text, as: UTF8.self) }
            if let opensStream {
                // Past the stream whole, so bytes in it that spell `endobj` or `0 obj` are never read as either.
                let afterStream = min(
                    (pdf[opensStream...].firstRange(of: endStream)?.upperBound ?? pdf.count), pdf.count)
                i = pdf[afterStream...].firstRange(of: end)?.lowerBound ?? pdf.count
            } else {
                i = close
            }
            i = min(i + end.count, pdf.count)
        }
        return objects
    }

    /// The object number of `key N 0 R` in a dictionary's text.
    static func reference(after key: String, in text: String) -> Int? {
        guard let range = text.range(of: key + " ") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }

    /// The object numbers in a page tree node's `/Kids [a 0 R b 0 R …]`.
    static func kids(of text: String) -> [Int] {
        guard let open = text.range(of: "/Kids ["), let close = text[open.upperBound...].firstIndex(of: "]") else {
            return []
        }
        let parts = text[open.upperBound..<close].split(separator: " ")
        return stride(from: 0, to: parts.count - 2, by: 3).compactMap { parts[$0 + 2] == "R" ? Int(parts[$0]) : nil }
    }

    /// The `/name [page 0 R /XYZ …]` entries of a destinations dictionary.
    static func named(in text: String) -> [(String, Int)] {
        var entries: [(String, Int)] = []
        var rest = text[...]
        while let slash = rest.firstIndex(of: "/") {
            let name = rest[rest.index(after: slash)...].prefix { !$0.isWhitespace && $0 != "[" && $0 != "/" }
            rest = rest[name.endIndex...]
            let afterName = rest.drop { $0 == " " }
            guard afterName.first == "[" else { continue }
            let digits = afterName.dropFirst().prefix { $0.isNumber }
            if let page = Int(digits) { entries.append((String(name), page)) }
            rest = afterName.dropFirst()
        }
        return entries
    }
}
