import ArgumentParser
import Foundation
import LarderCore
import LarderRegistry
import LarderStore

/// What `larder store delete`, `set-local` and `enable-cloud` share: the store, the records, the time.
struct RecordChangeOptions: ParsableArguments {
    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .long, help: "Record type (default: found from the id).")
    var type: String?

    @OptionGroup var nowOption: NowOption

    @Argument(help: "Record ids.")
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one record id") }
    }

    /// Applies `change` to every id, one transaction each, and reports each on stderr.
    func apply(_ verb: String, _ change: (SyncState, String, String, Date) throws -> SyncState.LocalOutcome) throws {
        let sync = SyncState(store: try Store(path: storeOptions.store))
        // Resolve every id first: an unknown one changes nothing.
        let targets = try ids.map { ($0, try resolveType($0, sync)) }
        for (id, type) in targets {
            let outcome = try change(sync, type, id, nowOption.date)
            Stderr.print("larder: \(type) \(id): \(outcome == .changed ? verb : "unchanged (already so)")")
        }
    }

    private func resolveType(_ id: String, _ sync: SyncState) throws -> String {
        if let type { return type }
        let types = try sync.types(ofID: id)
        guard let only = types.first else { throw LarderError(.usage, "\(sync.store.path) has no record \(id)") }
        guard types.count == 1 else {
            throw LarderError(.usage, "\(id) is a \(types.joined(separator: " and a ")) record: choose with --type")
        }
        return only
    }
}

/// `larder store delete ID... --store PATH`.
struct StoreDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete records: each becomes a minimal tombstone, queued for the cloud.",
        discussion: """
            The tombstone keeps only id, recordName, isDeleted, deletedAt, updatedAt and the \
            schema version; every other field is gone. A local-only record's cloud copy is \
            already a tombstone, so nothing new is queued for it.
            """
    )

    @OptionGroup var options: RecordChangeOptions

    func run() throws {
        try options.apply("deleted (minimal tombstone; upload queued unless it was local-only)") {
            try $0.delete(type: $1, id: $2, at: $3)
        }
    }
}

/// `larder store set-local ID... --store PATH`.
struct StoreSetLocalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-local",
        abstract: "Keep records on this device only: the local data stays, the cloud copy becomes a tombstone.",
        discussion: """
            Every other device removes the record when it syncs (like a delete), while this \
            store keeps all its data; remote updates and deletes never touch it again until \
            `larder store enable-cloud`.
            """
    )

    @OptionGroup var options: RecordChangeOptions

    func run() throws {
        try options.apply("local-only (cloud tombstone queued)") { try $0.setLocalOnly(type: $1, id: $2, at: $3) }
    }
}

/// `larder store enable-cloud ID... --store PATH`.
struct StoreEnableCloudCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enable-cloud",
        abstract: "Sync local-only records again: the full record is queued to overwrite the cloud's tombstone."
    )

    @OptionGroup var options: RecordChangeOptions

    func run() throws {
        try options.apply("cloud-enabled (full record queued over the tombstone)") {
            try $0.enableCloud(type: $1, id: $2, at: $3)
        }
    }
}
