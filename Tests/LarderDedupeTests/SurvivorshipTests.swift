import Foundation
import LarderCore
import Testing

@testable import LarderDedupe

@Suite struct SurvivorshipTests {
    typealias H = DedupeHarness

    /// The same recipe, once saved and once created (same fingerprint, other ids).
    func pair(
        saved: [(String, Value)] = [], created: [(String, Value)] = [], savedUpdated: String = "2024-05-01T00:00:00Z",
        createdUpdated: String = "2024-02-01T00:00:00Z"
    ) async throws -> (Value, H.Run) {
        let lines = ["rolled oats", "milk", "honey", "blueberries"]
        let s = H.recipe(
            id: "saved-copy", title: "Overnight Oats", ingredients: lines, updatedAt: savedUpdated,
            ownerID: "someone-else", extra: saved)
        let c = H.recipe(
            id: "created-copy", title: "Overnight Oats", ingredients: lines, updatedAt: createdUpdated,
            ownerID: "me", extra: created)
        let run = try await H.run(saved: [s], created: [c])
        #expect(run.records.count == 1)
        return (run.records[0], run)
    }

    @Test("a created recipe's id and owner win over a saved copy, even an older one")
    func createdIdentityWins() async throws {
        let (merged, _) = try await pair()
        #expect(merged["id"] == "created-copy")
        #expect(merged["ownerID"] == "me")
    }

    @Test("the sync state (record name, change tag) is the survivor's")
    func syncStateFromSurvivor() async throws {
        let (merged, _) = try await pair(saved: [("changeTag", "saved-tag")], created: [("changeTag", "created-tag")])
        #expect(merged["changeTag"] == "created-tag")
    }

    @Test("per field, the newest updatedAt wins", arguments: [true, false])
    func newestFieldWins(savedIsNewer: Bool) async throws {
        let newer = "2024-06-01T00:00:00Z"
        let older = "2024-01-01T00:00:00Z"
        let (merged, run) = try await pair(
            saved: [("servings", 6), ("cuisine", "Swiss")], created: [("servings", 2), ("cuisine", "British")],
            savedUpdated: savedIsNewer ? newer : older, createdUpdated: savedIsNewer ? older : newer)
        #expect(merged["servings"] == (savedIsNewer ? 6 : 2))
        #expect(merged["cuisine"] == (savedIsNewer ? "Swiss" : "British"))
        #expect(merged["updatedAt"] == .string(newer))
        let source = run.clusters.first?["fields"]?["servings"]?["from"]?.stringValue
        #expect(source == (savedIsNewer ? "saved[0]" : "created[0]"), "the log names each field's source")
    }

    @Test("a field only an older copy has is kept, and fields Larder does not know survive")
    func fieldsOnlyOneCopyHas() async throws {
        let (merged, _) = try await pair(
            saved: [("nutrition", ["kcal": 320])], created: [("imageRef", "images/oats.jpg")])
        #expect(merged["nutrition"]?["kcal"] == 320)
        #expect(merged["imageRef"] == "images/oats.jpg")
    }

    @Test("createdAt is the earliest of the copies")
    func earliestCreatedAt() async throws {
        let (merged, _) = try await pair(
            saved: [("createdAt", "2023-01-01T00:00:00Z")], created: [("createdAt", "2023-06-01T00:00:00Z")])
        #expect(merged["createdAt"] == "2023-01-01T00:00:00Z")
    }

    @Test("saved, created and favorited flags are OR-ed, and each set's membership counts")
    func flagsOred() async throws {
        let (merged, run) = try await pair(saved: [("isFavorited", true)], created: [("isSaved", false)])
        #expect(merged["isSaved"] == true, "it was in the saved set")
        #expect(merged["isCreated"] == true, "it was in the created set")
        #expect(merged["isFavorited"] == true, "favorited in one copy")
        #expect(run.clusters.first?["fields"]?["isFavorited"]?["from"] == ["saved[0]"])
    }

    @Test("tags and dietary notes are unioned, case and spacing ignored, survivor's first")
    func listsUnioned() async throws {
        let (merged, _) = try await pair(
            saved: [("tags", ["Breakfast", "make-ahead"]), ("dietaryNotes", ["vegetarian"])],
            created: [("tags", ["breakfast", "quick"]), ("dietaryNotes", ["Vegetarian", "gluten-free"])])
        #expect(merged.strings("tags") == ["breakfast", "quick", "make-ahead"])
        #expect(merged.strings("dietaryNotes") == ["Vegetarian", "gluten-free"])
    }

    @Test("differing ingredient lines and steps stay the survivor's; the loser's version goes to the log")
    func listsKeptWithAlternatives() async throws {
        let lines = ["rolled oats", "milk", "honey", "blueberries"]
        let s = H.recipe(
            id: "s", title: "Overnight Oats", ingredients: lines.reversed(), steps: ["Mix.", "Chill overnight."],
            updatedAt: "2024-09-01T00:00:00Z")
        let c = H.recipe(
            id: "c", title: "Overnight Oats", ingredients: lines, steps: ["Stir everything.", "Leave in the fridge."])
        let run = try await H.run(saved: [s], created: [c])
        let merged = try #require(run.records.first)
        #expect(
            merged["ingredients"] == c["ingredients"], "the (created) survivor's lines, though the saved copy is newer")
        #expect(merged["instructions"] == c["instructions"])
        let alternatives = run.clusters.first?["alternatives"]?.arrayValue ?? []
        #expect(alternatives.map { $0["field"]?.stringValue } == ["ingredients", "instructions"])
        #expect(alternatives.first?["from"] == "saved[0]")
        #expect(alternatives.first?["value"] == s["ingredients"], "nothing of the loser is lost")
    }

    @Test(
        "the --created input's copy survives whatever flags the copies carry, and wins updatedAt ties",
        arguments: ["Overnight Oats", "Hummus", "Shakshuka", "Dal Tadka", "Pad Thai", "Borscht", "Ramen", "Paella"])
    func createdRoleWinsOverFlags(title: String) async throws {
        // Two v1 files migrated to v3 carry the same flags (isSaved and isCreated both true) and the
        // same updatedAt (v1 has none; the migration copies createdAt), so only the input role can
        // tell the copies apart. The titles differ only in case, so the pair matches.
        let lines = ["rolled oats", "milk", "honey", "blueberries"]
        let flags: [(String, Value)] = [("isSaved", true), ("isCreated", true)]
        let s = H.recipe(id: "saved-\(title)", title: title.lowercased(), ingredients: lines, extra: flags)
        let c = H.recipe(id: "created-\(title)", title: title, ingredients: lines, extra: flags)
        let run = try await H.run(saved: [s], created: [c])
        #expect(run.records.count == 1)
        #expect(run.records.first?["id"] == .string("created-\(title)"))
        #expect(run.records.first?["title"] == .string(title), "an updatedAt tie goes to the created copy")
    }

    @Test("between two saved copies the newest is the survivor")
    func newestSurvivesAmongEquals() async throws {
        let lines = ["chickpeas", "tahini", "lemon", "garlic"]
        let a = H.recipe(id: "old", title: "Hummus", ingredients: lines, updatedAt: "2024-01-01T00:00:00Z")
        let b = H.recipe(id: "new", title: "Hummus", ingredients: lines, updatedAt: "2024-03-01T00:00:00Z")
        let run = try await H.run(saved: [a, b], created: [])
        #expect(run.records.map { $0["id"] } == ["new"])
    }

    @Test("a record that merges with nothing is written as it came, with its set's flag")
    func singletonsUntouched() async throws {
        let s = H.recipe(
            id: "lonely", title: "Kimchi Jjigae", ingredients: ["kimchi", "pork belly", "tofu"],
            extra: [("custom", ["x": 1])])
        let run = try await H.run(saved: [s], created: [])
        var expected = s.objectValue ?? Fields()
        expected["isSaved"] = true
        #expect(run.records == [.object(expected)])
    }
}
