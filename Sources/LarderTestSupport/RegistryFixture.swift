import Foundation
package import LarderCore
import LarderFormats
package import LarderRegistry

/// Shared helpers for the registry and store tests.
package enum RegistryFixture {
    /// The embedded registry, loaded once.
    package static let registry: SchemaRegistry = {
        do { return try SchemaRegistry.load() } catch {
            preconditionFailure("the embedded registry must load: \(error)")
        }
    }()

    package static var migrator: Migrator { Migrator(registry: registry) }

    /// Every record of a file under the package root.
    package static func records(_ relativePath: String) throws -> [Value] {
        let reader = try RecordIO.openReader(path: CLI.packageRoot.appendingPathComponent(relativePath).path)
        var result: [Value] = []
        while let item = try reader.next() { result.append(item.value) }
        return result
    }

    /// Parses JSON text into one value.
    package static func json(_ text: String) throws -> Value {
        try SchemaRegistry.parseDocument(text, name: "<test>.json")
    }

    /// An image store in memory.
    package final class MemoryImages: ImageStore {
        package init() {}
        package var files: [String: [UInt8]] = [:]
        package func save(_ bytes: [UInt8], recordID: String, fileExtension: String) throws -> String {
            let ref = "images/\(recordID).\(fileExtension)"
            files[ref] = bytes
            return ref
        }
        package func load(_ reference: String) throws -> [UInt8] {
            guard let bytes = files[reference] else { throw LarderError(.io, "no image \(reference)") }
            return bytes
        }
    }
}
