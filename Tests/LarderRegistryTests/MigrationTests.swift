import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderRegistry

/// A small registry written in a test folder, to exercise each kind of step on its own.
enum TestRegistry {
    static let stepsV1toV2 = #"""
        [
          {"id": "t-rename", "rename": {"field": "name", "to": "title"}},
          {"id": "t-default", "default": {"field": "updatedAt", "from": "createdAt"}},
          {"id": "t-default-value", "default": {"field": "flag", "value": false}},
          {"id": "t-map", "map": {"field": "level", "ignoreCase": true, "values": {"Easy": "easy", "Hard": "hard"}, "inverse": {"easy": "Easy", "hard": "Hard"}}},
          {"id": "t-convert", "convert": {"field": "count", "converter": "to-integer", "inverse": "to-string"}},
          {"id": "t-wrap", "convert": {"field": "tag", "to": "tags", "converter": "wrap-list", "inverse": "single-element"}},
          {"id": "t-nest", "nest": {"fields": ["prep", "cook"], "into": "times"}},
          {"id": "t-each", "nest": {"field": "steps", "eachInto": "text"}},
          {"id": "t-drop", "drop": {"field": "legacy", "inverse": {"value": "restored"}}},
          {"id": "t-stage", "stage": "ingredient-lines", "inverse": "ingredient-originals"}
        ]
        """#

    static func write(
        in directory: TemporaryDirectory, stepsV2toV3: String = #"[{"id": "t-lossy", "drop": {"field": "secret"}}]"#
    ) throws -> SchemaRegistry {
        let schemas = directory.path("Schemas")
        try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        let open = #"{"type": "object"}"#
        try directory.write(
            "Schemas/v1.schema.json",
            #"{"type": "object", "required": ["id", "name"], "properties": {"name": {"type": "string"}, "count": {"type": "string"}}}"#
        )
        try directory.write(
            "Schemas/v2.schema.json",
            #"{"type": "object", "required": ["id", "title", "updatedAt"], "properties": {"name": false, "count": {"type": "integer"}, "tags": {"type": "array"}}}"#
        )
        try directory.write("Schemas/v3.schema.json", open)
        try directory.write(
            "Schemas/registry.json",
            #"""
            {"format": 1, "types": {"thing": {"compatibility": "NONE",
              "versions": [{"version": 1, "jsonSchema": "v1.schema.json"}, {"version": 2, "jsonSchema": "v2.schema.json"}, {"version": 3, "jsonSchema": "v3.schema.json"}],
              "migrations": [{"from": 1, "to": 2, "steps": \#(stepsV1toV2)}, {"from": 2, "to": 3, "steps": \#(stepsV2toV3)}]}}}
            """#)
        return try SchemaRegistry.load(try SchemaSource.directory(schemas))
    }

    static let v1Record: Value = [
        "id": "t1", "name": "Soup", "createdAt": "2024-01-01T00:00:00Z", "level": "EASY", "count": "12", "tag": "warm",
        "prep": 5, "cook": 20,
        "steps": ["Chop", "Simmer"], "legacy": "restored", "ingredients": ["1 onion", "2 carrots"],
    ]
}

@Suite struct MigrationTests {
    private func run(
        _ migrator: Migrator, _ record: Value, from: Int, to: Int,
        images: any ImageStore = RegistryFixture.MemoryImages()
    ) throws -> Value {
        let plan = try migrator.plan(type: "thing", from: from, to: to)
        return try migrator.migrate(
            record, plan: plan, environment: migrator.environment(images: images, type: "thing"), validate: true)
    }

    @Test("every kind of step runs up, and its inverse brings the record back")
    func eachKindUpAndDown() throws {
        let directory = try TemporaryDirectory()
        let migrator = Migrator(registry: try TestRegistry.write(in: directory))
        let up = try run(migrator, TestRegistry.v1Record, from: 1, to: 2)
        #expect(up["title"] == "Soup" && up["name"] == nil)  // rename
        #expect(up["updatedAt"] == "2024-01-01T00:00:00Z")  // default from a field
        #expect(up["flag"] == false)  // default value
        #expect(up["level"] == "easy")  // map, ignoring case
        #expect(up["count"] == 12)  // type change with a converter
        #expect(up["tags"] == ["warm"] && up["tag"] == nil)  // converter into another field
        #expect(up["times"] == ["prep": 5, "cook": 20] && up["prep"] == nil)  // nest fields
        #expect(up["steps"] == [["text": "Chop"], ["text": "Simmer"]])  // nest each element
        #expect(up["legacy"] == nil)  // drop
        #expect(up["ingredients"]?.arrayValue?.first?["original"] == "1 onion")  // custom stage
        let down = try run(migrator, up, from: 2, to: 1)
        #expect(down["name"] == "Soup" && down["title"] == nil)
        #expect(down["updatedAt"] == nil && down["flag"] == nil)
        #expect(down["level"] == "Easy")
        #expect(down["count"] == "12")
        #expect(down["tag"] == "warm" && down["tags"] == nil)
        #expect(down["prep"] == 5 && down["times"] == nil)
        #expect(down["steps"] == ["Chop", "Simmer"])
        #expect(down["legacy"] == "restored")
        #expect(down["ingredients"] == ["1 onion", "2 carrots"])
    }

    @Test(
        "a number of minutes or seconds past Int64's range fails its converter instead of trapping",
        arguments: [
            ("minutes-to-seconds", Value.double(1e300)), ("seconds-to-minutes", .double(-1e300)),
            ("minutes-to-seconds", .string("inf")), ("seconds-to-minutes", .string("nan")),
            ("minutes-to-seconds", .int(.max)),
        ])
    func timeConverterPastRange(converter id: String, value: Value) throws {
        let converter = try #require(Converter.builtIn[id])
        #expect(throws: ConversionFailure.self) { try converter.convert(value) }
    }

    @Test("going down through a step without an inverse is refused, naming the step")
    func lossyDownMigration() throws {
        let directory = try TemporaryDirectory()
        let migrator = Migrator(registry: try TestRegistry.write(in: directory))
        #expect(throws: Never.self) { try migrator.plan(type: "thing", from: 1, to: 3) }
        #expect {
            try migrator.plan(type: "thing", from: 3, to: 1)
        } throws: { error in
            "\(error)".contains(
                "step t-lossy (drop secret, v2 → v3) is lossy: drop secret declares no value to restore")
        }
        let brewLog = RegistryFixture.migrator
        #expect {
            try brewLog.plan(type: "brewLog", from: 2, to: 1)
        } throws: { error in
            "\(error)".contains("step brewLog-1-2-taste-tags")
        }
    }

    @Test("path finding goes through every transition, up or down, fewest transitions first")
    func pathFinding() throws {
        let migrator = RegistryFixture.migrator
        let up = try migrator.plan(type: "recipe", from: 1, to: 3)
        #expect(up.versions == [1, 2, 3])
        #expect(up.steps.first?.step.id == "recipe-1-2-owner" && up.steps.last?.step.id == "recipe-2-3-cloud")
        let down = try migrator.plan(type: "recipe", from: 3, to: 1)
        #expect(down.versions == [3, 2, 1])
        #expect(down.steps.first?.step.id == "recipe-2-3-cloud" && down.steps.allSatisfy { $0.direction == .down })
        #expect(try migrator.plan(type: "recipe", from: 2, to: 2).isEmpty)
        #expect(throws: LarderError.self) { try migrator.plan(type: "recipe", from: 1, to: 9) }
    }

    @Test("a value the map does not know rejects the record, naming step and field")
    func unmappedValue() throws {
        let directory = try TemporaryDirectory()
        let migrator = Migrator(registry: try TestRegistry.write(in: directory))
        var record = TestRegistry.v1Record
        if case .object(var fields) = record {
            fields["level"] = "Medium"
            record = .object(fields)
        }
        #expect {
            try run(migrator, record, from: 1, to: 2)
        } throws: { error in
            guard let error = error as? LarderError else { return false }
            return error.message.contains("migration step t-map") && error.location?.fieldPath == "level"
        }
    }

    @Test("the migrated result is validated against the target schema, not assumed")
    func resultIsValidated() throws {
        let directory = try TemporaryDirectory()
        let migrator = Migrator(registry: try TestRegistry.write(in: directory))
        var record = TestRegistry.v1Record
        if case .object(var fields) = record {
            fields.removeValue(forKey: "createdAt")  // so updatedAt gets no default, and v2 requires it
            record = .object(fields)
        }
        #expect {
            try run(migrator, record, from: 1, to: 2)
        } throws: { error in
            "\(error)".contains("required property \"updatedAt\" is missing (thing v2 at /updatedAt)")
                || "\(error)".contains("updatedAt")
        }
    }

    @Test("the real samples migrate v1 → v3 and back down to v1, every record valid")
    func samplesUpAndDown() throws {
        let migrator = RegistryFixture.migrator
        let images = RegistryFixture.MemoryImages()
        let up = try migrator.plan(type: "recipe", from: 1, to: 3)
        let down = try migrator.plan(type: "recipe", from: 3, to: 1)
        let originals = try RegistryFixture.records("samples/v1/recipes-v1.json")
        for original in originals {
            let environment = migrator.environment(images: images, type: "recipe")
            let v3 = try migrator.migrate(original, plan: up, environment: environment)
            #expect(try Recipe(value: v3).validate().isEmpty)
            let back = try migrator.migrate(v3, plan: down, environment: environment)
            // Everything comes back but the mapped difficulty's spelling and the sync status.
            #expect(back["title"] == original["title"] && back["authorID"] == original["authorID"])
            #expect(back["ingredients"] == original["ingredients"] && back["instructions"] == original["instructions"])
            #expect(back["imageData"] == original["imageData"])
        }
        #expect(images.files.count == originals.filter { $0["imageData"] != nil }.count)
        let imageRef = try migrator.migrate(
            originals[1], plan: up, environment: migrator.environment(images: images, type: "recipe"))["imageRef"]
        #expect(imageRef?.stringValue?.hasSuffix(".png") == true)
    }

    @Test("the dry run counts the records each step touches and keeps a sample per field")
    func dryRunReport() throws {
        let migration = FileMigration(
            migrator: RegistryFixture.migrator,
            inputs: [CLI.packageRoot.appendingPathComponent("samples/v1/recipes-v1.json").path], targetVersion: 3)
        let report = try migration.dryRun()
        let stats = try #require(report.plans.first)
        #expect(stats.records == 24 && stats.valid == 24)
        let owner = try #require(stats.plan.steps.firstIndex { $0.step.id == "recipe-1-2-owner" })
        #expect(stats.touched[owner] == 24)
        #expect(stats.samples[owner]?.map(\.text).contains("ownerID: (absent) → \"_4f1c2a9e8b7d\"") == true)
        let image = try #require(stats.plan.steps.firstIndex { $0.step.id == "recipe-1-2-image" })
        #expect(stats.touched[image] == 6)
        #expect(report.renderPlan(title: "plan").contains("validation against recipe v3: 24 valid, 0 rejected"))
    }

    @Test("checksums ignore formatting, key order, line endings and the description")
    func checksumNormalization() throws {
        let a = try RegistryFixture.json(
            #"{"id": "s", "description": "one", "map": {"field": "f", "values": {"A": "a", "B": "b"}}}"#)
        let b = try RegistryFixture.json(
            "{\r\n  \"map\": {\"values\": {\"B\": \"b\", \"A\": \"a\"}, \"field\": \"f\"},\r\n  \"id\": \"s\", \"description\": \"two\"}"
        )
        let c = try RegistryFixture.json(#"{"id": "s", "map": {"field": "f", "values": {"A": "a", "B": "c"}}}"#)
        let parser = ManifestParser(file: "m")
        let migrator = RegistryFixture.migrator
        let (sa, sb, sc) = (try parser.step(a, "/a"), try parser.step(b, "/b"), try parser.step(c, "/c"))
        #expect(migrator.checksum(of: sa) == migrator.checksum(of: sb))
        #expect(migrator.checksum(of: sa) != migrator.checksum(of: sc))
    }

    @Test(
        "durations in step text become timers",
        arguments: [
            ("Bake for 25 minutes.", 1500), ("Simmer 1 1/2 hours", 5400), ("Rest 10-15 min", 900),
            ("Cook 1 hr 20 mins", 4800), ("Stir well", nil),
            ("Microwave 30 seconds", 30), ("Roast at 200°C for 35 minutes", 2100),
        ])
    func durations(text: String, seconds: Int?) {
        #expect(DurationText.seconds(in: text) == seconds)
    }
}
