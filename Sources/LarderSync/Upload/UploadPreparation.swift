import Foundation
public import LarderCore
public import LarderFormats
public import LarderRegistry

/// Prepares input files for upload: each is migrated to its type's newest schema version
/// (the registry's ``FileMigration``, validated against the target schema), and with
/// ``isDeduplicating`` the recipes go through the ``DedupePass`` (saved and created sets
/// merged without duplicates).
///
/// Preparation is a chain of stages that each hand on a record at a time (migrate → dedupe),
/// pulled by the upload as it maps and sends: no stage writes a file another reads back. The
/// server gets its first batch while the rest are still being read (with dedupe, the records
/// of other types go first, while the recipes wait in the pass's scratch files). Records a stage
/// refuses go to the dead letters with the stage and reason.
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
    /// Where migrated images and the dedupe pass's scratch files go (created; the upload removes it).
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

    /// The stages, ready to be pulled: the migration, and the dedupe pass when asked.
    struct Stages {
        /// The migration of every input.
        let migration: MigrationSource
        /// The dedupe pass over the migrated recipes, with ``isDeduplicating``.
        let dedupe: DedupeSource?

        /// The last stage: what the upload pulls.
        var records: any RecordSource { dedupe ?? migration }
    }

    /// Chains the stages; nothing is read until the first record is pulled.
    ///
    /// The streams open their files when first read, after the server is reached: an input that
    /// cannot be opened is reported now, before any request.
    /// - Throws: ``LarderError`` `io-error` when an input cannot be opened or the work directory made.
    func stages(deadLetters: DeadLetters, clock: LarderClock) throws -> Stages {
        for input in inputs where input != "-" { _ = try FileByteSource(path: input) }
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        let streams = inputs.map { input in
            let rejects = deadLetters.stage("migrate", origin: input)
            return FileMigration(
                migrator: migrator, inputs: [input], inputFormat: inputFormat, recordType: recordType, keepGoing: true
            )
            .stream(imagesDirectory: workDirectory) { record, error in try rejects.reject(record, error) }
        }
        let migration = MigrationSource(inputs: inputs, streams: streams)
        guard isDeduplicating else { return Stages(migration: migration, dedupe: nil) }
        let dedupe = DedupeSource(
            upstream: migration, scratchDirectory: workDirectory,
            rejects: deadLetters.stage("dedupe", recordType: RecordType.recipe.rawValue), clock: clock)
        return Stages(migration: migration, dedupe: dedupe)
    }
}
