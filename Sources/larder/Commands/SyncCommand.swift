import ArgumentParser
import Foundation
import LarderCore
import LarderRegistry
import LarderStore
import LarderSync

/// `larder sync`: one device's store ↔ a CloudKit zone, both ways.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract:
            "Sync a Larder store with a CloudKit zone: pull remote changes, push pending ones, advance the device watermark.",
        discussion: """
            1. Pull: the zone's changes since the store's saved sync token (everything the first \
            time, or after CHANGE_TOKEN_EXPIRED), applied with the seed-003 rules: a remote \
            tombstone deletes a cloud-enabled record and never a local-only one; a remote update \
            never touches a local-only record; a local delete or cloud re-enable not yet uploaded \
            wins; a remote edit or tombstone wins over a local edit not yet uploaded.
            2. Push: the store's pending changes (saves, minimal tombstones, cloud re-enables, \
            purges of compacted tombstones) with batching, retries and conflict handling; each is \
            acknowledged in the store.
            3. Register: this device's watermark (the cloud time it has fetched up to, which \
            tombstone compaction waits for) is saved and published for the other devices.

            Examples:
              larder sync --store phone.db --device phone --endpoint http://127.0.0.1:8787 --emulator-config config.json
            """
    )

    @Option(name: .long, help: "The Larder store (SQLite).")
    var store: String

    @Option(name: .long, help: "This device's id (default: the store's own device, else the host name).")
    var device: String?

    @Option(name: .long, help: "This device's name in the registry.")
    var deviceName: String?

    @OptionGroup var cloudKit: CloudKitOptions

    @Option(name: .long, help: "A conflicting local edit: server-wins (the seed-003 rule), client-wins or merge.")
    var conflict: ConflictPolicy = .serverWins

    @Option(name: .long, help: "Requests in flight at most.")
    var concurrency: Int = 4

    @Option(name: .long, help: "Progress on stderr: auto, bar, lines or none.")
    var progress: ProgressMode = .auto

    @Flag(name: .long, help: "Print the report as JSON on standard output.")
    var json = false

    func validate() throws {
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 64") }
        if conflict == .fail {
            throw ValidationError("--conflict fail does not apply to sync: a conflict there is settled, never given up")
        }
    }

    func run() async throws {
        var sync = StoreSync(store: try Store(path: store), client: try cloudKit.makeClient())
        sync.configuration.concurrency = concurrency
        sync.conflictPolicy = conflict
        sync.deviceID = device
        sync.deviceName = deviceName
        let printer = ProgressPrinter(mode: progress, interval: 5, prefix: "larder sync")
        let report = try await sync.run(progress: { printer.show($0) })
        Stderr.print(report.text())
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
        if report.push.deadLetters > 0 { throw DataErrorsExit() }
    }
}
