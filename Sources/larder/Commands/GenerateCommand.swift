import ArgumentParser
import LarderCore
import LarderFormats
import LarderSamples

/// `larder generate`: a deterministic synthetic corpus, for benchmarks and load tests.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write N realistic synthetic records (deterministic for a seed) in any format.",
        discussion: "Record i depends only on the seed and i, so corpora of any size stream in constant memory."
    )

    @Option(name: .long, help: "Record type: recipe, brewRecipe or brewLog.")
    var type: RecordType = .recipe

    @Option(name: [.customShort("n"), .long], help: "How many records.")
    var count: Int = 1000

    @Option(name: .long, help: "Seed for the generator.")
    var seed: UInt64 = 42

    @Option(name: .long, help: "Output format: json, ndjson, yaml or xml.")
    var to: DataFormat = .json

    @Option(
        name: [.customShort("o"), .long], help: "Output file ('-' or none: standard output). A .gz name compresses.")
    var output: String?

    @Flag(name: .long, help: "Wrap JSON or YAML output in an envelope.")
    var envelope = false

    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        guard count >= 0 else { throw ValidationError("--count must not be negative") }
    }

    func run() throws {
        let header = EnvelopeHeader(schema: type.rawValue, version: type.currentVersion)
        let writer = try RecordIO.openWriter(
            path: output, format: to,
            options: WriterOptions(envelope: envelope || to == .xml ? header : nil, recordType: type))
        let generator = RecordGenerator(seed: seed)
        let meter = progress.start("generate", totalRecords: count)
        defer { meter.finish() }
        for index in 0..<count {
            try writer.write(generator.record(type, index: index))
            if index & 1023 == 1023 { meter.update(records: index + 1) }
        }
        try writer.finish()
    }
}
