import Foundation
public import LarderCore
public import LarderFormats

/// Migrates record files to another schema version, streaming record by record through the
/// ``ConversionPipeline``: memory stays flat whatever the input size.
///
/// Each record's source version is the one its file declares (envelope `version`, XML
/// `version` attribute), else ``fromVersion``, else the newest version whose schema accepts it.
/// Every migrated record is validated against the target schema; one that fails stops the run
/// (and nothing is written), or with ``keepGoing`` goes to the rejects with its reason.
///
/// ```swift
/// let migration = FileMigration(migrator: Migrator(registry: try .load()), inputs: ["recipes-v1.json"], targetVersion: 3)
/// let report = try migration.dryRun()          // writes nothing
/// try migration.run(output: "recipes-v3.json") // atomically, images beside it
/// ```
public struct FileMigration {
    /// What one run did.
    public struct Summary {
        /// Records read, written and rejected.
        public var pipeline: ConversionPipeline.Summary
        /// Per plan and step.
        public var report: MigrationReport
        /// Images written next to the output.
        public var imagesWritten: Int

        /// Records that were at another version and went through a migration plan.
        public var migratedRecords: Int { report.plans.filter { !$0.plan.isEmpty }.reduce(0) { $0 + $1.records } }
    }

    /// The migrator (registry, stages, converters).
    public var migrator: Migrator
    /// Input files (`-` for standard input).
    public var inputs: [String]
    /// Input format; `nil` sniffs.
    public var inputFormat: DataFormat?
    /// The record type; `nil` takes it from the envelope, the XML elements or the fields.
    public var recordType: RecordType?
    /// The version of records whose file declares none; `nil` detects it per record.
    public var fromVersion: Int?
    /// The version to migrate to; `nil` means each type's newest.
    public var targetVersion: Int?
    /// Reject bad records and go on.
    public var keepGoing: Bool
    /// Reader limits (one record's size above all).
    public var limits: ReaderLimits = .default
    /// Told of every record that cannot be migrated, with the located error, before it is rejected
    /// (or thrown): see ``ConversionPipeline/onRecordFailure``.
    public var onRecordFailure: ((_ record: Value, _ error: LarderError) -> Void)?

    /// Creates a migration.
    public init(
        migrator: Migrator, inputs: [String], inputFormat: DataFormat? = nil, recordType: RecordType? = nil,
        fromVersion: Int? = nil,
        targetVersion: Int? = nil, keepGoing: Bool = false
    ) {
        self.migrator = migrator
        self.inputs = inputs
        self.inputFormat = inputFormat
        self.recordType = recordType
        self.fromVersion = fromVersion
        self.targetVersion = targetVersion
        self.keepGoing = keepGoing
    }

    /// The format of the first input (for output "in the input's format").
    public func detectedInputFormat() throws -> DataFormat {
        if let inputFormat { return inputFormat }
        guard let first = inputs.first, first != "-" else { return .json }
        if let guess = DataFormat.guess(fromPath: first) { return guess }
        return try RecordIO.sniff(FileByteSource(path: first), path: first).1
    }

    /// The target version for `type`.
    public func target(for type: RecordType) throws -> Int {
        try targetVersion ?? migrator.registry.type(type.rawValue).latest
    }

    /// Turns records into migrated records, planning per (type, source version).
    final class Transformer {
        let migration: FileMigration
        let environmentFor: (String) -> StepEnvironment
        let report: MigrationReport
        private var plans: [String: MigrationPlan] = [:]

        init(migration: FileMigration, report: MigrationReport, images: any ImageStore) {
            self.migration = migration
            self.report = report
            let migrator = migration.migrator
            environmentFor = { migrator.environment(images: images, type: $0) }
        }

        func transform(_ record: Value, _ type: RecordType, _ declared: Int?) throws -> Value {
            let registry = migration.migrator.registry
            let target = try migration.target(for: type)
            let from: Int
            if let version = declared ?? migration.fromVersion {
                from = version
            } else if let detected = registry.newestValidVersion(type: type.rawValue, of: record) {
                from = detected
                report.detected["\(type.rawValue) v\(detected)", default: 0] += 1
            } else {
                report.undetected += 1
                let schema = try registry.jsonSchema(
                    type: type.rawValue, version: try registry.type(type.rawValue).latest)
                let newest = SchemaCheckFailure.error(schema: schema, violations: schema.validate(record, limit: 3))
                throw LarderError(
                    .malformedRecord,
                    "no version of \(type.rawValue) accepts this record, and its file declares none; against the newest: \(newest.message)",
                    location: newest.location)
            }
            if from == target {
                report.unchanged += 1
                try migration.migrator.check(record, type: type.rawValue, version: target)
                return record
            }
            let key = "\(type.rawValue)@\(from)"
            let plan: MigrationPlan
            if let cached = plans[key] {
                plan = cached
            } else {
                plan = try migration.migrator.plan(type: type.rawValue, from: from, to: target)
                plans[key] = plan
            }
            return try migration.migrator.migrate(
                record, plan: plan, environment: environmentFor(type.rawValue), report: report)
        }
    }

    /// Plans and simulates the migration: reads every input, runs every step in memory, validates
    /// the results, and writes nothing (not even images).
    /// - Returns: per plan and step, the records that went through it and samples of the changes.
    /// - Throws: ``LarderError`` for unreadable inputs or a plan that cannot be made (a lossy step).
    public func dryRun() throws -> MigrationReport {
        let report = MigrationReport(collectsSamples: true)
        let images = FileImageStore(baseDirectory: FileManager.default.currentDirectoryPath, isDryRun: true)
        let transformer = Transformer(migration: self, report: report, images: images)
        var pipeline = ConversionPipeline(
            inputs: inputs, inputFormat: inputFormat, recordType: recordType, check: .none, keepGoing: true,
            limits: limits)
        pipeline.transform = transformer.transform
        _ = try pipeline.run(
            makeWriter: { _, _ in NullRecordWriter() },
            onReject: { _, error in
                if error.code == .schema || error.code == .usage { throw error }  // a plan problem, not a record's
            })
        return report
    }

    /// Migrates into `output` (`nil` or `-`: standard output) in `format` (default: the input's),
    /// atomically; images move into `images/` next to the output.
    /// - Parameters:
    ///   - output: the output file; `nil` or `-` writes to standard output.
    ///   - format: the output format; `nil` keeps the input's.
    ///   - gzip: whether to gzip-compress the output (it also is when `output` ends in `.gz`).
    ///   - pretty: whether JSON output is indented.
    ///   - onReject: receives each rejected record (the input record) and why, under ``keepGoing``.
    ///   - progress: called every 10,000 records read with the running counts.
    /// - Returns: the records read, written and rejected, the per-step report, and the number of
    ///   images written next to the output.
    /// - Throws: the first bad record's ``LarderError`` without ``keepGoing`` (nothing is written
    ///   then, and images written so far are removed); I/O errors always.
    public func run(
        output: String?, format: DataFormat? = nil, gzip: Bool = false, pretty: Bool = false,
        onReject: (Value?, LarderError) throws -> Void = { _, _ in },
        progress: ((ConversionPipeline.Summary) -> Void)? = nil
    ) throws -> Summary {
        let outputFormat = try format ?? detectedInputFormat()
        let toStdout = output == nil || output == "-"
        let base = toStdout ? FileManager.default.currentDirectoryPath : PathParts.directory(of: output ?? "")
        let (pipeline, report, images) = migratingPipeline(
            imagesDirectory: base.isEmpty ? "." : base, progress: progress)
        do {
            let summary = try pipeline.run(
                makeWriter: { header, type in
                    let resolvedType = recordType ?? header?.recordType ?? type
                    let version = try resolvedType.map { try target(for: $0) } ?? targetVersion
                    let envelope =
                        outputFormat == .ndjson ? nil : EnvelopeHeader(schema: resolvedType?.rawValue, version: version)
                    return try RecordIO.openWriter(
                        path: output, format: outputFormat, gzip: gzip,
                        options: WriterOptions(envelope: envelope, recordType: resolvedType, pretty: pretty))
                },
                onReject: { record, error in try Self.reject(record, error, to: onReject) })
            return Summary(pipeline: summary, report: report, imagesWritten: images.writtenCount)
        } catch {
            images.discardWritten()
            throw error
        }
    }

    /// The migration pulled a record at a time, for a caller that consumes records as they come
    /// (the upload maps and sends each while the next is read, instead of writing every migrated
    /// record to a file and reading it back).
    public final class Stream {
        /// Hands out each migrated record with its type; rejects go to the `onReject` given.
        public let cursor: ConversionPipeline.Cursor
        /// Per plan and step, so far.
        public let report: MigrationReport
        private let images: FileImageStore

        init(cursor: ConversionPipeline.Cursor, report: MigrationReport, images: FileImageStore) {
            self.cursor = cursor
            self.report = report
            self.images = images
        }

        /// What the migration did so far (all of it once ``cursor`` returned nil).
        public var summary: Summary {
            Summary(pipeline: cursor.summary, report: report, imagesWritten: images.writtenCount)
        }
    }

    /// Migrates as ``run(output:format:gzip:pretty:onReject:progress:)`` does, without an output.
    ///
    /// The records come from the stream's cursor; images move into `images/` under `imagesDirectory`.
    /// A plan problem (a lossy step, no path) is thrown by the cursor when the first record that
    /// needs the plan is read.
    public func stream(imagesDirectory: String, onReject: @escaping (Value?, LarderError) throws -> Void) -> Stream {
        let (pipeline, report, images) = migratingPipeline(imagesDirectory: imagesDirectory, progress: nil)
        let cursor = ConversionPipeline.Cursor(pipeline) { record, error in try Self.reject(record, error, to: onReject)
        }
        return Stream(cursor: cursor, report: report, images: images)
    }

    /// The pipeline ``run(output:format:gzip:pretty:onReject:progress:)`` and ``stream(imagesDirectory:onReject:)``
    /// both read through: every input, each record migrated by a ``Transformer`` (no other check),
    /// images moved under `imagesDirectory`.
    private func migratingPipeline(
        imagesDirectory: String, progress: ((ConversionPipeline.Summary) -> Void)?
    ) -> (ConversionPipeline, MigrationReport, FileImageStore) {
        let searchDirectories = inputs.filter { $0 != "-" }.map { PathParts.directory(of: $0) }
        let images = FileImageStore(baseDirectory: imagesDirectory, searchDirectories: searchDirectories)
        let report = MigrationReport(collectsSamples: false)
        let transformer = Transformer(migration: self, report: report, images: images)
        var pipeline = ConversionPipeline(
            inputs: inputs, inputFormat: inputFormat, recordType: recordType, check: .none, keepGoing: keepGoing,
            limits: limits, progress: progress)
        pipeline.transform = transformer.transform
        pipeline.onRecordFailure = onRecordFailure
        return (pipeline, report, images)
    }

    /// A plan problem (`schema`, `usage`) stops the migration; any other error rejects its record.
    private static func reject(
        _ record: Value?, _ error: LarderError, to onReject: (Value?, LarderError) throws -> Void
    ) throws {
        if error.code == .schema || error.code == .usage { throw error }
        try onReject(record, error)
    }
}
