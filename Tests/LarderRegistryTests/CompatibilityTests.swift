import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderRegistry

@Suite struct CompatibilityTests {
    /// A two-version registry whose v2 differs from v1 by one change.
    private func registry(v1: String, v2: String, in directory: TemporaryDirectory) throws -> SchemaRegistry {
        try FileManager.default.createDirectory(atPath: directory.path("S"), withIntermediateDirectories: true)
        try directory.write("S/v1.json", v1)
        try directory.write("S/v2.json", v2)
        try directory.write(
            "S/registry.json",
            #"{"format": 1, "types": {"t": {"versions": [{"version": 1, "jsonSchema": "v1.json"}, {"version": 2, "jsonSchema": "v2.json"}], "migrations": [{"from": 1, "to": 2, "steps": []}]}}}"#
        )
        return try SchemaRegistry.load(try SchemaSource.directory(directory.path("S")))
    }

    static let base =
        #"{"type": "object", "additionalProperties": false, "required": ["id"], "properties": {"id": {"type": "string"}, "note": {"type": "string"}}}"#

    /// Changes: (change, v2 schema, expected outcome per mode: BACKWARD, FORWARD, FULL, NONE, CLOUDKIT_PRODUCTION).
    static let matrix: [(String, String, [CompatibilityVerdict.Outcome])] = [
        (
            "optional field added",
            #"{"type": "object", "additionalProperties": false, "required": ["id"], "properties": {"id": {"type": "string"}, "note": {"type": "string"}, "tag": {"type": "string"}}}"#,
            [.compatible, .incompatible, .incompatible, .compatible, .compatible]
        ),
        (
            "required field added without a default",
            #"{"type": "object", "additionalProperties": false, "required": ["id", "tag"], "properties": {"id": {"type": "string"}, "note": {"type": "string"}, "tag": {"type": "string"}}}"#,
            [.incompatible, .incompatible, .incompatible, .compatible, .compatible]
        ),
        (
            "required field added with a default",
            #"{"type": "object", "additionalProperties": false, "required": ["id", "tag"], "properties": {"id": {"type": "string"}, "note": {"type": "string"}, "tag": {"type": "string", "default": "x"}}}"#,
            [.compatible, .incompatible, .incompatible, .compatible, .compatible]
        ),
        (
            "optional field removed",
            #"{"type": "object", "additionalProperties": false, "required": ["id"], "properties": {"id": {"type": "string"}}}"#,
            [.incompatible, .compatible, .incompatible, .compatible, .incompatible]
        ),
        (
            "optional field removed from an open schema",
            #"{"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}"#,
            [.compatible, .unknown, .unknown, .compatible, .incompatible]
        ),
        (
            "required field removed",
            #"{"type": "object", "additionalProperties": false, "properties": {"note": {"type": "string"}}}"#,
            [.incompatible, .incompatible, .incompatible, .compatible, .incompatible]
        ),
        (
            "field retyped",
            #"{"type": "object", "additionalProperties": false, "required": ["id"], "properties": {"id": {"type": "string"}, "note": {"type": "integer"}}}"#,
            [.incompatible, .incompatible, .incompatible, .compatible, .incompatible]
        ),
        (
            "field made nullable",
            #"{"type": "object", "additionalProperties": false, "required": ["id"], "properties": {"id": {"type": "string"}, "note": {"type": ["string", "null"]}}}"#,
            [.compatible, .incompatible, .incompatible, .compatible, .compatible]
        ),
        (
            "bound added",
            #"{"type": "object", "additionalProperties": false, "required": ["id"], "properties": {"id": {"type": "string"}, "note": {"type": "string", "maxLength": 10}}}"#,
            [.incompatible, .compatible, .incompatible, .compatible, .compatible]
        ),
    ]

    @Test(
        "each mode over a matrix of field additions and removals, with and without defaults",
        arguments: 0..<matrix.count)
    func modeMatrix(index: Int) throws {
        let (change, v2, expected) = Self.matrix[index]
        let directory = try TemporaryDirectory()
        let checker = CompatibilityChecker(registry: try registry(v1: Self.base, v2: v2, in: directory))
        let modes: [CompatibilityMode] = [.backward, .forward, .full, .none, .cloudKitProduction]
        for (mode, outcome) in zip(modes, expected) {
            let verdict = try #require(try checker.check(type: "t", mode: mode).first)
            #expect(
                verdict.outcome == outcome, "\(change) under \(mode.rawValue): \(verdict.outcome) \(verdict.reasons)")
            if outcome == .incompatible {
                #expect(!verdict.reasons.isEmpty && verdict.reasons.allSatisfy { $0.path.hasPrefix("/") })
            }
        }
    }

    @Test("transitive modes compare each version with every earlier one")
    func transitivePairs() throws {
        let checker = CompatibilityChecker(registry: RegistryFixture.registry)
        #expect(
            try checker.check(type: "recipe", mode: .backward).map { "\($0.older)>\($0.newer)" } == [
                "1>2", "2>3", "3>4",
            ])
        #expect(
            try checker.check(type: "recipe", mode: .backwardTransitive).map { "\($0.older)>\($0.newer)" } == [
                "1>2", "1>3", "2>3", "1>4", "2>4", "3>4",
            ])
        #expect(try checker.check(type: "recipe", mode: .fullTransitive).count == 6)
    }

    @Test("the recipe history breaks BACKWARD and CloudKit's rule, and says where")
    func recipeHistory() throws {
        let checker = CompatibilityChecker(registry: RegistryFixture.registry)
        let backward = try checker.check(type: "recipe", mode: .backward)
        // v1 → v2 → v3 breaks; v3 → v4 only adds optional fields.
        #expect(backward.filter { $0.newer <= 3 }.allSatisfy { $0.outcome == .incompatible })
        #expect(backward.last.map { $0.newer == 4 && $0.outcome == .compatible } == true)
        #expect(backward[0].reasons.contains { $0.path == "/authorID" && $0.reason.contains("renamed to /ownerID") })
        let cloudKit = try checker.check(type: "recipe", mode: .cloudKitProduction)
        #expect(cloudKit[0].reasons.contains { $0.path == "/syncStatus" })
        #expect(try checker.check(type: "recipe").allSatisfy { $0.outcome == .compatible })  // its own mode: NONE
        #expect(try checker.check(type: "brewRecipe").map(\.outcome) == [.compatible])  // v1 → v2 only adds
    }

    @Test("diff lists renames, retypes, additions and removals between any two versions")
    func diffRecipe() throws {
        let changes = try CompatibilityChecker(registry: RegistryFixture.registry).diff(type: "recipe", from: 1, to: 3)
        let text = changes.map { "\($0.path) \($0.description)" }
        #expect(text.contains { $0.hasPrefix("/authorID renamed to /ownerID") })
        #expect(text.contains { $0.hasPrefix("/syncStatus removed") })
        #expect(text.contains { $0.hasPrefix("/isSaved added") })
        #expect(text.contains { $0.hasPrefix("/ingredients/* type string → object") })
        let tasteTags = try CompatibilityChecker(registry: RegistryFixture.registry).diff(
            type: "brewLog", from: 1, to: 2)
        #expect(tasteTags.contains { $0.path == "/tasteTag" && $0.description.contains("renamed to /tasteTags") })
    }
}
