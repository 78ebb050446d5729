import ArgumentParser
import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore
import LarderSync
import Synchronization

/// `larder upload`: bulk upload of record files (or a store's pending changes) to CloudKit.
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload records to CloudKit (or `larder serve`): exactly once, resumable, with retries.",
        discussion: """
            Each input is migrated to its type's newest schema version (and with --dedupe the \
            recipes are merged without duplicates), mapped to CloudKit records (recordType = the \
            Larder type, recordName = the record's recordName or TYPE-ID, so a re-run updates \
            instead of duplicating; field mapping in docs/upload.md), and written to the zone \
            (created if missing) in batches of at most 200 operations, several in flight.

            THROTTLED, TRY_AGAIN_LATER and ZONE_BUSY wait at least the server's retryAfter, with \
            exponential back-off and jitter; a limit error splits the batch; only failed items are \
            sent again. An fsync'd journal records what was planned and acknowledged: after a \
            crash, run the same command again and it ends with every record uploaded exactly once. \
            Records that cannot be uploaded go to the dead-letter file (NDJSON) with their reason.

            With --store, the store's pending changes (saves, minimal tombstones, cloud \
            re-enables, purges) are uploaded and acknowledged in the store; see also `larder sync`.

            Exit status: 0 all uploaded, 1 dead letters, 2 usage, 3 network or I/O (run again to resume).

            Examples:
              larder upload recipes.json --endpoint http://127.0.0.1:8787 --emulator-config .larder/emulator/config.json
              larder upload saved.json created.json --dedupe --conflict merge --endpoint URL --container iCloud.x \\
                --api-token T --web-auth-token W
              larder upload --store larder.db --endpoint URL --emulator-config config.json
            """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .long, help: "Upload the pending changes of this Larder store instead of files.")
    var store: String?

    @OptionGroup var cloudKit: CloudKitOptions

    @Option(name: .long, help: "The journal (default .larder/upload/<container>-<database>-<zone>.journal).")
    var journal: String?

    @Option(name: .long, help: "The dead-letter file (NDJSON; default dead-letters.ndjson).")
    var deadLetters: String = "dead-letters.ndjson"

    @Flag(name: .long, help: "Merge duplicate recipes (the dedupe pass) before uploading.")
    var dedupe = false

    @Option(name: .long, help: "When the server holds another version: fail, server-wins, client-wins or merge.")
    var conflict: ConflictPolicy = .fail

    @Option(name: .long, help: "Requests in flight at most (halved while the server throttles).")
    var concurrency: Int = 4

    @Option(name: .long, help: "Operations per request, at most 200.")
    var batchSize: Int = 200

    @Option(name: .long, help: "Attempts per record on retryable failures before it is given up.")
    var maxAttempts: Int = 10

    @Option(name: .long, help: "Write the final report as JSON to this file.")
    var report: String?

    @Flag(name: .long, help: "Print the final report as JSON on standard output.")
    var json = false

    @Option(name: .long, help: "Progress on stderr: auto (a bar on a terminal, lines otherwise), bar, lines or none.")
    var progress: ProgressMode = .auto

    @Option(name: .long, help: "Seconds between progress lines when stderr is not a terminal.")
    var progressInterval: Double = 5

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An app's own rules the records must meet: brewguide, or none (default: brewguide for BrewGuide's container, \(RecordRules.brewGuideContainer); none otherwise).",
            valueName: "rules"))
    var rules: String?

    @OptionGroup var schemaOptions: SchemaOptions

    func validate() throws {
        if store != nil, !input.inputs.isEmpty { throw ValidationError("give either input files or --store, not both") }
        if store != nil, dedupe {
            throw ValidationError("--dedupe applies to files; dedupe a store with `larder dedupe --store`")
        }
        guard (1...200).contains(batchSize) else { throw ValidationError("--batch-size must be between 1 and 200") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 64") }
        if let rules, rules != "none", RecordRules(rawValue: rules) == nil {
            throw ValidationError("--rules must be brewguide or none, found \"\(rules)\"")
        }
        guard maxAttempts >= 1 else { throw ValidationError("--max-attempts must be at least 1") }
        guard progressInterval >= 0 else { throw ValidationError("--progress-interval must not be negative") }
    }

    func run() async throws {
        let client = try cloudKit.makeClient()
        var configuration = UploadConfiguration()
        configuration.maxOperationsPerRequest = batchSize
        configuration.concurrency = concurrency
        configuration.retry.maxAttempts = maxAttempts
        let printer = ProgressPrinter(mode: progress, interval: progressInterval, prefix: "larder upload")
        let result: UploadReport
        if let store {
            var sync = StoreSync(store: try Store(path: store), client: client)
            sync.configuration = configuration
            sync.conflictPolicy = conflict == .fail ? .serverWins : conflict
            result = try await sync.push(progress: { printer.show($0) })
        } else {
            let target = client.target
            let journalPath =
                journal
                ?? ".larder/upload/\(Self.slug(target.endpoint.container))-\(target.endpoint.environment.rawValue)-\(target.endpoint.database.rawValue)-\(Self.slug(target.zoneID.zoneName)).journal"
            InterruptCleanup.note.withLock {
                $0 = "what the server acknowledged is in the journal \(journalPath); run the same command to resume"
            }
            var upload = FileUpload(client: client, journalPath: journalPath, deadLetterPath: deadLetters)
            upload.configuration = configuration
            upload.conflictPolicy = conflict
            upload.progress = { printer.show($0) }
            upload.rules =
                rules.map { RecordRules(rawValue: $0) } ?? RecordRules.implied(byContainer: target.endpoint.container)
            let preparation = UploadPreparation(
                inputs: input.resolvedInputs, inputFormat: input.inputFormat, recordType: input.type,
                migrator: try schemaOptions.migrator(), isDeduplicating: dedupe, workDirectory: journalPath + ".work")
            result = try await upload.run(preparation: preparation)
        }
        printer.show(UploadProgress(total: result.read, done: result.read, elapsed: result.seconds), isFinal: true)
        Stderr.print(result.text())
        if let report {
            do {
                try Data((result.json() + "\n").utf8).write(to: URL(fileURLWithPath: report), options: .atomic)
            } catch {
                throw LarderError(.io, "cannot write the report \(report): \(error.localizedDescription)")
            }
        }
        if json { print(result.json()) }
        if result.hasDataErrors { throw DataErrorsExit() }
    }

    /// A file-name-safe form of a container or zone name.
    static func slug(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" })
    }
}
