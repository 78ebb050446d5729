import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore

/// `larder migrate`: record files or a store to another schema version.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate record files, or a store, to another schema version.",
        discussion: """
            Files: each record's version is the one its file declares (envelope "version", XML \
            version attribute), else --source-version, else the newest version whose schema accepts \
            it. The plan runs the manifest's steps (up, or down through their inverses) and every \
            migrated record is validated against the target schema. Output is in the input's format \
            unless --to; images moved out of v1 recipes go to images/ next to the output. \
            Streams record by record; the output is written atomically.

            Store (--store): one transaction per step, each recorded in the store's history with its \
            checksum; a run that stops halfway resumes after the last committed step.

            --dry-run prints the plan (each step, the records it touches, a sample before/after) and \
            writes nothing.

            Examples:
              larder migrate samples/v1/recipes-v1.json --to-version 3 --dry-run
              larder migrate samples/v1/recipes-v1.json --to-version 3 -o recipes-v3.json
              larder migrate --store larder.db --type recipe --to-version 3
            """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("to-version"), help: "Target schema version (default: the newest).")
    var toVersion: Int?

    @Option(name: .long, help: "Version of records whose file declares none (default: detect per record).")
    var sourceVersion: Int?

    @Option(
        name: [.customShort("o"), .long], help: "Output file ('-' or none: standard output). A .gz name compresses.")
    var output: String?

    @Option(
        name: .long,
        help: "Output format: json, ndjson, yaml or xml (default: the input's). A number is read as --to-version.")
    var to: String?

    /// The old spelling of `--to` (formats are `--from`/`--to` in every command).
    @Option(name: .long, help: .hidden)
    var format: DataFormat?

    /// The target version: `--to-version`, or `--to N` as it was spelled before (with a warning).
    var targetVersion: Int? { toVersion ?? to.flatMap { Int($0) } }

    /// The output format: `--to FORMAT`, or the old `--format`.
    var outputFormat: DataFormat? { to.flatMap(DataFormat.init(argument:)) ?? format }

    @Flag(name: .long, help: "Print the plan and what it would do; write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Indent JSON output.")
    var pretty = false

    @Option(name: .long, help: "Migrate this store instead of files.")
    var store: String?

    @OptionGroup var rejects: RejectsOptions
    @OptionGroup var schemaOptions: SchemaOptions
    @OptionGroup var recordLimits: RecordLimitOptions
    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        if let to, Int(to) == nil, DataFormat(argument: to) == nil {
            throw ValidationError("--to takes a format (json, ndjson, yaml, xml); the schema version is --to-version")
        }
        if let to, Int(to) != nil, toVersion != nil {
            throw ValidationError("--to \(to) and --to-version both name a version; give --to-version only")
        }
        if store != nil && !input.inputs.isEmpty {
            throw ValidationError("give either input files or --store, not both")
        }
        if store != nil && (output != nil || outputFormat != nil) {
            throw ValidationError("-o and --to FORMAT apply to files, not to --store")
        }
    }

    func run() throws {
        if let to, Int(to) != nil {
            Stderr.print(
                "larder: warning: --to \(to) names a version; it is --to-version \(to) now (--to is the output format)")
        }
        if format != nil { Stderr.print("larder: warning: --format is --to now, as in convert and import") }
        let migrator = try schemaOptions.migrator()
        if let store {
            try runStore(path: store, migrator: migrator)
            return
        }
        var migration = FileMigration(
            migrator: migrator, inputs: input.resolvedInputs, inputFormat: input.inputFormat, recordType: input.type,
            fromVersion: sourceVersion, targetVersion: targetVersion, keepGoing: rejects.keepGoing)
        migration.limits = recordLimits.limits
        let hint = PlainFileHint()
        migration.onRecordFailure = hint.observe
        if dryRun {
            let report = try migration.dryRun()
            let target = targetVersion.map { "v\($0)" } ?? "the newest version"
            print(
                TerminalText.escaped(
                    report.renderPlan(
                        title: "dry run: migrate \(input.resolvedInputs.joined(separator: ", ")) to \(target)")))
            print("dry run: nothing written")
            return
        }
        let rejectsWriter = try rejects.resolvedRejectsPath.map { try RejectsWriter(path: $0) }
        let summary: FileMigration.Summary
        let meter = progress.start("migrate", inputs: input.resolvedInputs)
        do {
            defer { meter.finish() }
            summary = try migration.run(
                output: output, format: outputFormat, pretty: pretty,
                onReject: { record, error in try rejectsWriter?.reject(record, error) },
                progress: { meter.update(records: $0.read) })
        } catch {
            try hint.fail(with: error)
        }
        try rejectsWriter?.finish()
        var line = "larder: \(summary.pipeline.text)"
        for stats in summary.report.plans where !stats.plan.isEmpty {
            line +=
                "; \(stats.plan.type) v\(stats.plan.from) → v\(stats.plan.to): \(stats.records) record\(stats.records == 1 ? "" : "s"), \(stats.plan.steps.count) steps"
        }
        for (key, count) in summary.report.detected.sorted(by: { $0.key < $1.key }) {
            line += "; \(count) undeclared record(s) detected as \(key)"
        }
        if summary.report.unchanged > 0 { line += "; \(summary.report.unchanged) already at the target version" }
        if summary.imagesWritten > 0 { line += "; \(summary.imagesWritten) image(s) written to images/" }
        if let path = rejectsWriter?.path, summary.pipeline.rejected > 0 { line += " (rejects in \(path))" }
        Stderr.print(line)
        hint.print()
        if summary.pipeline.rejected > 0 { throw DataErrorsExit() }
    }

    private func runStore(path: String, migrator: Migrator) throws {
        let ledger = Ledger(store: try Store(path: path), migrator: migrator)
        let types = try input.type.map { [$0.rawValue] } ?? ledger.types()
        if targetVersion != nil && types.count > 1 {
            throw ValidationError(
                "--to-version needs --type when the store holds several types (\(types.joined(separator: ", ")))")
        }
        if types.isEmpty { Stderr.print("larder: \(path) holds no records") }
        for type in types {
            if dryRun {
                let (report, plan, skip) = try ledger.dryRun(type: type, to: targetVersion)
                let resumed = skip > 0 ? " (resuming after step \(skip) of an interrupted transition)" : ""
                if plan.isEmpty {
                    print("\(type): already at v\(plan.to)\(resumed)")
                } else {
                    print(
                        TerminalText.escaped(
                            report.renderPlan(
                                title: "dry run: migrate \(type) in \(path) from v\(plan.from) to v\(plan.to)\(resumed)"
                            )))
                }
                continue
            }
            let rejectsWriter = try rejects.resolvedRejectsPath.map { try RejectsWriter(path: $0) }
            let outcome = try ledger.migrate(type: type, to: targetVersion, keepGoing: rejects.keepGoing) {
                record, error in
                try rejectsWriter?.reject(record, error)
            }
            try rejectsWriter?.finish()
            if let note = outcome.resumedFrom { Stderr.print("larder: \(note)") }
            for step in outcome.steps {
                Stderr.print(
                    "larder: \(type): applied \(step.id)\(step.direction == .down ? " (down)" : ""): \(step.touched) record(s) changed"
                )
            }
            var line = "larder: \(type) in \(path) is at v\(outcome.finalVersion.map(String.init) ?? "?")"
            if outcome.steps.isEmpty { line += " (nothing to do)" }
            if outcome.rejected > 0 {
                line +=
                    "; \(outcome.rejected) rejected (moved to the store's rejects table\(rejectsWriter.map { " and \($0.path)" } ?? ""))"
            }
            Stderr.print(line)
            if outcome.rejected > 0 { throw DataErrorsExit() }
        }
        if dryRun { print("dry run: nothing written") }
    }
}
