import ArgumentParser
import LarderCore
import LarderFormats

/// `larder validate`: structure and domain rules, every problem reported.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check records against their type and the apps' domain rules.",
        discussion: """
            Reports every invalid record on stderr as file:line:col: error: record N: path: message \
            and exits 1 if any was invalid. Rules: brew recipes (name, dose > 0, yield > 0, at least \
            one step, timers >= 0, water additions = target yield ±1 g), brew logs (rating 1-5, \
            name snapshot, dose, yield, note <= 280 characters), recipes (title, servings > 0, \
            times >= 0).
            """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .long, help: "Also write the invalid records to this NDJSON file.")
    var rejects: String?

    func run() throws {
        let rejectsWriter = try rejects.map { try RejectsWriter(path: $0) }
        let pipeline = ConversionPipeline(
            inputs: input.resolvedInputs, inputFormat: input.inputFormat, recordType: input.type, check: .domain,
            keepGoing: true)
        let summary = try pipeline.run(makeWriter: { _, _ in NullRecordWriter() }) { record, error in
            Stderr.print(error.description)
            try rejectsWriter?.reject(record, error.diagnostic)
        }
        try rejectsWriter?.finish()
        Stderr.print("larder: \(summary.read) records: \(summary.written) valid, \(summary.rejected) invalid")
        if summary.rejected > 0 { throw DataErrorsExit() }
    }
}
