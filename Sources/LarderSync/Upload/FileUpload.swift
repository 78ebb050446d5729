import Foundation
import LarderCloudKit
public import LarderCore
import LarderFormats
import LarderRegistry

/// `larder upload FILE…`: records (migrated, deduped) → CloudKit records → the target zone,
/// through the journal, with dead letters and a report.
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
    ///
    /// The records are pulled through the stages (migrate → dedupe → map → images → batches) as
    /// the uploader asks for them; nothing is written to a stage file.
    /// - Throws: ``LarderError`` for inputs, journal and files; ``UploadStopped`` when the
    ///   server cannot be reached or refuses the credentials (what was acknowledged stays in
    ///   the journal).
    public func run(preparation: UploadPreparation) async throws -> UploadReport {
        let started = clock.monotonicSeconds()
        let deadLetters = DeadLetters(path: deadLetterPath)
        let journal = try UploadJournal(
            path: journalPath, target: client.target.identity, nowMilliseconds: clock.milliseconds)
        defer { try? FileManager.default.removeItem(atPath: preparation.workDirectory) }
        try? FileManager.default.removeItem(atPath: preparation.workDirectory)
        let stages = try preparation.stages(deadLetters: deadLetters, clock: clock)
        let client = self.client
        _ = try await configuration.retry.perform("zone \(client.target.zoneID.zoneName)", clock: clock) {
            () async throws(CloudKitFailure) in
            try await client.ensureZone()
        }
        let images = ImageTable(folders: preparation.inputs.map { $0 == "-" ? "." : PathParts.directory(of: $0) })
        let items = UploadItemSource(
            upstream: stages.records, journal: journal.entries, deadLetters: deadLetters, images: images)
        items.rules = rules
        let resolver = ImageResolvingSource(
            source: items,
            upload: ImageUpload(
                client: client, journal: try AssetJournal(path: journalPath + ".assets"),
                retry: configuration.retry, clock: clock),
            deadLetters: deadLetters, window: imageWindow)
        let uploader = Uploader(
            client: client, configuration: configuration,
            delegate: JournalDelegate(journal: journal, deadLetters: deadLetters, policy: conflictPolicy), clock: clock,
            progress: progressCallback(started: started, stages: stages, items: items))
        let statistics: UploadStatistics
        do {
            statistics = try await uploader.run { try await resolver.next() }
        } catch {
            try? deadLetters.close()
            throw error
        }
        try deadLetters.close()
        var report = UploadReport(target: client.target.identity)
        report.journal = journalPath
        report.add(statistics)
        report.add(stages)
        report.imagesUploaded = resolver.uploaded
        report.warnings += images.unreadableWarnings
        report.add(deadLetters, path: deadLetterPath)
        report.skippedByJournal = items.skipped
        report.unchanged += items.skipped
        report.requests = client.requestCount
        report.bytesSent = client.bodyBytesSent
        report.seconds = clock.monotonicSeconds() - started
        let settled = statistics.settled + items.skipped
        report.recordsPerSecond = report.seconds > 0 ? Double(settled) / report.seconds : 0
        return report
    }

    /// The uploader's callback after each settled batch, turned into ``progress`` snapshots.
    ///
    /// The total is unknown (0) until the last stage has counted its records: the migration once
    /// every input is read, the dedupe pass once it has clustered the recipes.
    private func progressCallback(started: Double, stages: UploadPreparation.Stages, items: UploadItemSource)
        -> (@Sendable (UploadStatistics) -> Void)?
    {
        guard let progress else { return nil }
        let total = SendableCounter()
        if let dedupe = stages.dedupe {
            dedupe.onCounted = { total.add($0) }
        } else {
            items.onExhausted = { total.add($0) }
        }
        let clock = self.clock
        let skipped = items.skippedCounter
        return { statistics in
            progress(
                UploadProgress(
                    total: total.count, done: statistics.settled + skipped.count,
                    elapsed: clock.monotonicSeconds() - started, retryWait: statistics.retryWait))
        }
    }
}
