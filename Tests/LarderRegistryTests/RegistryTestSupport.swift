import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
@testable import LarderRegistry

/// Shared helpers for the registry tests.
enum RegistryFixture {
    /// The embedded registry, loaded once.
    static let registry: SchemaRegistry = {
        do { return try SchemaRegistry.load() } catch { preconditionFailure("the embedded registry must load: \(error)") }
    }()

    static var migrator: Migrator { Migrator(registry: registry) }

    /// Every record of a file under the package root.
    static func records(_ relativePath: String) throws -> [Value] {
        let reader = try RecordIO.openReader(path: CLI.packageRoot.appendingPathComponent(relativePath).path)
        var result: [Value] = []
        while let item = try reader.next() { result.append(item.value) }
        return result
    }

    /// Parses JSON text into one value.
    static func json(_ text: String) throws -> Value {
        try SchemaRegistry.parseDocument(text, name: "<test>.json")
    }

    /// An image store in memory.
    final class MemoryImages: ImageStore {
        var files: [String: [UInt8]] = [:]
        func save(_ bytes: [UInt8], recordID: String, fileExtension: String) throws -> String {
            let ref = "images/\(recordID).\(fileExtension)"
            files[ref] = bytes
            return ref
        }
        func load(_ reference: String) throws -> [UInt8] {
            guard let bytes = files[reference] else { throw LarderError(.io, "no image \(reference)") }
            return bytes
        }
    }
}
