import ArgumentParser

/// `--keep-going` and `--rejects`, shared by commands that sort records into good and bad.
struct RejectsOptions: ParsableArguments {
    @Flag(name: .long, help: "Send bad records to the rejects file and go on, instead of stopping at the first.")
    var keepGoing = false

    @Option(
        name: .long, help: "Rejects file (NDJSON of {record, diagnostic}); default: rejects.ndjson with --keep-going.")
    var rejects: String?

    var resolvedRejectsPath: String? {
        keepGoing ? (rejects ?? "rejects.ndjson") : nil
    }
}
