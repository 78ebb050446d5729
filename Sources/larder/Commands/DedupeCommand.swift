import ArgumentParser
import Foundation
import LarderCore
import LarderDedupe
import LarderFormats
import LarderRegistry
import LarderSystem

/// `larder dedupe`: merge a user's saved and created recipe sets into one set without duplicates.
struct DedupeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dedupe",
        abstract: "Merge saved and created recipe sets into one set without duplicates.",
        discussion: """
            Matches in stages: the same id or CloudKit record name; the same normalized source URL \
            (scheme, www., trailing slash and tracking parameters ignored); the same content \
            fingerprint (normalized title + multiset of normalized ingredient items); then a fuzzy \
            score over title similarity, ingredient overlap and agreement of times and servings, on \
            candidate pairs found by blocking (title words, MinHash/LSH over ingredient words and \
            title trigrams). Clusters never chain: A~B and B~C merge A with C only if A~C matches too.

            One record per cluster is written, in the input's format, sorted by id: the same input \
            in any order gives byte-identical output. The survivor is the created copy (else the \
            newest); per field the newest updatedAt wins; flags are OR-ed; tags and dietary notes \
            unioned; the survivor's ingredient lines and steps are kept and a loser's differing \
            version goes to the merge log (--log), which lists every cluster, its members, the \
            matches with their scores, and each field's source.

            Records of an older recipe version (declared by the file, or detected) are migrated \
            through the schema registry first. With --store the store's recipes are deduped in place \
            in one transaction: survivors rewritten, the other copies turned into tombstones, and \
            every replaced record kept in the merge log (default STORE.dedupe-<time>.json).

            Examples:
              larder dedupe --saved saved.json --created created.json -o merged.json --log merge-log.json
              larder dedupe --saved saved.ndjson.gz --created created.ndjson.gz --explain 5F2C…
              larder dedupe --store larder.db
            """
    )

    @Option(name: .long, help: "The saved recipe set (any format Larder reads; '-' for standard input).")
    var saved: String?

    @Option(name: .long, help: "The created recipe set; its copies' ids and owners win.")
    var created: String?

    @Option(name: .long, help: "Dedupe the recipes of a Larder store (SQLite) in place, in one transaction.")
    var store: String?

    @Option(
        name: [.customShort("o"), .long], help: "Output file ('-' or none: standard output). A .gz name compresses.")
    var output: String?

    @Option(name: .long, help: "Output format (default: the format of the first input).")
    var to: DataFormat?

    @Option(name: .long, help: "Input format: auto, json, ndjson, yaml or xml.")
    var from: InputFormatChoice = .auto

    @Option(name: .long, help: "Write the merge log (JSON) to this file.")
    var log: String?

    @Option(name: .long, help: "Fuzzy-match threshold between 0 and 1.")
    var threshold: Double = PairScorer.defaultThreshold

    @Option(
        name: .long,
        help:
            "Explain why the record with this id (or record name) merged or did not; records are then written only with -o (a store is left unchanged)."
    )
    var explain: String?

    @Flag(name: .long, help: "Compress the output with gzip.")
    var gzip = false

    @Flag(name: .long, help: "Indent JSON output.")
    var pretty = false

    @Option(name: .long, help: "Directory for scratch files (default: $TMPDIR or /tmp).")
    var scratchDir: String?

    @Flag(name: [.customShort("v"), .long], help: "Print the time each phase took.")
    var verbose = false

    @OptionGroup var rejects: RejectsOptions
    @OptionGroup var progress: ProgressOptions

    @OptionGroup var schemaOptions: SchemaOptions

    func validate() throws {
        if store != nil {
            guard saved == nil && created == nil else {
                throw ValidationError("use either --store or --saved/--created, not both")
            }
        } else if saved == nil && created == nil {
            throw ValidationError("give --saved and --created files (or --store)")
        }
        guard (0...1).contains(threshold) else {
            throw ValidationError("--threshold must be between 0 and 1, found \(threshold)")
        }
        if saved == "-" && created == "-" { throw ValidationError("only one input can be standard input") }
    }

    func run() async throws {
        if let store {
            try await runStore(
                store,
                configuration: try makeConfiguration(format: .json, outputDirectory: PathParts.directory(of: store)))
            return
        }
        var inputs: [DedupeInput] = []
        if let saved { inputs.append(.file(saved, role: .saved, format: from.format)) }
        if let created { inputs.append(.file(created, role: .created, format: from.format)) }
        try await runFiles(inputs: inputs, firstPath: saved ?? created ?? "-")
    }

    /// The pass's configuration from the flags; older recipe versions are migrated through the
    /// schema registry before matching (images moved out of v1 records go to `outputDirectory/images`).
    func makeConfiguration(format: DataFormat, outputDirectory: String) throws -> DedupeConfiguration {
        var configuration = DedupeConfiguration()
        configuration.threshold = threshold
        configuration.keepGoing = rejects.keepGoing
        configuration.scratchDirectory = scratchDir
        configuration.outputFormat = format
        configuration.pretty = pretty
        configuration.upgrade = try RegistryUpgrade(
            migrator: try schemaOptions.migrator(), outputDirectory: outputDirectory.isEmpty ? "." : outputDirectory
        ).hook
        return configuration
    }

    private func runFiles(inputs: [DedupeInput], firstPath: String) async throws {
        let format = to ?? from.format ?? Self.sniffFormat(firstPath) ?? .json
        let configuration = try makeConfiguration(
            format: format, outputDirectory: output.map { PathParts.directory(of: $0) } ?? ".")
        let rejectsWriter = try rejects.resolvedRejectsPath.map { try RejectsWriter(path: $0) }
        let pass = DedupePass(inputs: inputs, configuration: configuration)
        // The feature table's columns grow by doubling and are then moved into one table: with
        // glibc's default (a mmap threshold that rises to 32 MiB as big blocks are freed) the freed
        // columns stay in the heap and count in the peak. With blocks of 1 MiB and more always
        // mmapped (returned to the system when freed), a million recipes peak at 358 MiB instead of
        // 412–430 (same output, same time; measured in docs/dedupe.md). The write phase keeps the
        // same threshold: its batch buffers (about 2 MB) are reused from batch to batch, so they are
        // not mapped again each time, and with 4 MiB the phase set the peak (+8 MiB).
        Allocator.setMmapThreshold(1 << 20)
        let meter = progress.start("dedupe (reading and matching)", inputs: inputs.map { $0.path ?? "-" })
        defer { meter.finish() }
        // Dedupe counts no records while it runs: a ticker shows the stage and the bytes read.
        let ticker = Task {
            while !Task.isCancelled {
                meter.update(records: -1)
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { ticker.cancel() }
        let analysis = try await pass.analyze(rejects: rejectsWriter)
        meter.begin(stage: "dedupe (writing)")
        // What reading and matching freed in the heap goes back to the system before writing starts.
        Allocator.trim()

        if let explain {
            print(TerminalText.escaped(try analysis.explain(explain)), terminator: "")
        }
        let writes = explain == nil || output != nil
        if writes {
            let header = analysis.headers.compactMap { $0 }.first
            let wantsEnvelope = format == .xml || (header != nil && format != .ndjson)
            let options = WriterOptions(
                envelope: wantsEnvelope
                    ? EnvelopeHeader(schema: RecordType.recipe.rawValue, version: RecordType.recipe.currentVersion)
                    : nil,
                recordType: .recipe, pretty: pretty)
            let writer = try RecordIO.openWriter(path: output, format: format, gzip: gzip, options: options)
            let logWriter = try log.map {
                try MergeLogWriter(
                    sink: try FileByteSink(path: $0), threshold: threshold,
                    inputs: inputs.map { ($0.name, $0.role.rawValue) })
            }
            try await analysis.write(to: writer, log: logWriter, rejects: rejectsWriter)
        }
        ticker.cancel()
        meter.finish()
        try rejectsWriter?.finish()
        report(analysis.summary, analysis: analysis, logPath: writes ? log : nil)
        if analysis.summary.rejected > 0 { throw DataErrorsExit() }
    }

    /// The human summary on standard error (with `-v`, phase times and blocking counts).
    func report(_ summary: DedupeSummary, analysis: DedupeAnalysis, logPath: String?) {
        for line in summary.text.split(separator: "\n") { Stderr.print("larder dedupe: \(line)") }
        if let logPath { Stderr.print("larder dedupe: merge log in \(logPath)") }
        if let path = rejects.resolvedRejectsPath, summary.rejected > 0 {
            Stderr.print("larder dedupe: rejects in \(path)")
        }
        guard verbose else { return }
        let phases = analysis.timings.map {
            "\($0.phase) \(Self.seconds($0.wall)) (cpu \(String(format: "%.2fs", $0.cpuSeconds)), "
                + "peak \($0.peakResidentBytes / 1_048_576) MiB)"
        }
        .joined(separator: ", ")
        Stderr.print(
            "larder dedupe: time: \(phases); features \(analysis.featureBytes / 1_048_576) MiB for \(analysis.recordCount) records"
        )
        Stderr.print(
            "larder dedupe: candidate pairs by band: \(summary.candidatePairsByBand.map(String.init).joined(separator: " "))"
        )
    }

    /// The format of a file's content, or `nil` for standard input or an unreadable file.
    static func sniffFormat(_ path: String) -> DataFormat? {
        guard path != "-", let source = try? FileByteSource(path: path),
            let (_, format) = try? RecordIO.sniff(source, path: path)
        else {
            return nil
        }
        return format
    }

    static func seconds(_ duration: Duration) -> String {
        let (s, attoseconds) = duration.components
        let total = Double(s) + Double(attoseconds) / 1e18
        return String(format: "%.2fs", total)
    }
}
