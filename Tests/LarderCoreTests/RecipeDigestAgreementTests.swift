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
        "courses": ["Main"], "cuisines": ["French"], "tools": ["Pot"], "reviews": ["Good"],
        "notes": [["title": "Tip", "text": "Salt late."], ["text": "Keeps two days."]],
        "images": [["ref": "images/soup.png", "isPrimary": true], ["url": "https://example.com/s.jpg", "ref": nil]],
        "nutrition": ["calories": "320 kcal", "servingSize": "1 bowl", "sodiumContent": nil],
        "yield": ["quantity": 4, "unit": "bowls", "text": "4 bowls"],
        "author": ["name": "Ann", "url": "https://example.com/ann"],
        "rating": ["value": 4.5, "scale": 5, "count": 12.0],
        "extras": ["app": ["x": 1]],
        "ingredients": [
            ["quantity": 2, "unit": "cup", "item": "water", "original": "2 cups water", "group": "Base"],
            ["item": "salt", "quantityMax": 1.5, "note": "to taste"],
        ],
        "instructions": [
            ["text": "Boil.", "timerSeconds": 60, "name": "Cook", "images": [["ref": "images/step.png"]]],
            ["text": "Serve."],
        ],
    ]

    /// Values a mutation puts in a member's place.
    static let replacements: [Value?] = [
        nil, .null, "", "x", "yesterday", "2024-01-01T00:00:00Z", "easy", "extreme", 0, 2, 2.5, -1, 1e20,
        .int(Int64.max), true, false, [], ["a"], [1], [.null], [:], ["a": 1], [["original": "x"]], [["text": "t"]],
        [["quantity": "2"]], [["timerSeconds": 30]], [["text": "t", "images": [["url": 1]]]], [["title": 1]],
        // The version 4 members' shapes, valid and not.
        ["text": "t", "title": nil], ["ref": "r"], ["url": "u", "isPrimary": "yes"], ["ref": nil], ["url": 1],
        ["value": 4, "scale": 5], ["value": "4", "scale": 5], ["value": 4], ["name": "A"], ["name": nil],
        ["quantity": "2", "text": "x"], ["quantity": 2], ["calories": 1], ["calories": "1"], ["count": 1.5],
        [["ref": "r"]], [["url": nil]], [["ref": "r", "isPrimary": 1]], [["text": "n", "title": 2]], [["text": nil]],
    ]

    /// The members of the version 4 objects and list items a mutation may change.
    static let structuredMembers = [
        "text", "title", "ref", "url", "isPrimary", "value", "scale", "count", "name", "quantity", "unit", "calories",
        "servingSize", "images", "original", "item", "timerSeconds",
    ]

    static func mutate(_ record: Value, _ random: inout SeededGenerator) -> Value {
        guard case .object(var fields) = record else { return record }
        let keys = fields.keys + ["zzz", "recordName", "deletedAt", "nutrition", "yield", "author", "rating"]
        let key = keys[Int(random.next() % UInt64(keys.count))]
        let replacement = replacements[Int(random.next() % UInt64(replacements.count))]
        if random.next() % 3 == 0, let list = fields[key]?.arrayValue, !list.isEmpty {
            // A member of a list's item: an ingredient's, a step's, a note's or an image's.
            let index = Int(random.next() % UInt64(list.count))
            guard case .object(var member) = list[index] else { return .object(fields) }
            let memberKeys = member.keys + structuredMembers
            member[memberKeys[Int(random.next() % UInt64(memberKeys.count))]] = replacement
            var items = list
            items[index] = .object(member)
            fields[key] = .array(items)
        } else if random.next() % 2 == 0, case .object(var member)? = fields[key] {
            // A member of an object: nutrition's, the yield's, the author's, the rating's, extras'.
            let memberKeys = member.keys + structuredMembers
            member[memberKeys[Int(random.next() % UInt64(memberKeys.count))]] = replacement
            fields[key] = .object(member)
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
        var modelOnly: [Value] = []
        var record = Self.base
        for round in 0..<20_000 {
            // Mostly one or two mutations away from a valid recipe, so both answers occur often.
            if round % 3 == 0 { record = Self.base }
            record = Self.mutate(record, &random)
            guard RecipeDigest.fast(record) != nil else {
                if (try? Recipe(value: record)) != nil { modelOnly.append(record) }
                continue
            }
            accepted += 1
            #expect(throws: Never.self, "fast accepted \(record)") { _ = try Recipe(value: record) }
        }
        #expect(RecipeDigest.fast(Self.base) != nil)
        #expect(accepted > 1_000, "only \(accepted) mutated records were accepted: the test would prove little")
        // The other way, for speed: a valid record left to the model costs a whole model build.
        #expect(
            modelOnly.count * 20 < accepted,
            "\(modelOnly.count) valid records left the fast path: \(modelOnly.prefix(3))")
    }
}
