import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
import LarderSync

/// `larder download`: a CloudKit zone into a file, incrementally.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a CloudKit zone's records into a file; with --state, later runs fetch only the changes.",
        discussion: """
            The first run (or any run without --state) fetches every record of the zone through \
            changes/zone, page by page while moreComing. With --state FILE the sync token is \
            saved, and the next run asks only for what changed since: changed records are \
            replaced in the output, deleted ones (and minimal tombstones, unless \
            --keep-tombstones) removed. An expired token (CHANGE_TOKEN_EXPIRED) means a full \
            refetch. Records are mapped back from CloudKit fields losslessly (docs/upload.md).

            Examples:
              larder download --endpoint http://127.0.0.1:8787 --emulator-config config.json -o recipes.json --state recipes.state
              larder download --endpoint URL --container iCloud.x --api-token T --web-auth-token W --type recipe -o - | head
            """
    )

    @OptionGroup var cloudKit: CloudKitOptions

    @Option(
        name: [.customShort("o"), .long],
        help: "Output file ('-': standard output, without --state). A .gz name compresses.")
    var output: String

    @Option(name: .long, help: "Output format: json, ndjson, yaml or xml (default: from the name, else json).")
    var to: DataFormat?

    /// The old spelling of `--to` (formats are `--from`/`--to` in every command).
    @Option(name: .long, help: .hidden)
    var format: DataFormat?

    @Option(
        name: .long,
        help: "State file (sync token and the output's record names); without it every run fetches everything.")
    var state: String?

    @Option(
        name: .long, help: "Only records of this type: recipe, brewRecipe or brewLog (also names it in the envelope).")
    var type: RecordType?

    @Flag(name: .long, help: "Keep minimal tombstones (isDeleted: true) in the output.")
    var keepTombstones = false

    @Flag(name: .long, help: "Indent JSON output.")
    var pretty = false

    @Flag(name: .long, help: "Print the report as JSON on standard error instead of text.")
    var json = false

    func validate() throws {
        if output == "-", state != nil {
            throw ValidationError("--state needs an output file: the next run merges the changes into it")
        }
    }

    func run() async throws {
        var downloader = ZoneDownloader(client: try cloudKit.makeClient(), outputPath: output)
        if format != nil { Stderr.print("larder: warning: --format is --to now, as in convert and import") }
        downloader.format = to ?? format
        downloader.statePath = state
        downloader.recordType = type
        downloader.keepsTombstones = keepTombstones
        downloader.pretty = pretty
        let report = try await downloader.run()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            Stderr.print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            Stderr.print(report.text())
        }
        if report.unreadable > 0 { throw DataErrorsExit() }
    }
}
