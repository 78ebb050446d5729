import ArgumentParser
import Foundation
import LarderCore
import LarderRegistry

/// `--schemas DIR`: where the schema registry comes from.
struct SchemaOptions: ParsableArguments {
    @Option(name: .long, help: "Schemas folder to use instead of the registry built into larder (also LARDER_SCHEMAS).")
    var schemas: String?

    /// The source: the flag, then `LARDER_SCHEMAS`, then the embedded copy.
    func resolvedSource() throws -> SchemaSource {
        if let schemas { return try SchemaSource.directory(schemas) }
        if let path = ProcessInfo.processInfo.environment["LARDER_SCHEMAS"], !path.isEmpty {
            return try SchemaSource.directory(path)
        }
        return .embedded
    }

    /// The loaded registry.
    func registry() throws -> SchemaRegistry {
        try SchemaRegistry.load(resolvedSource())
    }

    /// A migrator over the loaded registry.
    func migrator() throws -> Migrator {
        Migrator(registry: try registry())
    }
}

/// `--store PATH`.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "The Larder store (an SQLite file).")
    var store: String = "larder.db"
}
