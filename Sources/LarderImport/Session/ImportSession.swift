public import Foundation
package import LarderCore
public import LarderFormats

/// Runs an import: detects what each input holds (`ImportDetector`), sends every unit through
/// its importer, gives each item a stable id, drops duplicates (`DuplicateFilter`), writes
/// images beside the output (`ImportImages`), checks each record against its type and the apps'
/// rules, and writes the good records (`ImportOutputs`: one output per record type) and the bad
/// ones to the rejects file.
///
/// Streams: items are written as they are read; memory holds the ids and fingerprints seen
/// (for duplicate detection) and one item at a time.
///
/// Re-runs are idempotent: ids derive from the source (the format's own id, else the source
/// URL or archive entry) and the title, and when the output file already exists its records
/// are kept (with ``Options/merge``) and items already in it count as duplicates.
public final class ImportSession: ImportRecordSink, ImportDiagnostics {
    /// How to run.
    public struct Options {
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
        /// What detection and the importers are told (CSV columns).
        public var importOptions: ImportOptions
        /// Where rejected items go besides ``rejectsPath`` (an upload's dead letters, a log), if anywhere.
        public var diagnostics: (any DiagnosticSink)?
        /// Called after each item (imported, rejected or duplicate) with the count so far, and the
        /// format being read (a progress line).
        public var progress: ((Int, ImportFormat) -> Void)?
        /// Whether a record whose import the mapping proves takes the short way: its leaf census
        /// taken from the mapping, a current Larder recipe mapped field by field (`false`: every
        /// record takes the full path, which the agreement tests compare the short way with).
        package var takesShortcuts = true

        /// Creates options.
        public init(
            outputPath: String? = nil, outputFormat: DataFormat = .json, keepGoing: Bool = false,
            rejectsPath: String? = nil,
            imagesDirectory: String? = nil, importedAt: Date = Date(), limits: ReaderLimits = .default,
            merge: Bool = true, importOptions: ImportOptions = ImportOptions(), diagnostics: (any DiagnosticSink)? = nil
        ) {
            self.diagnostics = diagnostics
            self.limits = limits
            self.merge = merge
            self.outputPath = outputPath
            self.outputFormat = outputFormat
            self.keepGoing = keepGoing
            self.rejectsPath = rejectsPath
            self.imagesDirectory = imagesDirectory
            self.importedAt = importedAt
            self.importOptions = importOptions
        }
    }

    /// What went where (see ``ImportReport``).
    public typealias Report = ImportReport
    /// One line of the report.
    public typealias ReportLine = ImportReport.Line

    private let options: Options
    private let outputs: ImportOutputs
    private let images: ImportImages
    private var duplicates = DuplicateFilter()
    /// The rejects file, finished with the outputs.
    private let rejectsFile: RejectsWriter?
    /// Every route a rejected item or a warning takes: the rejects file and the caller's sink.
    private let diagnostics: [any DiagnosticSink]
    private var currentFormat: ImportFormat = .schemaorg
    /// The report so far.
    public private(set) var report = Report()
    /// The archive whose entries are being read one by one (its units follow each other).
    private var openArchive: ImportProbe?
    /// What importers are handed: this session takes their records and their diagnostics.
    private var context: ImportContext {
        ImportContext(
            records: self, diagnostics: self, readerLimits: options.limits, takesShortcuts: options.takesShortcuts)
    }

    /// Creates a session.
    ///
    /// ```swift
    /// let session = try ImportSession(options: .init(outputPath: "recipes.json", keepGoing: true))
    /// let report = try session.run([("export.paprikarecipes", nil)])
    /// ```
    /// - Parameter options: the output, the rejects file, `keepGoing` and the limits.
    /// - Throws: ``LarderError`` `io-error` when the rejects file cannot be created.
    public init(options: Options) throws {
        self.options = options
        outputs = ImportOutputs(options: options)
        images = ImportImages(outputPath: options.outputPath, explicit: options.imagesDirectory)
        rejectsFile = try options.rejectsPath.map { try RejectsWriter(path: $0) }
        diagnostics = [rejectsFile as (any DiagnosticSink)?, options.diagnostics].compactMap { $0 }
    }

    /// Tells the progress hook one more item was read.
    private func itemDone() {
        options.progress?(report.itemCount, currentFormat)
    }

    /// Imports every input (each with its format, or detected when `nil` or ``ImportFormat/auto``)
    /// and finishes the outputs.
    ///
    /// When it throws, nothing is written: the outputs are never moved into place, and the image
    /// files and folders this run created are removed (nothing else is).
    /// - Parameter inputs: files, archives or folders, each with the format to read it as, or `nil` to detect it.
    /// - Returns: what was imported, rejected and dropped as a duplicate (``ImportReport``).
    /// - Throws: ``LarderError``: the first rejected item's error without `keepGoing`; I/O errors;
    ///   unreadable inputs without `keepGoing` (with it they are reported as rejected); an input
    ///   that is not empty but holds no records (`malformed-record`, naming what was looked for).
    public func run(_ inputs: [(path: String, format: ImportFormat?)]) throws -> Report {
        do {
            return try runInputs(inputs)
        } catch {
            images.removeCreated()
            throw error
        }
    }

    private func runInputs(_ inputs: [(path: String, format: ImportFormat?)]) throws -> Report {
        var units: [ImportDetector.Unit] = []
        for input in inputs {
            do {
                let forced = input.format == .auto ? nil : input.format
                let plan = try ImportDetector.plan(path: input.path, forced: forced, options: options.importOptions)
                units.append(contentsOf: plan.units)
                for (origin, reason) in plan.unclaimed { warn(reason + "; not imported", origin: origin) }
            } catch let error as LarderError where options.keepGoing && error.code != .usage {
                try reject(error, origin: ImportOrigin(file: input.path), raw: nil)
            }
        }
        outputs.splitByType = units.contains { $0.format == .beanconqueror } && outputs.areFiles
        do {
            for unit in units { try importUnit(unit) }
        } catch let abort as ImportAbort {
            throw abort.error
        }
        openArchive = nil
        try outputs.finish()
        report.outputs = outputs.paths
        report.replaced = outputs.replaced
        report.carriedOver = outputs.carriedOver
        report.images = images.written
        try rejectsFile?.finish()
        return report
    }

    /// Reads one unit: a file, archive or folder with its importer, or an archive's entry from a
    /// temporary copy (its items named by the archive and entry).
    private func importUnit(_ unit: ImportDetector.Unit) throws {
        currentFormat = unit.format
        let importer = unit.format.makeImporter(options.importOptions)
        let origin = ImportOrigin(file: unit.path, entry: unit.entry?.path)
        do {
            let before = report.itemCount
            if let entry = unit.entry {
                let archive =
                    try openArchive.flatMap { $0.path == unit.path ? $0 : nil }
                    ?? ImportProbe(archive: unit.path, options: options.importOptions)
                openArchive = archive
                try archive.withExtracted(entry, keepingName: true) { copy in
                    let entry = EntrySink(context, copy: copy, origin: origin)
                    do {
                        try importer.importItems(at: copy, context: entry.context)
                    } catch let error as LarderError {
                        throw entry.relocated(error)
                    }
                }
            } else {
                try importer.importItems(at: unit.path, context: context)
            }
            if report.itemCount == before, unit.entry != nil || ContainedFile.isNonEmpty(unit.path) {
                let what = unit.format == .beanconqueror ? "records" : "recipes"
                try reject(
                    LarderError(
                        .malformedRecord,
                        "no \(what) found in this \(unit.format.rawValue) input; looked for \(unit.format.lookedFor)"),
                    origin: origin, raw: nil)
            }
        } catch let error as LarderError where error.code != .io || options.keepGoing {
            // The whole input is unreadable: one rejection for the file.
            try reject(error.locatedAt(origin.location()), origin: origin, raw: nil)
        }
    }

    // MARK: ImportRecordSink

    package func recipe(_ imported: ImportedRecipe, origin: ImportOrigin) throws {
        let source =
            imported.nativeID.map { "id:" + $0 } ?? imported.sourceURL.map { "url:" + $0 } ?? "entry:"
            + origin.stableKey
        let id = imported.larderID ?? StableID.uuid([currentFormat.rawValue, source, imported.title])
        let writer = try outputs.writer(for: .recipe, duplicates: &duplicates)
        let fingerprint = DuplicateFilter.fingerprint(imported)
        if let reason = duplicates.duplicate(id: id, type: .recipe, sameWhat: "source and title")
            ?? duplicates.duplicate(fingerprint: fingerprint)
        {
            report.duplicates.append(
                ReportLine(name: imported.title, id: id, origin: origin.description, reason: reason))
            itemDone()
            return
        }
        var imageRefs: [String?] = []
        do {
            for (index, image) in imported.images.enumerated() {
                imageRefs.append(
                    try images.store(image, id: index == 0 ? id : "\(id)-\(index + 1)") { warn($0, origin: origin) })
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
        var recipe = imported.makeRecipe(id: id, imageRefs: imageRefs, importedAt: options.importedAt)
        var value = recipe.value
        // The source's leaves against the built record: one nothing consumed joins its extras.
        let leaves = imported.takeLeafCensus(record: &recipe, value: &value, proving: options.takesShortcuts)
        if let problem = recipe.validate().first {
            try reject(
                LarderError(.invalidRecord, problem.message, location: problem.location), origin: origin, raw: value)
            return
        }
        try writer.write(value)
        report.census.add(imported.fieldCensus, format: currentFormat)
        if let leaves { report.census.add(leaves, format: currentFormat) }
        duplicates.record(
            id: id, name: imported.title, type: .recipe, fingerprint: fingerprint, origin: origin.description)
        report.imported.append(ReportLine(name: imported.title, id: id, origin: origin.description))
        itemDone()
    }

    package func brewRecipe(_ recipe: BrewRecipe, census: FieldCensus?, origin: ImportOrigin) throws {
        try write(recipe, name: recipe.name, census: census, origin: origin)
    }

    package func brewLog(_ log: BrewLog, census: FieldCensus?, origin: ImportOrigin) throws {
        try write(log, name: log.recipeNameAtBrew, census: census, origin: origin)
    }

    private func write<R: LarderRecord>(_ record: R, name: String, census: FieldCensus?, origin: ImportOrigin) throws {
        let writer = try outputs.writer(for: R.recordType, duplicates: &duplicates)
        if let reason = duplicates.duplicate(id: record.id, type: R.recordType, sameWhat: "id") {
            report.duplicates.append(ReportLine(name: name, id: record.id, origin: origin.description, reason: reason))
            itemDone()
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
        duplicates.record(id: record.id, name: name, type: R.recordType)
        report.imported.append(ReportLine(name: name, id: record.id, origin: origin.description))
        itemDone()
    }

    // MARK: ImportDiagnostics

    package func reject(_ error: LarderError, origin: ImportOrigin, raw: Value?) throws {
        let located = error.locatedAt(origin.location())
        guard options.keepGoing else { throw ImportAbort(error: located) }
        let name = raw.flatMap { $0["title"]?.stringValue ?? $0["name"]?.stringValue } ?? origin.stableKey
        // The cause is the field and message, without file, position and record number.
        let field = located.location?.fieldPath.map { SourceLocation(fieldPath: $0).recordPrefix } ?? ""
        report.rejected.append(
            ReportLine(
                name: name, origin: origin.description, reason: located.description,
                cause: TerminalText.escaped(field + error.message)))
        itemDone()
        for sink in diagnostics { try sink.reject(raw, located) }
    }

    package func warn(_ message: String, origin: ImportOrigin) {
        report.warnings.append("\(origin): warning: \(message)")
        // A sink that cannot take a warning (a full disk) loses only the warning: the report keeps it.
        for sink in diagnostics { try? sink.warn(code: "import-warning", message, location: origin.location()) }
    }
}
