public import ArgumentParser
import LarderCore
import LarderFormats

/// Options every command that reads record files shares.
struct InputOptions: ParsableArguments {
    @Argument(help: "Input files; '-' reads standard input. gzip is detected automatically.")
    var inputs: [String] = []

    @Option(name: .long, help: "Input format: auto, json, ndjson, yaml or xml.")
    var from: InputFormatChoice = .auto

    @Option(name: .long, help: "Record type: recipe, brewRecipe or brewLog (default: from the envelope or the fields).")
    var type: RecordType?

    var inputFormat: DataFormat? { from.format }

    /// The inputs, standard input when none is given.
    var resolvedInputs: [String] { inputs.isEmpty ? ["-"] : inputs }
}

/// `--from` choices: `auto` or a format.
enum InputFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, json, ndjson, yaml, xml

    var format: DataFormat? { DataFormat(rawValue: rawValue) }
}

extension RecordType: ExpressibleByArgument {}
extension DataFormat: ExpressibleByArgument {
    /// The format names, in any case, and the spellings other tools use: `yml` (as yq takes it),
    /// `jsonl` and `jsonlines` for NDJSON.
    init?(argument: String) {
        let name = argument.lowercased()
        let aliases: [String: DataFormat] = ["yml": .yaml, "jsonl": .ndjson, "jsonlines": .ndjson]
        guard let format = DataFormat(rawValue: name) ?? aliases[name] else { return nil }
        self = format
    }
}
