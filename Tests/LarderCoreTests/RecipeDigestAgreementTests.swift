import Foundation
import LarderCore
import Testing

/// ``RecipeDigest/fast(_:)`` is the structure check of every conversion: whatever it accepts, the
/// model must accept too, or a bad record would be written instead of rejected.
@Suite struct RecipeDigestAgreementTests {
    /// A recipe with every plainly typed member set.
    static let base: Value = [
        "id": "r-1", "title": "Soup", "recordName": "recipe-r-1", "createdAt": "2024-01-01T00:00:00Z",
        "updatedAt": "2024-02-01T00:00:00.250Z", "ownerID": "_owner", "imageRef": "images/soup.png",
        "cuisine": "French", "changeTag": "t1", "sourceURL": "https://example.com/soup", "difficulty": "easy",
        "prepTime": 10, "cookTime": 20.0, "servings": 4, "isPublic": false, "isFavorited": true,
        "isCloudEnabled": true, "isSaved": true, "isCreated": false, "isDeleted": false,
        "dietaryNotes": ["vegan"], "tags": ["quick"], "description": "Warm.", "sourceName": "Example",
        "language": "fr", "videoURL": "https://example.com/v", "totalTime": 30, "categories": ["Soup"],
        "courses": ["Main"], "cuisines": ["French"], "tools": ["Pot"], "reviews": ["Good"], "notes": [],
        "images": [], "extras": [:],
        "ingredients": [
            ["quantity": 2, "unit": "cup", "item": "water", "original": "2 cups water", "group": "Base"],
            ["item": "salt", "quantityMax": 1.5, "note": "to taste"],
        ],
        "instructions": [["text": "Boil.", "timerSeconds": 60, "name": "Cook", "images": []], ["text": "Serve."]],
    ]

    /// Values a mutation puts in a member's place.
    static let replacements: [Value?] = [
        nil, .null, "", "x", "yesterday", "2024-01-01T00:00:00Z", "easy", "extreme", 0, 2, 2.5, -1, 1e20,
        .int(Int64.max), true, false, [], ["a"], [1], [.null], [:], ["a": 1], [["original": "x"]], [["text": "t"]],
        [["quantity": "2"]], [["timerSeconds": 30]], [["text": "t", "images": [["url": 1]]]], [["title": 1]],
    ]

    static func mutate(_ record: Value, _ random: inout SeededGenerator) -> Value {
        guard case .object(var fields) = record else { return record }
        let keys = fields.keys + ["zzz", "recordName", "deletedAt", "nutrition", "yield", "author", "rating"]
        let key = keys[Int(random.next() % UInt64(keys.count))]
        let replacement = replacements[Int(random.next() % UInt64(replacements.count))]
        if random.next() % 3 == 0, let list = fields[key]?.arrayValue, !list.isEmpty,
            case .object(var member) = list[Int(random.next() % UInt64(list.count))]
        {
            // A member of a nested object: an ingredient's or a step's.
            let memberKeys = member.keys + ["text", "original", "item", "quantity", "timerSeconds", "images"]
            member[memberKeys[Int(random.next() % UInt64(memberKeys.count))]] = replacement
            var items = list
            items[0] = .object(member)
            fields[key] = .array(items)
        } else {
            fields[key] = replacement
        }
        return .object(fields)
    }

    @Test("every member of the model's shapes is checked on the fast path, not left to the model")
    func knowsEveryModelMember() throws {
        func members(_ shape: Shape) -> [String: Shape] {
            guard case .object(let members) = shape else { return [:] }
            return members
        }
        let recipe = Set(members(Recipe.shape).keys)
        #expect(
            recipe.subtracting(RecipeDigest.knownMembers).isEmpty, "\(recipe.subtracting(RecipeDigest.knownMembers))")
        // A plain value of each ingredient and step member keeps a record on the fast path.
        func plain(_ shape: Shape) -> Value {
            switch shape {
            case .string: "x"
            case .integer, .number: 1
            case .boolean: true
            case .list: []
            case .object: [:]
            case .any: .null
            }
        }
        let base: Value = ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z"]
        for (key, shape) in members(Ingredient.shape) {
            var record = try #require(base.objectValue)
            record["ingredients"] = [["original": "1 egg", key: plain(shape)]]
            #expect(RecipeDigest.fast(.object(record)) != nil, "ingredient member \(key) is left to the model")
        }
        for (key, shape) in members(InstructionStep.shape) {
            var record = try #require(base.objectValue)
            record["instructions"] = [["text": "Stir.", key: plain(shape)]]
            #expect(RecipeDigest.fast(.object(record)) != nil, "step member \(key) is left to the model")
        }
    }

    @Test("every record the fast scan accepts, the model accepts: 20,000 seeded mutations of a full recipe")
    func fastAcceptanceImpliesModelAcceptance() throws {
        var random = SeededGenerator(seed: 20_261_127)
        var accepted = 0
        var record = Self.base
        for round in 0..<20_000 {
            // Mostly one or two mutations away from a valid recipe, so both answers occur often.
            if round % 3 == 0 { record = Self.base }
            record = Self.mutate(record, &random)
            guard RecipeDigest.fast(record) != nil else { continue }
            accepted += 1
            #expect(throws: Never.self, "fast accepted \(record)") { _ = try Recipe(value: record) }
        }
        #expect(RecipeDigest.fast(Self.base) != nil)
        #expect(accepted > 1_000, "only \(accepted) mutated records were accepted: the test would prove little")
    }
}
