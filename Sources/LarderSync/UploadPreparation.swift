public import Foundation
public import LarderCore
public import LarderDedupe
public import LarderFormats
public import LarderRegistry

/// Prepares input files for upload: each is migrated to its type's newest schema version
/// (the registry's ``FileMigration``, validated against the target schema), and with
/// ``isDeduplicating`` the recipes go through the ``DedupePass`` (saved and created sets
/// merged without duplicates).
///
/// Without dedupe the upload pulls migrated records straight from the input (``streams(deadLetters:)``);
/// with it, each stage streams into a file in ``workDirectory``. Records a stage refuses go to the
/// dead letters with the stage and reason.
public struct UploadPreparation {
    /// The inputs (`-` for standard input).
    public var inputs: [String]
    /// Input format; nil sniffs.
    public var inputFormat: DataFormat?
    /// The record type; nil takes it from each file.
    public var recordType: RecordType?
    /// The migrator (registry, stages, converters).
    public var migrator: Migrator
    /// Run the dedupe pass over the recipes.
    public var isDeduplicating: Bool
    /// Where the stage files go (created; the caller removes it).
    public var workDirectory: String

    /// Creates a preparation.
    public init(
        inputs: [String], inputFormat: DataFormat? = nil, recordType: RecordType? = nil, migrator: Migrator,
        isDeduplicating: Bool = false,
        workDirectory: String
    ) {
        self.inputs = inputs
        self.inputFormat = inputFormat
        self.recordType = recordType
        self.migrator = migrator
        self.isDeduplicating = isDeduplicating
        self.workDirectory = workDirectory
    }

    /// What preparing did.
    public struct Result: Sendable {
        /// The prepared files, in input order (JSON envelopes naming type and version).
        public var files: [String]
        /// Records read from the inputs.
        public var read = 0
        /// Records that were at an older version and were migrated.
        public var migrated = 0
        /// Records refused by migration or dedupe (in the dead letters).
        public var rejected = 0
        /// Records merged away by dedupe (members of clusters minus the survivors).
        public var mergedAway = 0
        /// Records ready to upload.
        public var ready = 0
        /// Inputs whose reading stopped at a syntax error (what followed it was not read).
        public var abandonedInputs: [String] = []
    }

    /// The migration as streams the upload reads as it goes (one per input); nil with dedupe.
    ///
    /// Without dedupe, no record is written to a stage file and parsed again, and the server
    /// gets its first batch while the rest are still being read. With dedupe (which needs every
    /// recipe before it writes one) this is nil and ``run(deadLetters:)`` prepares files.
    public func streams(deadLetters: DeadLetters) throws -> [FileMigration.Stream]? {
        guard !isDeduplicating else { return nil }
        // The streams open their files when first read, after the server is reached: an input that
        // cannot be opened is reported now, before any request, as the file stage reported it.
        for input in inputs where input != "-" { _ = try FileByteSource(path: input) }
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        return inputs.map { input in
            migration(of: input).stream(imagesDirectory: workDirectory) { record, error in
                try Self.deadLetter(record, error, input: input, to: deadLetters)
            }
        }
    }

    /// The migration of one input to its types' newest versions, keeping going past bad records.
    private func migration(of input: String) -> FileMigration {
        FileMigration(
            migrator: migrator, inputs: [input], inputFormat: inputFormat, recordType: recordType, keepGoing: true)
    }

    /// A record the migration refused, into the dead letters under the `migrate` stage.
    private static func deadLetter(_ record: Value?, _ error: LarderError, input: String, to deadLetters: DeadLetters)
        throws
    {
        try deadLetters.add(
            record: record, recordName: nil, recordType: nil, stage: "migrate", code: error.code.rawValue,
            reason: error.description, origin: input)
    }

    /// Runs the stages.
    /// - Throws: ``LarderError`` for unreadable inputs, plan problems, I/O.
    public func run(deadLetters: DeadLetters) async throws -> Result {
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        var result = Result(files: [])
        var migratedFiles: [(path: String, type: RecordType?)] = []
        for (index, input) in inputs.enumerated() {
            let output = (workDirectory as NSString).appendingPathComponent("migrated-\(index).json")
            let summary = try migration(of: input).run(
                output: output, format: .json,
                onReject: { record, error in try Self.deadLetter(record, error, input: input, to: deadLetters) })
            result.read += summary.pipeline.read
            result.rejected += summary.pipeline.rejected
            result.migrated += summary.migratedRecords
            result.abandonedInputs += summary.pipeline.abandonedInputs
            migratedFiles.append((output, try Self.declaredType(of: output)))
        }
        guard isDeduplicating else {
            result.files = migratedFiles.map(\.path)
            result.ready = result.read - result.rejected
            return result
        }
        let recipes = migratedFiles.filter { $0.type == .recipe }
        result.files = migratedFiles.filter { $0.type != .recipe }.map(\.path)
        guard !recipes.isEmpty else {
            result.ready = result.read - result.rejected
            return result
        }
        let deduped = (workDirectory as NSString).appendingPathComponent("deduped-recipes.json")
        let rejectsPath = (workDirectory as NSString).appendingPathComponent("dedupe-rejects.ndjson")
        var configuration = DedupeConfiguration()
        configuration.keepGoing = true
        configuration.scratchDirectory = workDirectory
        configuration.outputFormat = .json
        let pass = DedupePass(
            inputs: recipes.map { .file($0.path, role: .mixed, format: .json) }, configuration: configuration)
        let rejectsSink = try FileByteSink(path: rejectsPath)
        let analysis = try await pass.analyze(rejects: rejectsSink)
        let writer = try RecordIO.openWriter(
            path: deduped, format: .json,
            options: WriterOptions(
                envelope: EnvelopeHeader(schema: RecordType.recipe.rawValue, version: RecordType.recipe.currentVersion),
                recordType: .recipe))
        let summary = try await analysis.write(to: writer, log: nil, rejects: rejectsSink)
        try rejectsSink.close()
        let rejected = try Self.forwardRejects(rejectsPath, to: deadLetters)
        let recipeRead = summary.inputs.reduce(0) { $0 + $1.read }
        result.rejected += rejected
        result.mergedAway += max(0, recipeRead - rejected - summary.written)
        result.files.append(deduped)
        result.ready = result.read - result.rejected - result.mergedAway
        return result
    }

    /// The record type a prepared file's envelope declares.
    static func declaredType(of path: String) throws -> RecordType? {
        let reader = try RecordIO.openReader(path: path, format: .json)
        _ = try reader.next()
        return reader.header?.recordType
    }

    /// Moves the dedupe pass's rejects (`{record, diagnostic}` lines) into the dead letters.
    static func forwardRejects(_ path: String, to deadLetters: DeadLetters) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        let reader = try RecordIO.openReader(path: path, format: .ndjson)
        var count = 0
        while let item = try reader.next() {
            let diagnostic = item.value["diagnostic"]
            try deadLetters.add(
                record: item.value["record"], recordName: nil, recordType: RecordType.recipe.rawValue, stage: "dedupe",
                code: diagnostic?["code"]?.stringValue,
                reason: diagnostic?["message"]?.stringValue ?? "rejected by the dedupe pass",
                origin: diagnostic?["location"]?["file"]?.stringValue)
            count += 1
        }
        return count
    }
}
