import Foundation
import LarderCore

/// Where the registry's files come from: the copy compiled into the binary, or a folder.
///
/// The embedded copy (`EmbeddedSchemas.swift`, generated from `Schemas/` by
/// `scripts/embed-schemas.py`) makes the CLI work from any working directory and from a copied or
/// installed binary; SwiftPM resources (`Bundle.module`) would crash a moved binary. A folder
/// given with `--schemas DIR` (or `LARDER_SCHEMAS`) overrides it.
public struct SchemaSource: Sendable, Hashable {
    /// The folder, or `nil` for the embedded copy.
    public let directory: String?

    /// The copy compiled into the binary.
    public static let embedded = SchemaSource(directory: nil)

    /// A `Schemas/` folder on disk.
    /// - Throws: ``LarderError`` `io-error` when the folder holds no `registry.yaml` / `registry.json`.
    public static func directory(_ path: String) throws -> SchemaSource {
        let source = SchemaSource(directory: path)
        guard source.manifestName != nil else {
            throw LarderError(.io, "no registry.yaml or registry.json in \(path): pass the Schemas folder to --schemas")
        }
        return source
    }

    private init(directory: String?) {
        self.directory = directory
    }

    /// The manifest's file name: `registry.yaml`, else `registry.json`.
    public var manifestName: String? {
        for name in ["registry.yaml", "registry.json"] where exists(name) { return name }
        return nil
    }

    /// How a file is named in messages: `Schemas/recipe/v1.schema.json` on disk,
    /// `<embedded>/recipe/v1.schema.json` for the compiled-in copy.
    public func displayPath(_ relative: String) -> String {
        guard let directory else { return "<embedded Schemas>/" + relative }
        return (directory as NSString).appendingPathComponent(relative)
    }

    /// Whether the file exists.
    public func exists(_ relative: String) -> Bool {
        guard let directory else { return EmbeddedSchemas.files[relative] != nil }
        return FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(relative))
    }

    /// The file's text.
    /// - Throws: ``LarderError`` `io-error` naming the file when it is missing or unreadable.
    public func text(_ relative: String) throws -> String {
        guard let directory else {
            guard let text = EmbeddedSchemas.files[relative] else {
                throw LarderError(.io, "\(displayPath(relative)): no such schema file in the embedded registry")
            }
            return text
        }
        let path = (directory as NSString).appendingPathComponent(relative)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LarderError(.io, "\(path): cannot read schema file")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every file, relative path to text (for `schema list` and the staleness test).
    public func allFiles() throws -> [String: String] {
        guard let directory else { return EmbeddedSchemas.files }
        var result: [String: String] = [:]
        let root = URL(fileURLWithPath: directory)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [:] }
        for case let url as URL in walker where !url.hasDirectoryPath {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if relative.hasSuffix(".json") || relative.hasSuffix(".yaml") || relative.hasSuffix(".xsd") {
                result[relative] = try text(relative)
            }
        }
        return result
    }
}
