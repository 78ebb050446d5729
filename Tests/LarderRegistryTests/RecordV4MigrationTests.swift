import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderRegistry

/// recipe v4, brewLog v3 and brewRecipe v2: their migrations, the refused lossy downgrades, their
/// compatibility, and the XSDs against what the XML writer writes.
@Suite struct RecordV4MigrationTests {
    private let migrator = RegistryFixture.migrator

    private func migrate(_ record: Value, type: String, from: Int, to: Int) throws -> Value {
        let plan = try migrator.plan(type: type, from: from, to: to)
        return try migrator.migrate(
            record, plan: plan, environment: migrator.environment(images: RegistryFixture.MemoryImages(), type: type))
    }

    private func v3Recipes() throws -> [Value] {
        try RegistryFixture.records("samples/v1/recipes-v1.json").map {
            try migrate($0, type: "recipe", from: 1, to: 3)
        }
    }

    @Test("v3 samples migrate to v4: cuisine becomes cuisines, new lists are empty, every record valid")
    func samplesToV4() throws {
        for v3 in try v3Recipes() {
            let v4 = try migrate(v3, type: "recipe", from: 3, to: 4)
            let recipe = try Recipe(value: v4)
            #expect(recipe.validate().isEmpty)
            #expect(v4["cuisine"] == nil)
            #expect(v4["cuisines"] == (v3["cuisine"].flatMap { $0.isNull ? nil : .array([$0]) } ?? []))
            for key in ["notes", "categories", "courses", "tools", "images", "reviews"] { #expect(v4[key] == []) }
            #expect(v4["title"] == v3["title"] && v4["ingredients"] == v3["ingredients"])
            // Nothing was added that cannot go back: down to v3 gives the v3 record again (key order aside).
            #expect(try migrate(v4, type: "recipe", from: 4, to: 3).jsonEquals(v3))
        }
        let whole = try migrator.plan(type: "recipe", from: 1, to: 4)
        #expect(whole.versions == [1, 2, 3, 4])
    }

    @Test("going down to v3 is refused for a record whose v4 fields hold data, naming the field")
    func lossyDowngradeRefused() throws {
        var fields = try migrate(try v3Recipes()[0], type: "recipe", from: 3, to: 4).objectValue ?? Fields()
        fields["notes"] = [["text": "Rest the dough overnight."]]
        #expect(throws: Never.self) { try migrator.plan(type: "recipe", from: 4, to: 3) }
        let error = try #require(throws: LarderError.self) {
            try migrate(.object(fields), type: "recipe", from: 4, to: 3)
        }
        #expect(error.location?.fieldPath == "notes")
        #expect(error.message.contains("migration step recipe-3-4-notes"))
        #expect(error.message.contains("cannot go down to v3: notes holds"))
        #expect(error.message.contains("v3 has no field for it"))
        // Two cuisines cannot become one.
        fields["notes"] = []
        fields["cuisines"] = ["Thai", "Lao"]
        let cuisines = try #require(throws: LarderError.self) {
            try migrate(.object(fields), type: "recipe", from: 4, to: 3)
        }
        #expect(cuisines.location?.fieldPath == "cuisines" && cuisines.message.contains("only one fits"))
        // A step's section name is data too.
        let full = Recipe.makeFull().value
        let nested = try #require(throws: LarderError.self) { try migrate(full, type: "recipe", from: 4, to: 3) }
        #expect(nested.location?.fieldPath?.description.hasPrefix("instructions[") == true, "\(nested)")
    }

    @Test("brewLog v2 → v3 and brewRecipe v1 → v2 are additive, and come back down when the new fields are empty")
    func brewMigrations() throws {
        for v2 in try RegistryFixture.records("samples/v1/brew-logs-v1.json").map({
            try migrate($0, type: "brewLog", from: 1, to: 2)
        }) {
            let v3 = try migrate(v2, type: "brewLog", from: 2, to: 3)
            #expect(try BrewLog(value: v3).validate().isEmpty)
            #expect(v3["photos"] == [])
            #expect(try migrate(v3, type: "brewLog", from: 3, to: 2) == v2)
        }
        var v1 = BrewRecipe.v60Starter().value.objectValue ?? Fields()
        v1.removeValue(forKey: "photos")
        let v2 = try migrate(.object(v1), type: "brewRecipe", from: 1, to: 2)
        #expect(try BrewRecipe(value: v2) == BrewRecipe.v60Starter())
        #expect(try migrate(v2, type: "brewRecipe", from: 2, to: 1) == .object(v1))
        let full = BrewLog.makeFull().value
        let refused = try #require(throws: LarderError.self) { try migrate(full, type: "brewLog", from: 3, to: 2) }
        #expect(refused.message.contains("cannot go down to v2"))
    }

    @Test("v3 → v4 (and the brew types' new versions) are additive: CLOUDKIT_PRODUCTION accepts them")
    func cloudKitProductionCompatible() throws {
        let checker = CompatibilityChecker(registry: RegistryFixture.registry)
        for (type, from, to) in [("recipe", 3, 4), ("brewLog", 2, 3), ("brewRecipe", 1, 2)] {
            let changes = try checker.diff(type: type, from: from, to: to)
            #expect(!changes.isEmpty)
            #expect(changes.filter(\.breaksCloudKit).isEmpty, "\(type): \(changes.filter(\.breaksCloudKit))")
        }
        // brewRecipe's manifest mode is CLOUDKIT_PRODUCTION: its v2 passes the check.
        #expect(try checker.check(type: "brewRecipe").allSatisfy { $0.outcome == .compatible })
    }

    @Test("every generated XSD accepts what the XML writer writes, nulls and empty lists included")
    func xsdAcceptsWriterOutput() throws {
        let registry = RegistryFixture.registry
        let directory = try TemporaryDirectory()
        let v1Recipes = try RegistryFixture.records("samples/v1/recipes-v1.json")
        let v1Logs = try RegistryFixture.records("samples/v1/brew-logs-v1.json")
        var starter = BrewRecipe.v60Starter().value.objectValue ?? Fields()
        starter.removeValue(forKey: "photos")
        var sets: [(String, Int, [Value])] = []
        for version in 1...4 {
            sets.append(
                ("recipe", version, try v1Recipes.map { try migrate($0, type: "recipe", from: 1, to: version) }))
        }
        for version in 1...3 {
            sets.append(
                ("brewLog", version, try v1Logs.map { try migrate($0, type: "brewLog", from: 1, to: version) }))
        }
        sets.append(("brewRecipe", 1, [.object(starter)]))
        sets.append(("brewRecipe", 2, [BrewRecipe.makeFull().value, BrewRecipe.v60Starter().value]))
        sets.append(("recipe", 4, [Recipe.makeFull().value, Recipe.make().value]))
        sets.append(("brewLog", 3, [BrewLog.makeFull().value]))
        sets.append(("recipe", 4, try RegistryFixture.records("samples/recipes.json")))
        sets.append(("brewLog", 3, try RegistryFixture.records("samples/brew-logs.json")))
        sets.append(("brewRecipe", 2, try RegistryFixture.records("samples/brew-recipes.json")))
        var sawEmpty = false
        var sawNil = false
        for (index, (type, version, records)) in sets.enumerated() {
            // Nulls and empty lists where the schema allows them.
            var edge = records[0].objectValue ?? Fields()
            for key in ["tags", "dietaryNotes", "tasteTags", "notes", "photos", "cuisines", "reviews"]
            where edge[key] != nil {
                edge[key] = []
            }
            for key in ["ownerID", "note", "grindLabel", "waterTemperatureCelsius", "nutrition", "bean"]
            where edge[key] != nil {
                edge[key] = .null
            }
            let path = directory.path("set\(index).xml")
            let writer = try RecordIO.openWriter(
                path: path, format: .xml,
                options: WriterOptions(envelope: EnvelopeHeader(schema: type, version: version)))
            for record in records + [.object(edge)] { try writer.write(record) }
            try writer.finish()
            let xml = try String(contentsOfFile: path, encoding: .utf8)
            let result = try XSDValidator.validate(
                path: path, xsd: try registry.xsdText(type: type, version: version), xsdName: "\(type) v\(version)")
            #expect(result.isValid, "\(type) v\(version): \(result.errors.prefix(3))")
            #expect(result.records == records.count + 1)
            sawEmpty = sawEmpty || xml.contains("larder:empty=\"true\"")
            sawNil = sawNil || xml.contains("xsi:nil=\"true\"")
        }
        #expect(sawEmpty && sawNil, "the sets exercise both markers")
    }

    @Test("the step kind add declares a new field: filled going up, dropped going down only when empty")
    func addStepKind() throws {
        let step = try ManifestParser(file: "m").step(
            try RegistryFixture.json(#"{"id": "a", "add": {"field": "list[].extra", "value": []}}"#), "/s")
        #expect(step.summary == "add list[].extra = []" && step.lossyReason == nil)
        let planned = PlannedStep(
            step: step, direction: .down, fromVersion: 2, toVersion: 1, endsTransition: true, position: 1,
            transitionLength: 1)
        var record: Value = ["list": [["extra": []], ["extra": nil], [:]]]
        let environment = migrator.environment(images: RegistryFixture.MemoryImages(), type: "thing")
        #expect(try planned.apply(to: &record, environment: environment))
        #expect(record == ["list": [[:], [:], [:]]])
        var full: Value = ["list": [[:], ["extra": [1]]]]
        let error = try #require(throws: LarderError.self) { try planned.apply(to: &full, environment: environment) }
        #expect(error.location?.fieldPath == "list[1].extra")
    }
}
