import Foundation
import LarderCore
import LarderFormats
import Testing

@testable import LarderDedupe

@Suite struct MergeLogTests {
    typealias H = DedupeHarness

    func sample() async throws -> H.Run {
        let lines = ["chicken thighs", "yogurt", "garam masala", "tomatoes", "cream", "butter", "ginger", "garlic"]
        var reworded = lines
        reworded[1] = "greek-style yoghurt"
        let saved = [
            H.recipe(
                id: "s1", title: "Butter Chicken", ingredients: lines, updatedAt: "2024-04-01T00:00:00Z",
                tags: ["curry"]),
            H.recipe(
                id: "s2", title: "Lemon Tart", ingredients: ["lemons", "eggs", "caster sugar", "shortcrust pastry"]),
        ]
        let created = [
            H.recipe(
                id: "c1", title: "BUTTER CHICKEN!", ingredients: reworded, updatedAt: "2024-01-01T00:00:00Z",
                tags: ["weeknight"]),
            H.recipe(
                id: "s2", title: "Lemon Tart", ingredients: ["lemons", "eggs", "caster sugar", "shortcrust pastry"]),
        ]
        return try await H.run(saved: saved, created: created)
    }

    @Test("the log lists each cluster, its members, the matches with scores and each field's source")
    func logStructure() async throws {
        let run = try await sample()
        #expect(run.log["tool"] == "larder dedupe")
        #expect(run.clusters.count == 2)
        let chicken = try #require(run.clusters.first { $0["id"] == "c1" })
        let members = chicken["members"]?.arrayValue ?? []
        #expect(members.map { $0["ref"] } == ["created[0]", "saved[0]"])
        #expect(members.first?["survivor"] == true)
        let match = try #require(chicken["matches"]?.arrayValue?.first)
        #expect(match["rule"] == "fuzzy")
        #expect(match["score"]?["title"] == .double(1))
        #expect(chicken["fields"]?["id"]?["rule"] == "survivor")
        #expect(chicken["fields"]?["title"]?["from"] == "saved[0]", "the saved copy is newer")
        #expect(chicken["fields"]?["tags"]?["from"] == ["created[0]", "saved[0]"])
        #expect(chicken["alternatives"]?.arrayValue?.first?["field"] == "ingredients")
        let tart = try #require(run.clusters.first { $0["id"] == "s2" })
        #expect(tart["matches"]?.arrayValue?.first?["rule"] == "same-id")
    }

    @Test("the log's summary counts what happened")
    func summary() async throws {
        let run = try await sample()
        let summary = try #require(run.log["summary"])
        #expect(summary["read"] == 4)
        #expect(summary["written"] == 2)
        #expect(summary["clusters"] == 2)
        #expect(summary["removed"] == 2)
        #expect(summary["matchesByRule"]?["fuzzy"] == 1)
        #expect(summary["matchesByRule"]?["same-id"] == 1)
        #expect(run.summary.text.contains("4 records read"))
        #expect(run.summary.text.contains("4 duplicates merged into 2 records"))
    }

    @Test("--explain says why a record merged: the rule, the scores, the survivor, the fields")
    func explainMerged() async throws {
        let run = try await sample()
        let text = try run.analysis.explain("s1")
        #expect(text.contains("record saved[0]"))
        #expect(text.contains("merged with 1 other record into id \"c1\""))
        #expect(text.contains("a created recipe beats a saved copy"))
        #expect(text.contains("fuzzy, score"))
        #expect(text.contains("title ← saved[0] (newest)"))
    }

    @Test("--explain says why a record did not merge, and unknown ids are usage errors")
    func explainUnmerged() async throws {
        let run = try await sample()
        let text = try run.analysis.explain("s2")
        #expect(text.contains("same-id"))
        #expect(text.contains("nearest records not merged"))
        #expect(throws: LarderError.self) { try run.analysis.explain("no-such-id") }
    }
}

@Suite struct RecipeDigestTests {
    typealias H = DedupeHarness

    static let malformed: [Value] = [
        ["title": "no id", "createdAt": "2024-01-01T00:00:00Z"],
        ["id": "x", "createdAt": "2024-01-01T00:00:00Z"],
        ["id": "x", "title": "t", "createdAt": "yesterday"],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "servings": "four"],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "servings": 2.5],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "tags": [1]],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "ingredients": [["quantity": 2]]],
        [
            "id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z",
            "ingredients": [["item": "flour", "quantity": "2"]],
        ],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "instructions": [["timerSeconds": 30]]],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "difficulty": "extreme"],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "isSaved": "yes"],
        ["id": 7, "title": "t", "createdAt": "2024-01-01T00:00:00Z"],
        // Empty structured members the digest once took as plain: the model requires their own members.
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "yield": [:]],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "author": [:]],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "images": [:]],
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "extras": []],
        "not an object",
    ]

    static let valid: [Value] = [
        ["id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z"],
        ["id": "x", "isDeleted": true, "deletedAt": "2024-02-01T00:00:00Z"],
        [
            "id": "x", "title": "t", "createdAt": "2024-01-01T00:00:00Z", "servings": 2.0, "prepTime": nil,
            "ingredients": [["original": "2 eggs"]],
        ],
        H.recipe(
            id: "full", title: "Full", ingredients: ["a", "b"], sourceURL: "https://example.com/x",
            extra: [("difficulty", "easy")]),
    ]

    @Test("the digest rejects exactly what the model rejects, with the model's message", arguments: malformed)
    func rejectsLikeTheModel(record: Value) throws {
        var modelError: LarderError?
        do { _ = try Recipe(value: record) } catch let error as LarderError { modelError = error }
        var digestError: LarderError?
        do { _ = try RecipeDigest(value: record) } catch let error as LarderError { digestError = error }
        #expect(modelError != nil)
        #expect(digestError?.description == modelError?.description)
    }

    @Test("the digest of a valid record is what the model says", arguments: valid)
    func agreesWithTheModel(record: Value) throws {
        let fast = try RecipeDigest(value: record)
        let model = RecipeDigest(recipe: try Recipe(value: record))
        #expect(fast.id == model.id && fast.title == model.title && fast.recordName == model.recordName)
        #expect(
            fast.updatedAt == model.updatedAt && fast.isDeleted == model.isDeleted && fast.sourceURL == model.sourceURL)
        #expect(fast.servings == model.servings && fast.ingredientTexts == model.ingredientTexts)
    }
}

@Suite struct SpillTests {
    @Test("the binary encoding round-trips every kind of value")
    func binaryRoundTrip() throws {
        let value: Value = [
            "s": "héllo \"world\"", "i": -42, "big": .int(Int64.max), "d": 2.5, "t": true, "f": false, "n": nil,
            "a": [1, "two", [3.0], ["k": nil]], "e": [:], "ea": [],
        ]
        var bytes: [UInt8] = []
        ValueBinaryCoding.encode(value, into: &bytes)
        #expect(try bytes.withUnsafeBytes { try ValueBinaryCoding.decode($0) } == value)
        #expect(throws: LarderError.self) {
            try bytes.dropLast().withUnsafeBytes { try ValueBinaryCoding.decode(UnsafeRawBufferPointer($0)) }
        }
    }

    @Test(
        "a spill file gives back what was put in, in either encoding",
        arguments: [SpillEncoding.binary, .json(pretty: false)])
    func spillRoundTrip(encoding: SpillEncoding) throws {
        let spill = try SpillFile(encoding: encoding)
        let records: [Value] = (0..<50).map { ["id": .string("r\($0)"), "n": .int(Int64($0)), "tags": ["a", "b"]] }
        let places = try records.map { try spill.append($0) }
        try spill.flush()
        var scratch: [UInt8] = []
        for (record, place) in zip(records, places).reversed() {
            #expect(try spill.read(offset: place.offset, length: place.length, scratch: &scratch) == record)
        }
        #expect(Set(places.map(\.key)).count == records.count, "distinct records have distinct content keys")
    }

    @Test("multi-line JSON text is put on one line, strings untouched")
    func removesLineBreaks() {
        let text = "{\n  \"a\": \"x\\n y\",\n  \"b\": [1,\n 2]\n}"
        var out: [UInt8] = []
        Array(text.utf8).withUnsafeBytes { SpillFile.removeLineBreaks($0, into: &out) }
        #expect(String(decoding: out, as: UTF8.self) == "{\"a\":\"x\\n y\",\"b\":[1,2]}")
    }
}
