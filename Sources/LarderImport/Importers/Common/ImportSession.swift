public import Foundation
public import LarderCore
public import LarderFormats

/// Runs an import: sends every input through its importer, gives each item a stable id,
/// drops duplicates, writes images beside the output, checks each record against its type
/// and the apps' rules, and writes the good records (one output per record type) and the
/// bad ones to the rejects file.
///
/// Streams: items are written as they are read; memory holds the ids and fingerprints seen
/// (for duplicate detection) and one item at a time.
///
/// Re-runs are idempotent: ids derive from the source (the format's own id, else the source
/// URL or archive entry) and the title, and when the output file already exists its records
/// are kept and items already in it count as duplicates.
public final class ImportSession: ImportSink {
    /// How to run.
    public struct Options: Sendable {
        /// The output file (`nil` or `-`: standard output).
        public var outputPath: String?
        /// The output format.
        public var outputFormat: DataFormat
        /// Reject bad items and go on (else the first one stops the import and nothing is written).
        public var keepGoing: Bool
        /// Where rejected items go (NDJSON of `{record, raw, diagnostic}`).
        public var rejectsPath: String?
        /// Where image files go (default: `<output stem>-images` beside the output).
        public var imagesDirectory: String?
        /// The creation date of records whose source has none.
        public var importedAt: Date
        /// Limits for every reader and importer of the run (``ReaderLimits/maxRecordSize`` caps one record).
        public var limits: ReaderLimits
        /// Keep the records of an output file that already exists, and count items already in it
        /// as duplicates (`larder import --merge`); else the output is replaced, as every other
        /// writer replaces its output (`convert`, jq, yq).
        public var merge: Bool

        /// Creates options.
        public init(
            outputPath: String? = nil, outputFormat: DataFormat = .json, keepGoing: Bool = false,
            rejectsPath: String? = nil,
            imagesDirectory: String? = nil, importedAt: Date = Date(), limits: ReaderLimits = .default,
            merge: Bool = true
        ) {
            self.limits = limits
            self.merge = merge
            self.outputPath = outputPath
            self.outputFormat = outputFormat
            self.keepGoing = keepGoing
            self.rejectsPath = rejectsPath
            self.imagesDirectory = imagesDirectory
            self.importedAt = importedAt
        }
    }

    /// One line of the final report.
    public struct ReportLine: Sendable, Hashable {
        /// The recipe's (or brew record's) name.
        public var name: String
        /// Its id, when it got one.
        public var id: String?
        /// Where it came from.
        public var origin: String
        /// Why it was rejected, or what it duplicates.
        public var reason: String?
    }

    /// What went where.
    public struct Report: Sendable {
        public var imported: [ReportLine] = []
        public var rejected: [ReportLine] = []
        public var duplicates: [ReportLine] = []
        public var warnings: [String] = []
        /// Records kept from an output file that already existed (with ``Options/merge``).
        public var carriedOver = 0
        /// Output files that existed and were replaced (without ``Options/merge``).
        public var replaced: [String] = []
        /// The files written.
        public var outputs: [String] = []
        /// Image files written.
        public var images = 0
        /// What happened to each source field of the records written (see ``FieldCensus``).
        public var census = CensusTally()
    }

    private let options: Options
    private var writers: [RecordType: any RecordWriter] = [:]
    private var seenIDs: [RecordType: [String: String]] = [:]
    private var fingerprints: [String: String] = [:]
    /// Ids that were already in an existing output file.
    private var carriedIDs = Set<String>()
    private let rejects: RejectsWriter?
    private var splitByType = false
    private var currentFormat: ImportFormat = .schemaorg
    /// The report so far.
    public private(set) var report = Report()
    /// Image files and folders this run created, removed again when the run fails.
    private var createdFiles: [String] = []
    private var createdDirectories: [String] = []
    private var imagesDirectoryReady = false
    /// The census of the brew record about to be written.
    private var pendingCensus: FieldCensus?

    public var readerLimits: ReaderLimits { options.limits }

    /// Creates a session.
    /// - Throws: ``LarderError`` `io-error` when the rejects file cannot be created.
    public init(options: Options) throws {
        self.options = options
        rejects = try options.rejectsPath.map { try RejectsWriter(path: $0) }
    }

    /// Imports every input (each with its format, or detected when `nil`) and finishes the outputs.
    ///
    /// When it throws, nothing is written: the outputs are never moved into place, and the image
    /// files and folders this run created are removed (nothing else is).
    /// - Throws: ``LarderError``: the first rejected item's error without `keepGoing`; I/O errors;
    ///   unreadable inputs without `keepGoing` (with it they are reported as rejected); an input
    ///   that is not empty but holds no records (`malformed-record`, naming what was looked for).
    public func run(_ inputs: [(path: String, format: ImportFormat?)]) throws -> Report {
        do {
            return try runInputs(inputs)
        } catch {
            ContainedFile.remove(files: createdFiles, directories: createdDirectories)
            createdFiles.removeAll()
            createdDirectories.removeAll()
            throw error
        }
    }

    private var itemCount: Int { report.imported.count + report.rejected.count + report.duplicates.count }

    /// What to import for one input, with which format.
    ///
    /// A file: the given format, else the detected one. A folder: as one export when a format reads
    /// it whole (the given one, or the one detection finds), else each file below it (hidden ones
    /// and images left out) with the given format, or the format detected for it; a file no format
    /// claims is a warning naming the formats it was checked against.
    /// - Throws: ``LarderError`` `usage-error` when nothing in a folder is a recipe file, or a
    ///   single file's format cannot be told; `io-error` when a path cannot be read.
    private func plan(_ input: (path: String, format: ImportFormat?)) throws -> [(String, ImportFormat)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return [(input.path, try input.format ?? ImportFormat.detect(path: input.path))] }
        if let forced = input.format, ImportFormat.readsFolders.contains(forced) { return [(input.path, forced)] }
        if input.format == nil, let format = try ImportFormat.detectFolder(path: input.path) {
            return [(input.path, format)]
        }
        let files = (FileManager.default.enumerator(atPath: input.path)?.allObjects as? [String] ?? [])
            .filter { relative in
                !relative.split(separator: "/").contains { $0.hasPrefix(".") } && !Self.isImageFile(relative)
            }
            .sorted()
        var planned: [(String, ImportFormat)] = []
        var unclaimed: [String] = []
        for relative in files {
            let path = input.path + "/" + relative
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            if let forced = input.format {
                planned.append((path, forced))
                continue
            }
            do {
                planned.append((path, try ImportFormat.detect(path: path)))
            } catch let error as LarderError where error.code == .usage {
                unclaimed.append(relative)
            }
        }
        if planned.isEmpty {
            throw LarderError(
                .usage,
                "no file in this folder is a recipe export Larder reads: \(unclaimed.count) file\(unclaimed.count == 1 ? "" : "s") checked against "
                    + ImportFormat.contentChecked.map(\.displayName).joined(separator: ", ")
                    + "; pass --from to read them as one format",
                location: SourceLocation(file: input.path))
        }
        for relative in unclaimed {
            warn(
                "no recipe format claims this file (checked against "
                    + ImportFormat.contentChecked.map(\.displayName).joined(separator: ", ") + "); not imported",
                origin: ImportOrigin(file: input.path, entry: relative))
        }
        return planned
    }

    /// Whether a file in a folder is a picture (the recipes' images, not a recipe).
    static func isImageFile(_ path: String) -> Bool {
        let lower = path.lowercased()
        return [".jpg", ".jpeg", ".png", ".gif", ".webp", ".heic", ".avif", ".bmp", ".tif", ".tiff", ".svg"]
            .contains { lower.hasSuffix($0) }
    }

    private func runInputs(_ inputs: [(path: String, format: ImportFormat?)]) throws -> Report {
        var formats: [(String, ImportFormat)] = []
        for input in inputs {
            do {
                formats.append(contentsOf: try plan(input))
            } catch let error as LarderError where options.keepGoing && error.code != .usage {
                try reject(error, origin: ImportOrigin(file: input.path), raw: nil)
            }
        }
        splitByType = formats.contains { $0.1 == .beanconqueror } && isFileOutput
        do {
            for (path, format) in formats {
                currentFormat = format
                do {
                    let before = itemCount
                    try format.makeImporter().importItems(at: path, into: self)
                    if itemCount == before, ContainedFile.isNonEmpty(path) {
                        let what = format == .beanconqueror ? "records" : "recipes"
                        try reject(
                            LarderError(
                                .malformedRecord,
                                "no \(what) found in this \(format.rawValue) input; looked for \(format.lookedFor)"),
                            origin: ImportOrigin(file: path), raw: nil)
                    }
                } catch let error as LarderError where error.code != .io || options.keepGoing {
                    // The whole input is unreadable: one rejection for the file.
                    try reject(error.locatedAt(SourceLocation(file: path)), origin: ImportOrigin(file: path), raw: nil)
                }
            }
        } catch let abort as ImportAbort {
            throw abort.error
        }
        for (_, writer) in writers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { try writer.finish() }
        if writers.isEmpty, isFileOutput, let path = options.outputPath, !splitByType {
            // Nothing imported: still leave a valid (empty) output.
            try writer(for: .recipe).finish()
            report.outputs = [path]
        }
        try rejects?.finish()
        return report
    }

    private var isFileOutput: Bool { options.outputPath != nil && options.outputPath != "-" }

    // MARK: Outputs

    /// `out.json` → `out.brewLog.json` when the run writes several record types.
    private func outputPath(for type: RecordType) -> String? {
        guard isFileOutput, let path = options.outputPath else { return nil }
        guard splitByType else { return path }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let file = String(path.dropFirst(directory.count))
        guard let dot = file.firstIndex(of: ".") else { return path + "." + type.rawValue }
        let stem: String = directory + file[..<dot]
        return stem + "." + type.rawValue + String(file[dot...])
    }

    private func writer(for type: RecordType) throws -> any RecordWriter {
        if let writer = writers[type] { return writer }
        let path = outputPath(for: type)
        var existing: [Value] = []
        if let path, !options.merge, FileManager.default.fileExists(atPath: path) { report.replaced.append(path) }
        if let path, options.merge, FileManager.default.fileExists(atPath: path),
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap({ $0 }) ?? 0 > 0
        {
            // Keep what an earlier run imported; those ids count as already there.
            let reader = try RecordIO.openReader(path: path, recordType: type, limits: options.limits)
            while let item = try reader.next() {
                existing.append(item.value)
                if let id = item.value["id"]?.stringValue {
                    carriedIDs.insert(id)
                    let name =
                        item.value["title"]?.stringValue ?? item.value["name"]?.stringValue ?? item.value[
                            "recipeNameAtBrew"]?.stringValue ?? id
                    seenIDs[type, default: [:]][id] = name
                }
            }
        }
        let useEnvelope = path != nil && options.outputFormat != .ndjson
        let writerOptions = WriterOptions(
            envelope: useEnvelope ? EnvelopeHeader(schema: type.rawValue, version: type.currentVersion) : nil,
            recordType: type,
            pretty: options.outputFormat == .json && path != nil)
        let writer = try RecordIO.openWriter(path: path, format: options.outputFormat, options: writerOptions)
        for value in existing { try writer.write(value) }
        report.carriedOver += existing.count
        writers[type] = writer
        if let path { report.outputs.append(path) }
        return writer
    }

    // MARK: ImportSink

    public func recipe(_ imported: ImportedRecipe, origin: ImportOrigin) throws {
        let source =
            imported.nativeID.map { "id:" + $0 } ?? imported.sourceURL.map { "url:" + $0 } ?? "entry:"
            + origin.stableKey
        let id = imported.larderID ?? StableID.uuid([currentFormat.rawValue, source, imported.title])
        let writer = try writer(for: .recipe)
        if let earlier = seenIDs[.recipe]?[id] {
            let reason =
                carriedIDs.contains(id)
                ? "already in the output (imported earlier)" : "same source and title as \"\(earlier)\""
            report.duplicates.append(
                ReportLine(name: imported.title, id: id, origin: origin.description, reason: reason))
            return
        }
        let fingerprint = Self.fingerprint(imported)
        if let earlier = fingerprints[fingerprint] {
            report.duplicates.append(
                ReportLine(
                    name: imported.title, id: id, origin: origin.description,
                    reason: "same title, ingredients and steps as \(earlier)"))
            return
        }
        var imageRefs: [String?] = []
        do {
            for (index, image) in imported.images.enumerated() {
                imageRefs.append(try storeImage(image, id: index == 0 ? id : "\(id)-\(index + 1)", origin: origin))
            }
            if imageRefs.isEmpty { imageRefs = [nil] }
        } catch let error as LarderError where error.code == .io {
            // One image that cannot be written rejects its record; the rest of the input goes on.
            let problem = LarderError(
                .io, "the recipe's image could not be written: \(error.description)",
                location: SourceLocation(fieldPath: "imageRef"))
            try reject(
                problem, origin: origin,
                raw: imported.makeRecipe(id: id, imageRef: nil, importedAt: options.importedAt).value)
            return
        }
        let recipe = imported.makeRecipe(id: id, imageRefs: imageRefs, importedAt: options.importedAt)
        if let problem = recipe.validate().first {
            try reject(
                LarderError(.invalidRecord, problem.message, location: problem.location), origin: origin,
                raw: recipe.value)
            return
        }
        try writer.write(recipe.value)
        report.census.add(imported.fieldCensus, format: currentFormat)
        seenIDs[.recipe, default: [:]][id] = imported.title
        fingerprints[fingerprint] = "\"\(imported.title)\" (\(origin))"
        report.imported.append(ReportLine(name: imported.title, id: id, origin: origin.description))
    }

    public func brewRecipe(_ recipe: BrewRecipe, origin: ImportOrigin) throws {
        try write(recipe, name: recipe.name, origin: origin)
    }

    public func brewLog(_ log: BrewLog, origin: ImportOrigin) throws {
        try write(log, name: log.recipeNameAtBrew, origin: origin)
    }

    public func census(_ census: FieldCensus, format: ImportFormat, origin: ImportOrigin) {
        pendingCensus = census
    }

    private func write<R: LarderRecord>(_ record: R, name: String, origin: ImportOrigin) throws {
        let census = pendingCensus
        pendingCensus = nil
        let writer = try writer(for: R.recordType)
        if let earlier = seenIDs[R.recordType]?[record.id] {
            let reason =
                carriedIDs.contains(record.id)
                ? "already in the output (imported earlier)" : "same id as \"\(earlier)\""
            report.duplicates.append(ReportLine(name: name, id: record.id, origin: origin.description, reason: reason))
            return
        }
        if let problem = record.validate().first {
            try reject(
                LarderError(.invalidRecord, problem.message, location: problem.location), origin: origin,
                raw: record.value)
            return
        }
        try writer.write(record.value)
        if let census { report.census.add(census, format: currentFormat) }
        seenIDs[R.recordType, default: [:]][record.id] = name
        report.imported.append(ReportLine(name: name, id: record.id, origin: origin.description))
    }

    public func reject(_ error: LarderError, origin: ImportOrigin, raw: Value?) throws {
        let located = error.locatedAt(origin.location())
        guard options.keepGoing else { throw ImportAbort(error: located) }
        let name = raw.flatMap { $0["title"]?.stringValue ?? $0["name"]?.stringValue } ?? origin.stableKey
        report.rejected.append(ReportLine(name: name, origin: origin.description, reason: located.description))
        try rejects?.reject(raw, located.diagnostic)
    }

    public func warn(_ message: String, origin: ImportOrigin) {
        report.warnings.append("\(origin): warning: \(message)")
    }

    // MARK: Images and fingerprints

    /// Writes an embedded image next to the output and returns its reference; a URL is kept as it is.
    ///
    /// The file is named after the id made a safe single path component, created new inside the
    /// images folder (never through a symlink, never over an existing file: a taken name gets a
    /// `-2`, `-3`, … suffix, with a warning).
    private func storeImage(_ image: ImportedRecipe.Image?, id: String, origin: ImportOrigin) throws -> String? {
        switch image {
        case nil: return nil
        case .url(let url)?: return url
        case .data(let bytes, let ext)?:
            let directory = imagesDirectory
            try makeImagesDirectory(directory.onDisk)
            let wanted = ContainedFile.safeComponent(id) + "." + ContainedFile.safeComponent(ext, maxLength: 10)
            // A re-run finds the image it wrote before (same name, same bytes) and points at it.
            if let same = ContainedFile.existingCopy(in: directory.onDisk, stem: id, fileExtensions: [ext], of: bytes) {
                return directory.reference + "/" + same
            }
            let file = try ContainedFile.createNew(in: directory.onDisk, stem: id, fileExtension: ext, bytes: bytes)
            createdFiles.append(directory.onDisk + "/" + file)
            if wanted != "\(id).\(ext)" {
                warn("the id \"\(id)\" is not a safe file name; its image is \(file)", origin: origin)
            } else if file != wanted {
                warn(
                    "\(wanted) already exists in \(directory.onDisk) and is left alone; the image is \(file)",
                    origin: origin)
            }
            report.images += 1
            return directory.reference + "/" + file
        }
    }

    /// Creates the images folder (and missing parents) once, remembering which folders this run created.
    private func makeImagesDirectory(_ path: String) throws {
        guard !imagesDirectoryReady else { return }
        var missing: [String] = []
        var current = path
        while !current.isEmpty, !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current { break }
            current = parent
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LarderError(
                .io, "cannot create the images folder: \(error.localizedDescription)",
                location: SourceLocation(file: path))
        }
        createdDirectories.append(contentsOf: missing)
        imagesDirectoryReady = true
    }

    /// Where images go on disk, and how a record refers to that folder (relative to the output).
    private var imagesDirectory: (onDisk: String, reference: String) {
        if let explicit = options.imagesDirectory { return (explicit, explicit) }
        guard isFileOutput, let path = options.outputPath else { return ("larder-images", "larder-images") }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let file = String(path.split(separator: "/").last ?? Substring(path))
        let stem = file.split(separator: ".").first.map(String.init) ?? file
        return (directory + "/" + stem + "-images", stem + "-images")
    }

    /// What makes two imports the same recipe: title, ingredient lines and steps, compared
    /// case- and space-insensitively.
    static func fingerprint(_ recipe: ImportedRecipe) -> String {
        func norm(_ s: String) -> String { HTMLText.collapseWhitespace(s).lowercased() }
        var parts = [norm(recipe.title)]
        parts.append(contentsOf: recipe.ingredients.map(norm))
        parts.append("--")
        parts.append(contentsOf: recipe.steps.map { norm($0.text) })
        return SHA256.hash(Array(parts.joined(separator: "\n").utf8)).hexString
    }
}
