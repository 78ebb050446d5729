import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore

/// `larder store export --store PATH --to FORMAT [-o OUT]`.
struct StoreExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a store's records of one type to a file (or standard output), streaming.",
        discussion: """
            Records come out in id order, in an envelope {schema, version, records} for JSON and \
            YAML (XML always has one), from one consistent snapshot. Tombstones come out as their \
            minimal bodies unless --skip-tombstones; local-only records are included (they are the \
            user's data). A .gz output name compresses.

            Examples:
              larder store export --store larder.db --to ndjson -o recipes.ndjson.gz
              larder store export --store larder.db --type brewLog --to yaml
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: "Output format: json, ndjson, yaml or xml.")
    var to: DataFormat

    @Option(
        name: [.customShort("o"), .long], help: "Output file ('-' or none: standard output). A .gz name compresses.")
    var output: String?

    @Option(name: .long, help: "Record type to export (needed when the store holds several).")
    var type: String?

    @Flag(name: .long, help: "Leave tombstones out.")
    var skipTombstones = false

    @Flag(name: .long, help: "Indent JSON output.")
    var pretty = false

    func run() throws {
        let store = try Store(path: storeOptions.store)
        let types = try StoreExport.types(store: store)
        let chosen: String
        if let type {
            chosen = type
        } else if types.count == 1, let only = types.first {
            chosen = only
        } else if types.isEmpty {
            throw LarderError(.usage, "\(store.path) holds no records")
        } else {
            throw LarderError(
                .usage, "\(store.path) holds \(types.joined(separator: ", ")) records: choose one with --type")
        }
        let version = try store.schemaStates().first { $0.type == chosen }?.version
        let recordType = RecordType(rawValue: chosen)
        let options = WriterOptions(
            envelope: to == .ndjson
                ? nil : EnvelopeHeader(schema: chosen, version: version ?? recordType?.currentVersion),
            recordType: recordType,
            pretty: pretty)
        let writer = try RecordIO.openWriter(path: output, format: to, options: options)
        let count = try StoreExport.write(store: store, type: chosen, to: writer, includeTombstones: !skipTombstones)
        Stderr.print(
            "larder: \(ReportFormat.count(count)) \(chosen) record\(count == 1 ? "" : "s") exported from \(store.path)")
    }
}
