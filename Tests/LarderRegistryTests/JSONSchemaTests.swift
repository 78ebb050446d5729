import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderRegistry

@Suite struct JSONSchemaTests {
    private func schema(_ text: String) throws -> JSONSchema {
        try JSONSchema(value: try RegistryFixture.json(text), name: "test")
    }

    @Test("violations name the JSON pointer of the field")
    func violationPaths() throws {
        let recipe = try RegistryFixture.registry.jsonSchema(type: "recipe", version: 4)
        var value = Recipe.make().value
        guard case .object(var fields) = value else { return }
        fields["ingredients"] = [["item": "flour", "quantity": -1]]
        fields["servings"] = "four"
        value = .object(fields)
        let violations = recipe.validate(value)
        #expect(violations.map(\.description).contains("/ingredients/0/quantity: -1 is less than the minimum 0"))
        #expect(violations.contains { $0.path.jsonPointer == "/servings" && $0.keyword == "type" })
        #expect(!recipe.isValid(value))
    }

    @Test("a missing field is reported through the closest anyOf alternative")
    func closestAlternative() throws {
        let recipe = try RegistryFixture.registry.jsonSchema(type: "recipe", version: 4)
        guard case .object(var fields) = Recipe.make().value else { return }
        fields.removeValue(forKey: "title")
        let violations = recipe.validate(.object(fields))
        #expect(violations.first?.message.hasPrefix("required property \"title\" is missing") == true, "\(violations)")
        #expect(violations.first?.path.jsonPointer == "/title")
    }

    @Test("a tombstone needs only its identity")
    func tombstoneValidates() throws {
        let recipe = try RegistryFixture.registry.jsonSchema(type: "recipe", version: 3)
        #expect(recipe.isValid(["id": "r-9", "isDeleted": true, "deletedAt": "2024-05-01T09:30:00Z"]))
        #expect(!recipe.isValid(["id": "r-9", "isDeleted": false, "deletedAt": "2024-05-01T09:30:00Z"]))
    }

    @Test(
        "keywords",
        arguments: [
            (#"{"type": "integer"}"#, "4.0", true), (#"{"type": "integer"}"#, "4.5", false),
            (#"{"type": "integer"}"#, "true", false),
            (#"{"type": ["string", "null"]}"#, "null", true), (#"{"enum": [1, "a"]}"#, "1.0", true),
            (#"{"const": {"a": [1]}}"#, #"{"a": [1.0]}"#, true),
            (#"{"minLength": 2}"#, #""é""#, false), (#"{"maxLength": 2}"#, #""éé""#, true),
            (#"{"maxLength": 1}"#, #""😀""#, true),
            (#"{"pattern": "^a+$"}"#, #""aaa""#, true), (#"{"pattern": "b"}"#, #""abc""#, true),
            (#"{"pattern": "^b"}"#, #""abc""#, false),
            (#"{"exclusiveMinimum": 0}"#, "0", false), (#"{"multipleOf": 0.5}"#, "2.5", true),
            (#"{"multipleOf": 3}"#, "10", false),
            (#"{"format": "date-time"}"#, #""2024-02-29T10:00:00.5+01:00""#, true),
            (#"{"format": "date-time"}"#, #""2023-02-29T10:00:00Z""#, false),
            (#"{"format": "date-time"}"#, #""2024-01-01 10:00:00Z""#, false), (#"{"format": "date-time"}"#, "5", true),
            (#"{"format": "uuid"}"#, #""123e4567-e89b-12d3-a456-426614174000""#, true),
            (#"{"format": "uuid"}"#, #""123e4567e89b12d3a456426614174000""#, false),
            (#"{"format": "uri"}"#, #""https://example.com/a?b=c#d""#, true),
            (#"{"format": "uri"}"#, #""/relative/path""#, false),
            (#"{"format": "uri"}"#, #""http://exa mple.com""#, false),
            (#"{"allOf": [{"minimum": 1}, {"maximum": 3}]}"#, "4", false),
            (#"{"anyOf": [{"type": "string"}, {"minimum": 3}]}"#, "2", false),
            (#"{"oneOf": [{"minimum": 1}, {"minimum": 2}]}"#, "3", false),
            (#"{"oneOf": [{"minimum": 1}, {"minimum": 2}]}"#, "1", true),
            (#"{"not": {"type": "string"}}"#, "1", true), (#"{"uniqueItems": true}"#, "[1, 1.0]", false),
            (#"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#, #"["a", 1, 2]"#, true),
            (#"{"prefixItems": [{"type": "string"}], "items": false}"#, #"["a", 1]"#, false),
            (
                #"{"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}"#,
                #"{"a": "x", "b": "y"}"#, false
            ),
            (#"{"minProperties": 2}"#, #"{"a": 1}"#, false),
            (
                ##"{"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}, "additionalProperties": false}}, "$ref": "#/$defs/node"}"##,
                ##"{"next": {"next": {"nope": 1}}}"##, false
            ),
            (##"{"$ref": "#/$defs/a", "$defs": {"a": {"type": "array", "items": {"$ref": "#"}}}}"##, "[[[]]]", true),
        ])
    func keywords(schema text: String, instance: String, valid: Bool) throws {
        let compiled = try schema(text)
        let value = try RegistryFixture.json(#"{"v": \#(instance)}"#)["v"] ?? .null
        #expect(compiled.isValid(value) == valid, "\(text) with \(instance)")
        #expect(compiled.validate(value).isEmpty == valid, "\(compiled.validate(value))")
    }

    @Test("a malformed schema is refused naming the keyword")
    func malformedSchema() throws {
        #expect { try schema(#"{"properties": {"a": {"type": "strng"}}}"#) } throws: { error in
            "\(error)".contains("/properties/a/type: unknown type \"strng\"")
        }
        #expect { try schema(##"{"$ref": "#/$defs/missing"}"##) } throws: { error in
            "\(error)".contains("points at nothing")
        }
        #expect(throws: LarderError.self) { try schema(#"{"pattern": "([a-"}"#) }
    }
}
