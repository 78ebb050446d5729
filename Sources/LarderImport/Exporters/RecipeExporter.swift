import Foundation
package import LarderCore
import LarderFormats

/// The foreign formats `larder export` writes.
package enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    case schemaorg, paprika, cooklang, recipeml, mealie, tandoor, nextcloud, mela
    case mealmaster, csv, crouton
    /// RezKonv, MealMaster's German variant (`=====  REZKONV-Rezept` framing).
    case rezkonv
    /// A static, printable cookbook: `index.html`, one page per recipe and the book, `print.html`.
    case html
    /// The cookbook as a PDF, printed by headless Chromium.
    case pdf
    /// One Markdown file per recipe with YAML front matter (Chowdown's keys and layout).
    case markdown

    /// The usual file extension of the whole output.
    package var fileExtension: String {
        switch self {
        case .schemaorg: "jsonld"
        case .paprika: "paprikarecipes"
        case .cooklang: "cook"
        case .recipeml: "xml"
        case .mealie, .tandoor, .nextcloud: "zip"
        case .mela: "melarecipes"
        case .mealmaster: "mmf"
        case .rezkonv: "rk"
        case .csv: "csv"
        case .html, .markdown: "zip"
        case .pdf: "pdf"
        case .crouton: "zip"
        }
    }

    /// The import format that reads this export back (and whose `extras` the exporter restores);
    /// `nil` for the HTML and PDF cookbook, which no importer reads back as a whole.
    package var importFormat: ImportFormat? {
        switch self {
        case .schemaorg: .schemaorg
        case .paprika: .paprika
        case .cooklang: .cooklang
        case .recipeml: .recipeml
        case .mealie: .mealie
        case .tandoor: .tandoor
        case .nextcloud: .nextcloud
        case .mela: .mela
        case .mealmaster, .rezkonv: .mealmaster
        case .csv: .csv
        case .markdown: .chowdown
        case .html, .pdf: nil
        case .crouton: .crouton
        }
    }
}

/// A recipe on its way out, with its image bytes when the image is a local file.
package struct ExportItem {
    /// The recipe.
    package var recipe: Recipe
    /// The image file's bytes, when `recipe.imageRef` names a readable local file.
    package var image: [UInt8]?
}

/// Writes recipes in a foreign format, one at a time.
package protocol RecipeExporter: AnyObject {
    /// Writes one recipe.
    func write(_ item: ExportItem) throws
    /// Finishes the output (closing lists and archives) and moves it into place.
    func finish() throws
}

/// Reads Larder recipe records and writes them through an exporter, checking each one first.
package struct ExportSession {
    /// What went where.
    package struct Summary: Sendable {
        package var exported: [String] = []
        package var rejected: [String] = []
        /// Problems that did not stop a record (an image refused), compiler style.
        package var warnings: [String] = []
        /// Records exported without their image because `imageRef` points outside the records file's folder.
        package var imagesLeftOut = 0
    }

    /// Larder record files to read.
    package var inputs: [String]
    /// The format to write.
    package var format: ExportFormat
    /// The output path (`nil`/`-`: standard output, where the format allows).
    package var outputPath: String?
    /// Reject bad records and go on.
    package var keepGoing: Bool
    /// Called after each record read with the count so far (a progress line).
    package var progress: ((Int) -> Void)?
    /// How the HTML and PDF cookbook is laid out.
    package var layout = CookbookLayout()
    /// Fetches a recipe's linked (`http(s)`) photo when it has no local one (`--fetch-images`).
    ///
    /// Gives the image's bytes, or why not. `nil`: linked photos are not fetched.
    package var fetchImage: ((String) -> Result<[UInt8], LarderError>)?

    /// Creates a session.
    package init(inputs: [String], format: ExportFormat, outputPath: String?, keepGoing: Bool) {
        self.inputs = inputs
        self.format = format
        self.outputPath = outputPath
        self.keepGoing = keepGoing
    }

    /// Runs the export; bad records go to `onReject` (with `keepGoing`) or stop it.
    /// - Throws: ``LarderError``: the first bad record without `keepGoing`; I/O errors.
    package func run(onReject: (Value?, LarderError) throws -> Void) throws -> Summary {
        do {
            return try export(onReject: onReject)
        } catch let stop as ExportStop {
            throw stop.error
        }
    }

    /// An error about the output that ends the export, past the per-record handling.
    private struct ExportStop: Error {
        var error: LarderError
    }

    private func export(onReject: (Value?, LarderError) throws -> Void) throws -> Summary {
        let exporter = try makeExporter()
        var summary = Summary()
        var read = 0
        for input in inputs {
            let reader = try RecordIO.openReader(path: input, recordType: .recipe)
            let base = input == "-" ? "." : (input.lastIndex(of: "/").map { String(input[..<$0]) } ?? ".")
            while true {
                let item: RecordItem?
                do {
                    item = try reader.next()
                } catch let error as LarderError where error.code != .io && keepGoing {
                    try onReject(nil, error)
                    summary.rejected.append("\(input): \(error.message)")
                    if reader.canRecover { continue }
                    break
                }
                guard let item else { break }
                read += 1
                progress?(read)
                do {
                    let recipe = try Recipe(value: item.value)
                    if recipe.sync.isDeleted { continue }
                    if let problem = recipe.validate().first {
                        throw LarderError(.invalidRecord, problem.message, location: problem.location)
                    }
                    let image: [UInt8]?
                    switch Self.localImage(recipe.imageRef, base: base) {
                    case .success(let bytes):
                        image = bytes
                    case .failure(let reason):
                        // Refused: the record goes out without its image, and the summary says so.
                        image = nil
                        var location = reader.location(of: "imageRef") ?? item.location
                        location.recordIndex = item.index
                        location.fieldPath = "imageRef"
                        let message = "\"\(recipe.imageRef ?? "")\" is \(reason); exported without its image"
                        summary.warnings.append(
                            Diagnostic(severity: .warning, code: "refused-input", message: message, location: location)
                                .description)
                        summary.imagesLeftOut += 1
                    }
                    var photoLocation = item.location
                    photoLocation.recordIndex = item.index
                    photoLocation.fieldPath = "imageRef"
                    let fetched = image == nil ? fetchedImage(recipe, at: photoLocation, summary: &summary) : nil
                    do {
                        try exporter.write(ExportItem(recipe: recipe, image: image ?? fetched))
                    } catch var error as LarderError where error.code == .usage {
                        // The output cannot take this record (a single-recipe file given a second
                        // one): an error about the output, named with the record it stopped at.
                        var location = error.location ?? SourceLocation(file: outputPath)
                        location.recordIndex = item.index
                        error.location = location
                        throw ExportStop(error: error)
                    }
                    summary.exported.append(recipe.title)
                } catch let error as LarderError where error.code != .io {
                    var location = reader.location(of: error.location?.fieldPath ?? .root) ?? item.location
                    location.recordIndex = item.index
                    location.fieldPath = error.location?.fieldPath
                    let located = error.locatedAt(location)
                    guard keepGoing else { throw located }
                    try onReject(item.value, located)
                    summary.rejected.append(located.description)
                }
            }
        }
        try exporter.finish()
        return summary
    }

    /// The recipe's first linked photo, fetched with ``fetchImage``; `nil` (with a warning saying
    /// why) when it cannot be fetched or is not an image.
    private func fetchedImage(_ recipe: Recipe, at location: SourceLocation, summary: inout Summary) -> [UInt8]? {
        guard let fetchImage, let url = HTMLCookbookPage.remotePhoto(recipe) else { return nil }
        let problem: String
        switch fetchImage(url) {
        case .success(let bytes) where ImageKind.fileExtension(for: Array(bytes.prefix(16))) != "bin":
            return bytes
        case .success: problem = "is not an image (JPEG, PNG, GIF, WebP or HEIC)"
        case .failure(let error): problem = "could not be fetched: \(error.message)"
        }
        let message = "the photo \(url) \(problem); exported without it"
        summary.warnings.append(
            Diagnostic(severity: .warning, code: "image-unavailable", message: message, location: location).description)
        return nil
    }

    private func makeExporter() throws -> any RecipeExporter {
        switch format {
        case .schemaorg: return try SchemaOrgExporter(path: outputPath)
        case .paprika: return try PaprikaExporter(path: outputPath)
        case .cooklang: return try CooklangExporter(path: outputPath)
        case .recipeml: return try RecipeMLExporter(path: outputPath)
        case .mealie: return try MealieExporter(path: outputPath)
        case .tandoor: return try TandoorExporter(path: outputPath)
        case .nextcloud: return try NextcloudExporter(path: outputPath)
        case .mela: return try MelaExporter(path: outputPath)
        case .mealmaster: return try MealMasterExporter(path: outputPath)
        case .rezkonv: return try RezKonvExporter(path: outputPath)
        case .csv: return try CSVExporter(path: outputPath)
        case .html: return try HTMLCookbookExporter(path: outputPath, layout: layout)
        case .pdf: return try CookbookPDFExporter(path: outputPath, layout: layout)
        case .markdown: return try MarkdownExporter(path: outputPath)
        case .crouton: return try CroutonExporter(path: outputPath)
        }
    }

    /// The bytes of a local image file, if there is one.
    ///
    /// Only a relative path without `..` that resolves (after symlinks) to a file inside the
    /// records file's folder `base` is read; any other local reference is refused. A URL, or a
    /// file that does not exist, is no image; one that cannot be read is refused with why.
    static func localImage(_ ref: String?, base: String) -> Result<[UInt8]?, ContainedFile.RefusalReason> {
        guard let ref, !ref.isEmpty, !ref.contains("://") else { return .success(nil) }
        switch ContainedFile.resolveInside(ref, base: base, folder: ".") {
        case .failure(.missing), .failure(.notRegularFile): return .success(nil)
        case .failure(let reason): return .failure(reason)
        case .success(let path):
            // A file that is there but cannot be read (or passes 64 MB) is said, never "no image".
            do {
                return .success(try FileByteSource(path: path).readAll(limit: 64 << 20))
            } catch let error as LarderError {
                return .failure(.unreadable(error.message))
            } catch {
                return .failure(.unreadable("\(error)"))
            }
        }
    }

    /// A sink for `path`: an atomic file, or standard output for `nil`/`-`.
    static func sink(_ path: String?) throws -> any ByteSink {
        guard let path, path != "-" else { return FileByteSink(standardOutput: ()) }
        return try FileByteSink(path: path)
    }
}
