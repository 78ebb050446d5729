import Foundation
import LarderCloudKit
public import LarderCore
import LarderFormats
import LarderRegistry
import Synchronization

/// `larder upload FILE…`: prepared files (migrated, deduped) → CloudKit records → the target
/// zone, through the journal, with dead letters and a report.
///
/// ```swift
/// var upload = FileUpload(client: client, journalPath: ".larder/upload/x.journal", deadLetterPath: "dead-letters.ndjson")
/// let report = try await upload.run(preparation: preparation)
/// ```
public struct FileUpload: Sendable {
    /// The client (target, transport, credentials).
    public var client: CloudKitClient
    /// Batching, pacing, retries.
    public var configuration = UploadConfiguration()
    /// How conflicts are settled.
    public var conflictPolicy: ConflictPolicy = .fail
    /// The journal file.
    public var journalPath: String
    /// The dead-letter file.
    public var deadLetterPath: String
    /// Clock and sleeper.
    public var clock: LarderClock = .system
    /// Called with progress snapshots (after each settled batch, and at the end).
    public var progress: (@Sendable (UploadProgress) -> Void)?
    /// The app's own rules the records must meet (``RecordRules/brewGuide`` for BrewGuide's
    /// container, ``RecordRules/implied(byContainer:)``): a record the app would refuse is not
    /// uploaded but goes to the dead letters, stage `rules`, with every reason.
    public var rules: RecordRules?
    /// Records read ahead at a time; their images are uploaded just before them.
    var imageWindow = 400

    /// Creates an upload.
    public init(client: CloudKitClient, journalPath: String, deadLetterPath: String) {
        self.client = client
        self.journalPath = journalPath
        self.deadLetterPath = deadLetterPath
    }

    /// Prepares the inputs, uploads them, and reports.
    /// - Throws: ``LarderError`` for inputs, journal and files; ``UploadStopped`` when the
    ///   server cannot be reached or refuses the credentials (what was acknowledged stays in
    ///   the journal).
    public func run(preparation: UploadPreparation) async throws -> UploadReport {
        let started = clock.monotonicSeconds()
        let deadLetters = DeadLetters(path: deadLetterPath)
        var report = UploadReport(target: client.target.identity)
        report.journal = journalPath
        let journal = try UploadJournal(
            path: journalPath, target: client.target.identity, nowMilliseconds: clock.milliseconds)
        defer { try? FileManager.default.removeItem(atPath: preparation.workDirectory) }
        try? FileManager.default.removeItem(atPath: preparation.workDirectory)
        // Without dedupe the migration streams into the upload (its counts come at the end, and
        // there is no separate preparing time to report); with dedupe it prepares files first.
        let streams = try preparation.streams(deadLetters: deadLetters)
        let inputs: [PreparedSource.Input]
        // Records to settle, for the progress line: known up front from prepared files, and once
        // every stream has been read otherwise (0, unknown, until then).
        let total = SendableCounter()
        if let streams {
            inputs = streams.map { .migration($0) }
        } else {
            let prepared = try await preparation.run(deadLetters: deadLetters)
            report.read = prepared.read
            report.migrated = prepared.migrated
            report.mergedByDedupe = prepared.mergedAway
            report.abandonedInputs = prepared.abandonedInputs
            report.preparationSeconds = clock.monotonicSeconds() - started
            inputs = prepared.files.map { .file($0) }
            total.add(prepared.ready)
        }

        let client = self.client
        _ = try await configuration.retry.perform("zone \(client.target.zoneID.zoneName)", clock: clock) {
            () async throws(CloudKitFailure) in
            try await client.ensureZone()
        }
        let images = ImageTable(folders: preparation.inputs.map { $0 == "-" ? "." : PathParts.directory(of: $0) })
        let source = try PreparedSource(
            inputs: inputs, journal: journal.entries, deadLetters: deadLetters, images: images)
        source.rules = rules
        if let streams {
            source.onExhausted = { total.add(streams.reduce(0) { $0 + $1.summary.pipeline.written }) }
        }
        let resolver = ImageResolvingSource(
            source: source,
            upload: ImageUpload(
                client: client, journal: try AssetJournal(path: journalPath + ".assets"),
                retry: configuration.retry, clock: clock),
            deadLetters: deadLetters, window: imageWindow)
        let clock = self.clock
        let progress = self.progress
        let skipped = source.skippedCounter
        var onBatch: (@Sendable (UploadStatistics) -> Void)?
        if let progress {
            onBatch = { statistics in
                progress(
                    UploadProgress(
                        total: total.count, done: statistics.settled + skipped.count,
                        elapsed: clock.monotonicSeconds() - started, retryWait: statistics.retryWait))
            }
        }
        let delegate = JournalDelegate(journal: journal, deadLetters: deadLetters, policy: conflictPolicy)
        let uploader = Uploader(
            client: client, configuration: configuration, delegate: delegate, clock: clock, progress: onBatch)
        let statistics: UploadStatistics
        do {
            statistics = try await uploader.run { try await resolver.next() }
        } catch {
            try? deadLetters.close()
            throw error
        }
        for stream in streams ?? [] {
            let summary = stream.summary
            report.read += summary.pipeline.read
            report.migrated += summary.migratedRecords
            report.abandonedInputs += summary.pipeline.abandonedInputs
        }
        try deadLetters.close()
        report.add(statistics)
        report.imagesUploaded = resolver.uploaded
        report.warnings += images.unreadableWarnings
        report.skippedByJournal = source.skipped
        report.unchanged += source.skipped
        report.deadLetters = deadLetters.count
        report.deadLettersByStage = deadLetters.byStage
        report.deadLetterFile = deadLetters.count > 0 ? deadLetterPath : nil
        report.requests = client.requestCount
        report.bytesSent = client.bodyBytesSent
        report.seconds = clock.monotonicSeconds() - started
        let settled = statistics.settled + source.skipped
        report.recordsPerSecond = report.seconds > 0 ? Double(settled) / report.seconds : 0
        return report
    }
}

/// Reads the prepared files and maps each record to an ``UploadItem``; records the journal
/// has acknowledged with the same content are skipped, unmappable ones become dead letters.
final class PreparedSource {
    /// Where records come from: a prepared file (JSON, its envelope naming the type), or a
    /// migration read as it goes.
    enum Input {
        case file(String)
        case migration(FileMigration.Stream)
    }

    /// One record of an input, its type and its index there.
    private typealias Entry = (value: Value, type: RecordType, index: Int)

    private var inputs: [Input]
    private var current: (() throws -> Entry?)?
    private let journal: [String: UploadJournal.Entry]
    private let deadLetters: DeadLetters
    private let mapping = RecordMapping()
    let skippedCounter = SendableCounter()
    var skipped: Int { skippedCounter.count }
    /// The images of the records this source returns.
    let images: ImageTable
    /// Called once, when the last input has been read.
    var onExhausted: (() -> Void)?
    /// An app's rules: a record breaking them goes to the dead letters instead of the server.
    var rules: RecordRules?

    init(
        inputs: [Input], journal: [String: UploadJournal.Entry], deadLetters: DeadLetters,
        images: ImageTable = ImageTable(folders: [])
    ) throws {
        self.inputs = inputs
        self.journal = journal
        self.deadLetters = deadLetters
        self.images = images
    }

    private static func open(_ input: Input) throws -> () throws -> Entry? {
        switch input {
        case .file(let path):
            let reader = try RecordIO.openReader(path: path, format: .json)
            return {
                guard let entry = try reader.next() else { return nil }
                return (entry.value, reader.header?.recordType ?? RecordType.guess(from: entry.value), entry.index)
            }
        case .migration(let stream):
            return { try stream.cursor.next().map { ($0.value, $0.type, $0.index) } }
        }
    }

    /// What the app would refuse in a record: its rules' refusal, or the reason the record could
    /// not be read as the model to check it (it was validated on the way in, so this is rare).
    private static func refusal(of record: Value, type: RecordType, by rules: RecordRules) throws -> LarderError? {
        do {
            return rules.refusal(of: try type.decode(record))
        } catch let error as LarderError {
            return error
        }
    }

    /// The next item to write, with the local image files it names (its image field holds
    /// their checksums only, until ``ImageResolvingSource`` gives it their receipts).
    func next() throws -> (item: UploadItem, images: [ImageTable.File])? {
        while true {
            guard let current else {
                guard !inputs.isEmpty else {
                    onExhausted?()
                    onExhausted = nil
                    return nil
                }
                current = try Self.open(inputs.removeFirst())
                continue
            }
            guard let entry = try current() else {
                self.current = nil
                continue
            }
            let type = entry.type
            let origin =
                entry.value["id"]?.stringValue.map { "\(type.rawValue) \($0)" } ?? "\(type.rawValue) #\(entry.index)"
            if let rules, rules.applies(to: type),
                let refusal = try Self.refusal(of: entry.value, type: type, by: rules)
            {
                try deadLetters.add(
                    record: entry.value, recordName: nil, recordType: type.rawValue, stage: "rules",
                    code: refusal.code.rawValue, reason: refusal.description, origin: origin)
                continue
            }
            let name: String
            let fields: [String: FieldValue]
            do throws(MappingError) {
                name = try RecordMapping.recordName(for: entry.value, type: type.rawValue)
                fields = try mapping.fields(of: entry.value, type: type)
            } catch {
                try deadLetters.add(
                    record: entry.value, recordName: nil, recordType: type.rawValue, stage: "map",
                    code: "unrepresentable",
                    reason: error.description, origin: origin)
                continue
            }
            // The digest sees each image by its own SHA-256, so it is the same on every run.
            let local = try images.files(of: entry.value)
            var digestFields = fields
            if !local.isEmpty {
                digestFields[ImageFiles.field] = .list(
                    elementType: .assetID, local.map { .asset(Asset(fileChecksum: $0.checksum).jsonValue) })
            }
            var item = UploadItem(
                recordName: name, recordType: type.rawValue, fields: digestFields, record: entry.value, origin: origin)
            if let known = journal[name] {
                if known.digest == item.digest {
                    skippedCounter.add(1)
                    continue
                }
                item.baseTag = known.changeTag
            } else if let tag = entry.value["changeTag"]?.stringValue {
                item.baseTag = tag
            }
            return (item, local)
        }
    }
}

/// A counter shared with progress callbacks.
final class SendableCounter: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ amount: Int) { value.add(amount, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Records outcomes in the journal and the dead letters; settles conflicts by the policy.
struct JournalDelegate: UploadDelegate {
    let journal: UploadJournal
    let deadLetters: DeadLetters
    let policy: ConflictPolicy

    func willSend(_ items: [UploadItem]) async throws {
        try await journal.planned(items.map { ($0.recordName, $0.digest) })
    }

    func resolveConflict(_ item: UploadItem, ours: [String: FieldValue], server: Record) async throws
        -> ConflictResolution
    {
        policy.resolve(ours: ours, server: server)
    }

    func didFinish(_ results: [(item: UploadItem, outcome: UploadOutcome)]) async throws {
        var acknowledged: [(name: String, digest: String, tag: String?)] = []
        var kept: [(name: String, digest: String, tag: String?)] = []
        for (item, outcome) in results {
            switch outcome {
            case .written(let tag, _, _), .alreadyThere(let tag, _):
                acknowledged.append((item.recordName, item.digest, tag))
            case .deleted:
                acknowledged.append((item.recordName, item.digest, nil))
            case .keptServer(let server):
                kept.append((item.recordName, item.digest, server.recordChangeTag))
            case .rejected(let reason, let code):
                try deadLetters.add(
                    record: item.record, recordName: item.recordName, recordType: item.recordType, stage: "upload",
                    code: code,
                    reason: reason, origin: item.origin)
                try await journal.deadLetter(name: item.recordName, reason: reason)
            }
        }
        try await journal.acknowledged(acknowledged)
        try await journal.keptServer(kept)
    }
}
