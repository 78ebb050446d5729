import Foundation
import LarderCore
import Testing

@testable import LarderDedupe

/// Survivorship keeps recipe v4's fields: notes unioned, the longest description, extras merged,
/// tag-like lists unioned, the newest value otherwise.
extension SurvivorshipTests {
    @Test("notes are unioned, the longest description wins, extras are merged source by source")
    func v4FieldsSurvive() async throws {
        let (merged, run) = try await pair(
            saved: [
                ("description", "Oats."),
                ("notes", [["text": "Soak overnight."], ["title": "Tip", "text": "Add chia."]]),
                ("extras", ["paprika": ["hash": "old", "photo_hash": "p1"], "mela": ["id": "m-1"]]),
                ("categories", ["Breakfast"]), ("cuisines", ["Swiss"]),
            ],
            created: [
                ("description", "Creamy oats soaked overnight, with berries."),
                ("notes", [["text": "soak  OVERNIGHT."], ["text": "Keeps three days."]]),
                ("extras", ["paprika": ["hash": "new"], "mealie": ["slug": "oats"]]),
                ("categories", ["breakfast", "Make-ahead"]), ("cuisines", ["British"]),
            ],
            savedUpdated: "2024-01-01T00:00:00Z", createdUpdated: "2024-06-01T00:00:00Z")
        #expect(merged["description"] == "Creamy oats soaked overnight, with berries.")
        #expect(
            merged["notes"] == [
                ["text": "soak  OVERNIGHT."], ["text": "Keeps three days."], ["title": "Tip", "text": "Add chia."],
            ], "the survivor's notes first, then the others' new ones; the same text counts once")
        #expect(merged["extras"]?["paprika"] == ["hash": "new", "photo_hash": "p1"], "the newest value wins per field")
        #expect(merged["extras"]?["mela"] == ["id": "m-1"] && merged["extras"]?["mealie"] == ["slug": "oats"])
        #expect(merged["categories"] == ["breakfast", "Make-ahead"])
        #expect(merged["cuisines"] == ["British", "Swiss"])
        let fields = run.clusters.first?["fields"]
        #expect(fields?["description"]?["rule"] == "longest" && fields?["extras"]?["rule"] == "merged")
        #expect(fields?["notes"]?["rule"] == "union")
        #expect(try Recipe(value: merged).validate().isEmpty)
    }

    @Test("other v4 fields follow the newest copy, and a field only one copy has is kept")
    func v4NewestOtherwise() async throws {
        let (merged, _) = try await pair(
            saved: [("rating", ["value": 3.0, "scale": 5.0]), ("totalTime", 40), ("language", "en")],
            created: [("rating", ["value": 5.0, "scale": 5.0, "count": 2]), ("author", ["name": "Me"])],
            savedUpdated: "2024-06-01T00:00:00Z", createdUpdated: "2024-01-01T00:00:00Z")
        #expect(merged["rating"] == ["value": 3.0, "scale": 5.0])
        #expect(merged["totalTime"] == 40 && merged["language"] == "en" && merged["author"] == ["name": "Me"])
    }
}
