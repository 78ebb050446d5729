import Foundation
public import LarderCore
import LarderFormats

/// The loaded schema registry: the manifest, every version's compiled JSON Schema, and the XSDs.
///
/// Loading parses the manifest and compiles every JSON Schema (a few milliseconds), so a broken
/// schema is found at once, not halfway through a file.
///
/// ```swift
/// let registry = try SchemaRegistry.load()            // the embedded copy
/// let schema = try registry.jsonSchema(type: "recipe", version: 3)
/// ```
public final class SchemaRegistry: Sendable {
    /// Where the files came from.
    public let source: SchemaSource
    /// The manifest.
    public let manifest: SchemaManifest
    private let schemas: [String: JSONSchema]
    private let schemaValues: [String: Value]

    private static func key(_ type: String, _ version: Int) -> String { "\(type)@\(version)" }

    /// Loads the registry from `source`.
    /// - Parameter source: where the manifest and schemas are; by default the ones compiled into Larder
    ///   (`Schemas/` at build time).
    /// - Returns: the registry: every record type, its versions and their schemas.
    /// - Throws: ``LarderError`` `schema-error` naming the file and JSON pointer of the first
    ///   problem, `io-error` for a missing file.
    public static func load(_ source: SchemaSource = .embedded) throws -> SchemaRegistry {
        guard let manifestName = source.manifestName else {
            throw LarderError(.io, "\(source.displayPath("registry.yaml")): no manifest")
        }
        let document = try parseDocument(try source.text(manifestName), name: source.displayPath(manifestName))
        let manifest = try SchemaManifest(document: document, file: source.displayPath(manifestName))
        var schemas: [String: JSONSchema] = [:]
        var values: [String: Value] = [:]
        for type in manifest.types {
            for version in type.versions {
                let file = source.displayPath(version.jsonSchema)
                let value = try parseDocument(try source.text(version.jsonSchema), name: file)
                do {
                    schemas[key(type.name, version.version)] = try JSONSchema(
                        value: value, name: "\(type.name) v\(version.version)")
                } catch let error as LarderError {
                    throw LarderError(.schema, error.message, location: SourceLocation(file: file))
                }
                values[key(type.name, version.version)] = value
                if let xsd = version.xsd, !source.exists(xsd) {
                    throw LarderError(
                        .io,
                        "\(source.displayPath(xsd)): missing (named by \(type.name) v\(version.version) in \(manifest.file))"
                    )
                }
            }
        }
        return SchemaRegistry(source: source, manifest: manifest, schemas: schemas, schemaValues: values)
    }

    private init(
        source: SchemaSource, manifest: SchemaManifest, schemas: [String: JSONSchema], schemaValues: [String: Value]
    ) {
        self.source = source
        self.manifest = manifest
        self.schemas = schemas
        self.schemaValues = schemaValues
    }

    /// Parses one JSON (or, once YAMLReader lands, YAML) document into a value.
    package static func parseDocument(_ text: String, name: String) throws -> Value {
        let isYAML = name.hasSuffix(".yaml") || name.hasSuffix(".yml")
        let reader = try RecordIO.openReader(source: MemoryByteSource(text, name: name), format: isYAML ? .yaml : .json)
        guard let item = try reader.next() else {
            throw LarderError(.schema, "empty document", location: SourceLocation(file: name))
        }
        guard try reader.next() == nil else {
            throw LarderError(.schema, "expected one document, found several", location: SourceLocation(file: name))
        }
        return item.value
    }

    /// The type named `name`.
    /// - Throws: ``LarderError`` `usage-error` listing the known types.
    public func type(_ name: String) throws -> SchemaManifest.TypeEntry {
        guard let entry = manifest.type(name) else {
            throw LarderError(
                .usage, "unknown record type \"\(name)\" (known: \(manifest.types.map(\.name).joined(separator: ", ")))"
            )
        }
        return entry
    }

    /// The version entry, or a usage error naming the versions there are.
    public func version(type name: String, _ version: Int) throws -> SchemaManifest.Version {
        let entry = try type(name)
        guard let found = entry.version(version) else {
            throw LarderError(
                .usage,
                "\(name) has no version \(version) (versions: \(entry.versions.map { String($0.version) }.joined(separator: ", ")))"
            )
        }
        return found
    }

    /// The compiled JSON Schema of `type` at `version`.
    public func jsonSchema(type: String, version: Int) throws -> JSONSchema {
        _ = try self.version(type: type, version)
        guard let schema = schemas[Self.key(type, version)] else {
            throw LarderError(.schema, "\(type) v\(version) has no schema")
        }
        return schema
    }

    /// The JSON Schema document of `type` at `version`, as a value.
    public func jsonSchemaValue(type: String, version: Int) throws -> Value {
        _ = try self.version(type: type, version)
        return schemaValues[Self.key(type, version)] ?? .null
    }

    /// The XSD text of `type` at `version`.
    public func xsdText(type: String, version: Int) throws -> String {
        let entry = try self.version(type: type, version)
        guard let xsd = entry.xsd else {
            throw LarderError(.schema, "\(type) v\(version) has no XSD in \(manifest.file)")
        }
        return try source.text(xsd)
    }

    /// The newest version of `type` whose JSON Schema accepts `record`, if any.
    public func newestValidVersion(type: String, of record: Value) -> Int? {
        guard let entry = manifest.type(type) else { return nil }
        for version in entry.versions.reversed() where schemas[Self.key(type, version.version)]?.isValid(record) == true
        {
            return version.version
        }
        return nil
    }

    /// Checks what loading cannot: every type Larder's model knows is in the manifest at the
    /// version the model implements, and every step names a converter or stage that exists.
    /// - Returns: the problems, empty when the registry is sound.
    public func consistencyProblems(converters: [String: Converter], stages: [String: MigrationStage]) -> [String] {
        var problems: [String] = []
        for recordType in RecordType.allCases {
            guard let entry = manifest.type(recordType.rawValue) else {
                problems.append("\(manifest.file): type \(recordType.rawValue) is missing")
                continue
            }
            if entry.latest != recordType.currentVersion {
                problems.append(
                    "\(manifest.file): \(recordType.rawValue)'s newest version is \(entry.latest), but this larder's model implements \(recordType.currentVersion)"
                )
            }
        }
        for type in manifest.types {
            for (a, b) in zip(type.versions, type.versions.dropFirst()) {
                let reachable = type.migrations.contains { $0.from <= a.version && $0.to >= b.version }
                if !reachable {
                    problems.append(
                        "\(manifest.file): \(type.name) has no migration from v\(a.version) to v\(b.version)")
                }
            }
            for transition in type.migrations {
                for step in transition.steps {
                    switch step.kind {
                    case .convert(_, _, let converter, _, let inverse):
                        for id in [converter] + (inverse.map { [$0] } ?? []) where converters[id] == nil {
                            problems.append(
                                "\(manifest.file): \(step.pointer): step \(step.id) names unknown converter \"\(id)\"")
                        }
                    case .stage(let id, let inverse):
                        for stage in [id] + (inverse.map { [$0] } ?? []) where stages[stage] == nil {
                            problems.append(
                                "\(manifest.file): \(step.pointer): step \(step.id) names unknown stage \"\(stage)\"")
                        }
                    default: break
                    }
                }
            }
        }
        return problems
    }
}
