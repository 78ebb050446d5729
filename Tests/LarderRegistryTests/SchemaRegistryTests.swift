import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderRegistry

@Suite struct SchemaRegistryTests {
    @Test("the embedded registry knows every model type at the version the model implements")
    func embeddedRegistryMatchesModel() throws {
        let registry = RegistryFixture.registry
        for type in RecordType.allCases {
            #expect(try registry.type(type.rawValue).latest == type.currentVersion)
        }
        let migrator = RegistryFixture.migrator
        #expect(registry.consistencyProblems(converters: migrator.converters, stages: migrator.stages).isEmpty)
    }

    @Test("the embedded copy of Schemas/ is up to date (run `make embed-schemas` when this fails)")
    func embeddedCopyIsNotStale() throws {
        let onDisk = try SchemaSource.directory(CLI.packageRoot.appendingPathComponent("Schemas").path).allFiles()
        #expect(Set(onDisk.keys) == Set(EmbeddedSchemas.files.keys))
        for (path, text) in onDisk {
            #expect(EmbeddedSchemas.files[path] == text, "Schemas/\(path) differs from the embedded copy")
        }
    }

    @Test("the current model's records validate against the current schemas")
    func modelRecordsValidate() throws {
        let registry = RegistryFixture.registry
        let values: [(String, Value)] = [
            ("recipe", Recipe.make().value), ("brewLog", BrewLog.make().value),
            ("brewRecipe", BrewRecipe.v60Starter().value),
        ]
        for (type, value) in values {
            let schema = try registry.jsonSchema(type: type, version: try registry.type(type).latest)
            #expect(schema.validate(value).isEmpty, "\(type): \(schema.validate(value))")
        }
    }

    @Test("the sample files validate against the versions they declare")
    func samplesValidate() throws {
        for (file, type, version) in [
            ("samples/v1/recipes-v1.json", "recipe", 1), ("samples/v2/recipes-v2.json", "recipe", 2),
            ("samples/v1/brew-logs-v1.json", "brewLog", 1),
        ] {
            let schema = try RegistryFixture.registry.jsonSchema(type: type, version: version)
            let records = try RegistryFixture.records(file)
            #expect(records.count >= 20)
            for (index, record) in records.enumerated() {
                #expect(schema.validate(record).isEmpty, "\(file) record \(index): \(schema.validate(record))")
            }
        }
    }

    @Test("each version is told apart: the newest version that validates a record is its own")
    func detectsVersion() throws {
        let registry = RegistryFixture.registry
        #expect(
            try RegistryFixture.records("samples/v1/recipes-v1.json").allSatisfy {
                registry.newestValidVersion(type: "recipe", of: $0) == 1
            })
        // A minimal tombstone is the same in v2 and v3, so only live records tell the versions apart.
        let live = try RegistryFixture.records("samples/v2/recipes-v2.json").filter { $0["isDeleted"] != .bool(true) }
        #expect(live.allSatisfy { registry.newestValidVersion(type: "recipe", of: $0) == 2 })
        #expect(registry.newestValidVersion(type: "recipe", of: Recipe.make().value) == 4)
    }

    @Test("a manifest with an unknown key is refused with its JSON pointer")
    func manifestUnknownKey() throws {
        let document = try RegistryFixture.json(
            #"{"format": 1, "types": {"recipe": {"versions": [{"version": 1, "jsonSchema": "a.json"}], "compatability": "NONE"}}}"#
        )
        #expect {
            try SchemaManifest(document: document, file: "registry.yaml")
        } throws: { error in
            "\(error)".contains("registry.yaml: error: /types/recipe/compatability: unknown key \"compatability\"")
        }
    }

    @Test("a step with two kinds, or a duplicate step id, is refused")
    func manifestBadSteps() throws {
        let twoKinds = try RegistryFixture.json(
            #"{"format": 1, "types": {"t": {"versions": [{"version": 1, "jsonSchema": "a"}, {"version": 2, "jsonSchema": "b"}], "migrations": [{"from": 1, "to": 2, "steps": [{"id": "s", "rename": {"field": "a", "to": "b"}, "drop": {"field": "c"}}]}]}}}"#
        )
        #expect(throws: LarderError.self) { try SchemaManifest(document: twoKinds, file: "m") }
        let duplicate = try RegistryFixture.json(
            #"{"format": 1, "types": {"t": {"versions": [{"version": 1, "jsonSchema": "a"}, {"version": 2, "jsonSchema": "b"}], "migrations": [{"from": 1, "to": 2, "steps": [{"id": "s", "rename": {"field": "a", "to": "b"}}, {"id": "s", "drop": {"field": "c"}}]}]}}}"#
        )
        #expect {
            try SchemaManifest(document: duplicate, file: "m")
        } throws: { error in
            "\(error)".contains("step id \"s\" is already used")
        }
    }
}
