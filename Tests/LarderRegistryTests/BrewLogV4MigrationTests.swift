import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderRegistry

/// brewLog v4 (issue 29 part 3): rating, dose and target yield optional, a note of any length; the
/// `relax` step that takes v3 there and refuses, going back, what v3 cannot hold.
@Suite struct BrewLogV4MigrationTests {
    private let migrator = RegistryFixture.migrator

    private func migrate(_ record: Value, from: Int, to: Int) throws -> Value {
        let plan = try migrator.plan(type: "brewLog", from: from, to: to)
        return try migrator.migrate(
            record, plan: plan,
            environment: migrator.environment(images: RegistryFixture.MemoryImages(), type: "brewLog"))
    }

    private func valid(_ record: Value, version: Int) throws -> Bool {
        try RegistryFixture.registry.jsonSchema(type: "brewLog", version: version).isValid(record)
    }

    private func with(_ record: Value, _ key: String, _ value: Value?) -> Value {
        guard case .object(var fields) = record else { return record }
        if let value { fields[key] = value } else { fields.removeValue(forKey: key) }
        return .object(fields)
    }

    private var v3Log: Value {
        [
            "id": "log-1", "recipeNameAtBrew": "V60", "doseGrams": 15, "targetYieldGrams": 250, "rating": 4,
            "note": "Great balance", "createdAt": "2026-01-02T03:04:05Z", "tasteTags": [], "photos": [],
        ]
    }

    @Test("v3 → v4 changes nothing, and a full log comes back down unchanged")
    func upAndBack() throws {
        let v4 = try migrate(v3Log, from: 3, to: 4)
        #expect(v4 == v3Log)
        #expect(try migrate(v4, from: 4, to: 3) == v3Log)
        #expect(try migrator.plan(type: "brewLog", from: 1, to: 4).versions == [1, 2, 3, 4])
    }

    @Test(
        "going down to v3 refuses what v3 cannot hold, naming the field, and never cuts a note",
        arguments: [
            ("rating", Value?.none, "rating is absent, and v3 requires it"),
            ("rating", Value.null, "rating is absent, and v3 requires it"),
            ("doseGrams", Value?.none, "doseGrams is absent, and v3 requires it"),
            ("targetYieldGrams", Value?.none, "targetYieldGrams is absent, and v3 requires it"),
            (
                "note", Value.string(String(repeating: "x", count: 281)),
                "note holds 281 characters, and v3 allows at most 280"
            ),
        ])
    func downRefused(field: String, value: Value?, message: String) throws {
        let v4 = with(v3Log, field, value)
        #expect(try valid(v4, version: 4) && !valid(v4, version: 3))
        let error = try #require(throws: LarderError.self) { try migrate(v4, from: 4, to: 3) }
        #expect(error.location?.fieldPath?.description == field)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.message.contains("brewLog-3-4-"))
    }

    @Test("a tombstone goes down whatever it lacks: it carries its identity only")
    func tombstoneGoesDown() throws {
        let tombstone: Value = ["id": "log-9", "isDeleted": true, "deletedAt": "2026-01-02T03:04:05Z"]
        #expect(try migrate(tombstone, from: 4, to: 3) == tombstone)
    }

    @Test("v4's schema takes an unrated, unweighed log with a long note; v3's does not")
    func schemas() throws {
        let log: Value = [
            "id": "log-2", "recipeNameAtBrew": "Aeropress", "createdAt": "2026-01-02T03:04:05Z",
            "note": .string(String(repeating: "y", count: 600)),
        ]
        #expect(try valid(log, version: 4) && !valid(log, version: 3))
        let model = try BrewLog(value: log)
        #expect(model.rating == nil && model.doseGrams == nil && model.targetYieldGrams == nil)
        #expect(model.validate().isEmpty)
        #expect(model.value["rating"] == nil && model.value["doseGrams"] == nil && model.value["note"] == log["note"])
        let rated = with(log, "rating", 0)
        #expect(try !valid(rated, version: 4))
        #expect(try BrewLog(value: rated).validate().map(\.location.fieldPath) == ["rating"])
    }

    @Test("the relax step: its summary both ways, and the manifest refuses one that says nothing")
    func relaxStepKind() throws {
        let parser = ManifestParser(file: "m")
        let step = try parser.step(
            try RegistryFixture.json(#"{"id": "r", "relax": {"field": "note", "maxLength": 280, "required": true}}"#),
            "/s")
        #expect(step.summary == "relax note (was required, at most 280 characters)" && step.lossyReason == nil)
        let down = PlannedStep(
            step: step, direction: .down, fromVersion: 4, toVersion: 3, endsTransition: true, position: 1,
            transitionLength: 1)
        #expect(down.summary == "refuse a record breaking v3's rule for note (required, at most 280 characters)")
        let error = try #require(throws: LarderError.self) {
            try parser.step(try RegistryFixture.json(#"{"id": "r", "relax": {"field": "note"}}"#), "/s")
        }
        #expect(error.message.contains("relax needs required: true or maxLength: N"))
        #expect(throws: LarderError.self) {
            try parser.step(
                try RegistryFixture.json(#"{"id": "r", "relax": {"field": "note", "maxLength": -1}}"#), "/s")
        }
    }
}
