import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderRegistry

/// Compares the validator's verdicts with python's `jsonschema` on valid documents and on every
/// single-field mutation of them (wrong types, bounds, formats, missing and extra fields).
@Suite struct JSONSchemaOracleTests {
    /// A schema that uses every supported keyword, for generated documents.
    static let keywordSchema = #"""
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
         "required": ["name", "kind"], "additionalProperties": false,
         "properties": {
           "name": {"type": "string", "minLength": 1, "maxLength": 12, "pattern": "^[a-z]"},
           "kind": {"enum": ["a", "b", 3]},
           "fixed": {"const": "x"},
           "count": {"type": "integer", "minimum": 0, "exclusiveMaximum": 10, "multipleOf": 2},
           "ratio": {"type": "number", "exclusiveMinimum": 0, "maximum": 1.5},
           "tags": {"type": "array", "minItems": 1, "maxItems": 3, "uniqueItems": true, "items": {"type": "string"}},
           "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
           "when": {"type": "string", "format": "date-time"}, "day": {"format": "date"},
           "uid": {"format": "uuid"}, "link": {"format": "uri"},
           "either": {"oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 2}]},
           "any": {"anyOf": [{"type": "null"}, {"type": "boolean"}, {"$ref": "#/$defs/node"}]},
           "all": {"allOf": [{"type": "number"}, {"not": {"const": 0}}]},
           "meta": {"type": "object", "minProperties": 1, "maxProperties": 2, "additionalProperties": {"type": "integer"}}
         },
         "$defs": {"node": {"type": "object", "required": ["v"], "properties": {"v": {"type": "integer"}, "next": {"$ref": "#/$defs/node"}}, "additionalProperties": false}}}
        """#

    static let keywordDocuments = [
        #"{"name": "abc", "kind": "a"}"#,
        #"{"name": "abc", "kind": 3.0, "fixed": "x", "count": 4, "ratio": 1.5, "tags": ["x", "y"], "pair": ["a", 1], "when": "2024-01-01T00:00:00z", "day": "2024-02-29", "uid": "123e4567-e89b-12d3-a456-426614174000", "link": "urn:isbn:0451450523", "either": "ab", "any": {"v": 1, "next": {"v": 2}}, "all": 2.5, "meta": {"a": 1}}"#,
    ]

    static let substitutes: [Value] = [
        .null, true, 0, -1, 3, 2.5, 1_000_000_000_000, "", "x", "Zebra", "a", "b",
        "2024-13-01T00:00:00Z", "2024-02-30T10:00:00Z", "2024-01-01T10:00:00+0100", "2024-01-01", "not a uri",
        "https://ex.com/x?y#z", "mailto:a@b.c",
        "123e4567-e89b-12d3-a456-42661417400Z", "easy", "balanced", "v60", [], ["a", "a"], [1], ["a", 1, 2], [:],
        ["zz": 1], ["v": "1"],
        .string(String(repeating: "long ", count: 70)),
    ]

    private static func set(_ value: inout Value, _ path: ArraySlice<FieldPath.Component>, _ replacement: Value?) {
        guard let first = path.first else {
            if let replacement { value = replacement }
            return
        }
        switch (first, value) {
        case (.key(let key), .object(var fields)):
            if path.count == 1, replacement == nil {
                fields.removeValue(forKey: key)
            } else if var child = fields[key] {
                set(&child, path.dropFirst(), replacement)
                fields[key] = child
            }
            value = .object(fields)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            if path.count == 1, replacement == nil {
                elements.remove(at: index)
            } else {
                set(&elements[index], path.dropFirst(), replacement)
            }
            value = .array(elements)
        default: break
        }
    }

    /// The paths worth mutating: every member, and the first element of lists, three levels deep.
    private static func paths(_ value: Value, _ prefix: [FieldPath.Component] = [], depth: Int = 0) -> [[FieldPath
        .Component]]
    {
        guard depth < 3 else { return [] }
        switch value {
        case .object(let fields):
            return fields.flatMap {
                [prefix + [.key($0.key)]] + paths($0.value, prefix + [.key($0.key)], depth: depth + 1)
            }
        case .array(let elements) where !elements.isEmpty:
            return [prefix + [.index(0)]] + paths(elements[0], prefix + [.index(0)], depth: depth + 1)
        default: return []
        }
    }

    static func mutations(of document: Value) -> [Value] {
        var result = [document]
        for path in paths(document) {
            var removed = document
            set(&removed, path[...], nil)
            result.append(removed)
            for substitute in substitutes {
                var changed = document
                set(&changed, path[...], substitute)
                result.append(changed)
            }
        }
        var extra = document
        if case .object(var fields) = extra {
            fields["unexpected"] = 1
            extra = .object(fields)
        }
        result.append(extra)
        return result
    }

    /// Whether python3 can import jsonschema (`make test` installs it).
    static let hasPythonJSONSchema: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import jsonschema"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test(
        "verdicts agree with python jsonschema on valid and mutated documents",
        .enabled(if: hasPythonJSONSchema, "needs python3 with jsonschema (make test installs it)"))
    func agreesWithPython() throws {
        let python = "/usr/bin/env"
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/env") else { return }
        let registry = RegistryFixture.registry
        var schemas: [Value] = []
        var compiled: [JSONSchema] = []
        var bases: [[Value]] = []
        func add(_ schema: Value, _ name: String, _ documents: [Value]) throws {
            schemas.append(schema)
            compiled.append(try JSONSchema(value: schema, name: name))
            bases.append(documents)
        }
        let v1 = try RegistryFixture.records("samples/v1/recipes-v1.json")
        let v2 = try RegistryFixture.records("samples/v2/recipes-v2.json")
        let logs = try RegistryFixture.records("samples/v1/brew-logs-v1.json")
        try add(try registry.jsonSchemaValue(type: "recipe", version: 1), "recipe v1", [v1[0], v1[1]])
        try add(try registry.jsonSchemaValue(type: "recipe", version: 2), "recipe v2", [v2[2], v2[9]])
        // The model writes the newest versions; the older ones get its records migrated down.
        let migrator = RegistryFixture.migrator
        func down(_ value: Value, _ type: String, from: Int, to: Int) throws -> Value {
            try migrator.migrate(
                value, plan: try migrator.plan(type: type, from: from, to: to),
                environment: migrator.environment(images: RegistryFixture.MemoryImages(), type: type))
        }
        try add(
            try registry.jsonSchemaValue(type: "recipe", version: 3), "recipe v3",
            [try down(Recipe.make().value, "recipe", from: 4, to: 3)])
        try add(
            try registry.jsonSchemaValue(type: "recipe", version: 4), "recipe v4",
            [Recipe.make().value, Recipe.makeFull().value])
        try add(try registry.jsonSchemaValue(type: "brewLog", version: 1), "brewLog v1", [logs[0]])
        try add(
            try registry.jsonSchemaValue(type: "brewLog", version: 2), "brewLog v2",
            [try down(BrewLog.make().value, "brewLog", from: 3, to: 2)])
        try add(try registry.jsonSchemaValue(type: "brewLog", version: 3), "brewLog v3", [BrewLog.makeFull().value])
        try add(
            try registry.jsonSchemaValue(type: "brewRecipe", version: 1), "brewRecipe v1",
            [try down(BrewRecipe.v60Starter().value, "brewRecipe", from: 2, to: 1)])
        try add(
            try registry.jsonSchemaValue(type: "brewRecipe", version: 2), "brewRecipe v2",
            [BrewRecipe.makeFull().value])
        try add(
            try RegistryFixture.json(Self.keywordSchema), "keywords",
            try Self.keywordDocuments.map(RegistryFixture.json))

        let directory = try TemporaryDirectory()
        var schemaText: [UInt8] = []
        try JSONWriter.append(.array(schemas), to: &schemaText)
        try Data(schemaText).write(to: URL(fileURLWithPath: directory.path("schemas.json")))
        var lines: [UInt8] = []
        var cases: [(schema: Int, document: Value)] = []
        for (index, documents) in bases.enumerated() {
            for document in documents {
                for mutated in Self.mutations(of: document) {
                    cases.append((index, mutated))
                    try JSONWriter.append(["s": .int(Int64(index)), "d": mutated], to: &lines)
                    lines.append(0x0A)
                }
            }
        }
        try Data(lines).write(to: URL(fileURLWithPath: directory.path("docs.ndjson")))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            "python3", CLI.packageRoot.appendingPathComponent("scripts/jsonschema-oracle.py").path,
            directory.path("schemas.json"), directory.path("docs.ndjson"),
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "oracle failed: \(errorText)")
        let outputLines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        try #require(outputLines.count == 2)
        let checked = Set(outputLines[0].split(separator: ",").map(String.init))
        #expect(
            checked.isSuperset(of: ["date-time", "uuid", "uri", "date"]),
            "python checks only \(checked): install rfc3339-validator and rfc3986-validator")
        let verdicts = Array(outputLines[1])
        try #require(verdicts.count == cases.count)
        var disagreements: [String] = []
        var invalid = 0
        for (i, testCase) in cases.enumerated() {
            let expected = verdicts[i] == "1"
            if !expected { invalid += 1 }
            let schema = compiled[testCase.schema]
            let fast = schema.isValid(testCase.document)
            let detailed = schema.validate(testCase.document).isEmpty
            if fast != expected || detailed != expected {
                disagreements.append(
                    "\(schema.name): python says \(expected ? "valid" : "invalid"), larder \(fast)/\(detailed): \(testCase.document.compactText(limit: 400))"
                )
            }
        }
        print("oracle: \(cases.count) documents (\(invalid) invalid per python), \(disagreements.count) disagreements")
        #expect(invalid > cases.count / 3 && invalid < cases.count, "the mutations should give both verdicts")
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5).joined(separator: "\n"))")
    }
}
