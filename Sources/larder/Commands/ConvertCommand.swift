import ArgumentParser
import Foundation
import LarderCore
import LarderFormats

/// `larder convert`: any supported format in, any out, record by record.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert records between JSON, NDJSON, YAML and XML (gzip in and out).",
        discussion: """
            Streams record by record, so memory stays flat on any input size. Each record is \
            checked against its type; without --keep-going the first bad record stops the run \
            with exit code 1 and no output file. With --keep-going bad records go to the rejects \
            file (NDJSON of {record, diagnostic}) and the summary on stderr says how many records \
            went where.

            Examples:
              larder convert recipes.json --to yaml -o recipes.yaml
              cat logs.ndjson.gz | larder convert - --to xml --type brewLog
            """
    )

    @OptionGroup var input: InputOptions

    @Option(name: .long, help: "Output format: json, ndjson, yaml or xml.")
    var to: DataFormat

    @Option(
        name: [.customShort("o"), .long], help: "Output file ('-' or none: standard output). A .gz name compresses.")
    var output: String?

    @Flag(name: .long, help: "Compress the output with gzip.")
    var gzip = false

    @Flag(name: .long, help: "Wrap JSON or YAML output in an envelope {schema, version, records}.")
    var envelope = false

    @Flag(name: .long, help: "Indent JSON output.")
    var pretty = false

    @Option(name: .long, help: "Schema version to declare in the output envelope (default: the input's, else current).")
    var declareVersion: Int?

    @Flag(
        name: .long,
        help:
            "Write each record in its model's canonical form: fields in schema order, absent optionals left out, lists always present (current schema versions only)."
    )
    var normalize = false

    @OptionGroup var rejects: RejectsOptions
    @OptionGroup var recordLimits: RecordLimitOptions
    @OptionGroup var progress: ProgressOptions

    func run() throws {
        let transform: ((Value, RecordType, Int?) throws -> Value)? =
            normalize ? { try Self.canonicalForm($0, $1, $2) } : nil
        let summary = try ConversionRunner.convert(
            input: input, rejects: rejects, progress: progress, stage: "convert", check: .structure,
            limits: recordLimits.limits,
            transform: transform, hint: PlainFileHint(),
            makeWriter: { header, type in
                let schema = (input.type ?? header?.recordType ?? type)?.rawValue ?? header?.schema
                let version =
                    declareVersion ?? header?.version ?? (input.type ?? header?.recordType ?? type)?.currentVersion
                let wantsEnvelope = envelope || to == .xml || (header != nil && to != .ndjson)
                let options = WriterOptions(
                    envelope: wantsEnvelope ? EnvelopeHeader(schema: schema, version: version) : nil,
                    recordType: input.type ?? header?.recordType ?? type, pretty: pretty)
                return try RecordIO.openWriter(path: output, format: to, gzip: gzip, options: options)
            })
        try ConversionRunner.finish(summary)
    }

    /// The record decoded into its model and encoded again; other versions pass unchanged.
    static func canonicalForm(_ record: Value, _ type: RecordType, _ version: Int?) throws -> Value {
        guard version == nil || version == type.currentVersion else { return record }
        return try type.decode(record).value
    }
}
