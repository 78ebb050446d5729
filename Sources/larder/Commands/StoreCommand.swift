import ArgumentParser
import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore

/// `larder store`: the local Larder store (SQLite).
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Work with a Larder store (records, images and the schema history in one SQLite file).",
        subcommands: [
            StoreImportCommand.self, StoreExportCommand.self, StoreStatsCommand.self, StoreDeleteCommand.self,
            StoreSetLocalCommand.self,
            StoreEnableCloudCommand.self, StorePendingCommand.self, StoreAckCommand.self, StoreDeviceCommand.self,
            StoreDevicesCommand.self,
        ]
    )
}

/// `larder store import FILES... --store PATH`.
struct StoreImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load records into a store (created when missing), in one transaction.",
        discussion: """
            Each record is checked against its type's schema at its version (declared by the file, \
            --version, or the store's) and inserted or replaced by id. Records of a version other \
            than the store's are refused: migrate the file or the store first. Records with no \
            version anywhere stay unversioned until `larder schema baseline` adopts them.
            """
    )

    @OptionGroup var input: InputOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: "Schema version of records whose file declares none.")
    var version: Int?

    @OptionGroup var rejects: RejectsOptions
    @OptionGroup var schemaOptions: SchemaOptions

    func run() throws {
        let ledger = Ledger(
            store: try Store(path: storeOptions.store, create: true), migrator: try schemaOptions.migrator())
        let rejectsWriter = try rejects.resolvedRejectsPath.map { try RejectsWriter(path: $0) }
        let summary = try ledger.importRecords(
            inputs: input.resolvedInputs, format: input.inputFormat, recordType: input.type, version: version,
            keepGoing: rejects.keepGoing
        ) { record, error in
            try rejectsWriter?.reject(record, error)
        }
        try rejectsWriter?.finish()
        var line =
            "larder: \(summary.imported) record\(summary.imported == 1 ? "" : "s") imported into \(storeOptions.store), \(summary.rejected) rejected"
        for (type, version) in summary.versions.sorted(by: { $0.key < $1.key }) {
            line +=
                version.map { "; \(type) v\($0)" }
                ?? "; \(type) without a schema version (adopt with larder schema baseline --type \(type) --version N)"
        }
        Stderr.print(line)
        if summary.rejected > 0 { throw DataErrorsExit() }
    }
}
