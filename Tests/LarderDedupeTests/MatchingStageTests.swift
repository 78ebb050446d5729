import Foundation
import LarderCore
import LarderSamples
import Testing

@testable import LarderDedupe

@Suite struct MatchingStageTests {
    typealias H = DedupeHarness

    /// The rules of the log's matches, for the cluster holding `id`.
    func rules(_ run: H.Run, containing id: String) -> [String] {
        let cluster = run.clusters.first { c in
            (c["members"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == id }
        }
        return cluster?["matches"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } ?? []
    }

    @Test("stage 1: the same id in both sets is one record, whatever the content")
    func sameID() async throws {
        let saved = [H.recipe(id: "r1", title: "Sunday Roast", ingredients: ["beef", "potatoes"])]
        let created = [H.recipe(id: "r1", title: "Completely Renamed", ingredients: ["tofu"])]
        let run = try await H.run(saved: saved, created: created)
        #expect(run.records.count == 1)
        #expect(rules(run, containing: "r1") == ["same-id"])
    }

    @Test("stage 1: the same CloudKit record name is one record even under other ids")
    func sameRecordName() async throws {
        let saved = [H.recipe(id: "a", title: "Soup", ingredients: ["leek"], extra: [("recordName", "ck-42")])]
        let created = [H.recipe(id: "b", title: "Stew", ingredients: ["beef"], extra: [("recordName", "ck-42")])]
        let run = try await H.run(saved: saved, created: created)
        #expect(run.records.count == 1)
        #expect(rules(run, containing: "a") == ["same-record-name"])
        #expect(run.records[0]["id"] == "b", "the created copy's id wins")
    }

    @Test("stage 2: the same source URL, up to scheme, www, trailing slash and tracking, matches")
    func sameSourceURL() async throws {
        let saved = [
            H.recipe(
                id: "s", title: "Pad Thai", ingredients: ["rice noodles", "tamarind", "fish sauce"],
                sourceURL: "https://www.example.com/pad-thai/?utm_source=pinterest")
        ]
        let created = [
            H.recipe(
                id: "c", title: "Pad Thai (my version)", ingredients: ["rice noodles", "tamarind", "peanuts", "lime"],
                sourceURL: "http://example.com/pad-thai")
        ]
        let run = try await H.run(saved: saved, created: created)
        #expect(run.records.count == 1)
        #expect(rules(run, containing: "s") == ["same-source-url"])
    }

    @Test("stage 2: a shared URL does not merge recipes whose titles and ingredients both disagree")
    func sharedURLWithDifferentContent() async throws {
        let saved = [
            H.recipe(
                id: "s", title: "Lemon Drizzle Cake", ingredients: ["lemons", "caster sugar", "self-raising flour"],
                sourceURL: "https://example.com/recipes/collection")
        ]
        let created = [
            H.recipe(
                id: "c", title: "Beef Rendang", ingredients: ["beef shin", "coconut milk", "lemongrass"],
                sourceURL: "https://example.com/recipes/collection")
        ]
        let run = try await H.run(saved: saved, created: created)
        #expect(run.records.count == 2)
    }

    @Test("a bare site URL never merges two recipes")
    func siteRootURL() async throws {
        let saved = [
            H.recipe(
                id: "s", title: "Lemon Cake", ingredients: ["lemons", "sugar"], sourceURL: "https://www.example.com/")
        ]
        let created = [
            H.recipe(id: "c", title: "Fish Pie", ingredients: ["cod", "potatoes"], sourceURL: "https://example.com")
        ]
        #expect(try await H.run(saved: saved, created: created).records.count == 2)
    }

    @Test("stage 3: the same normalized title and ingredient items match, in any order and with other quantities")
    func sameFingerprint() async throws {
        let saved = [
            H.recipe(
                id: "s", title: "Banana Bread",
                ingredients: ["3 ripe bananas", "250 g plain flour", "100 g butter", "2 eggs"])
        ]
        let created = [
            H.recipe(
                id: "c", title: "  banana-bread! ",
                ingredients: ["2 eggs", "6 ripe bananas", "200 g butter", "500 g plain flour"],
                servings: 8)
        ]
        let run = try await H.run(saved: saved, created: created)
        #expect(run.records.count == 1)
        #expect(rules(run, containing: "s") == ["same-fingerprint"])
    }

    @Test("stage 4: reworded ingredient lines match fuzzily, with the score in the log")
    func fuzzy() async throws {
        let lines = ["spaghetti", "pancetta", "eggs", "pecorino", "black pepper", "garlic", "olive oil", "parsley"]
        var reworded = lines
        reworded[1] = "smoked pancetta cubes"
        reworded[4] = "freshly cracked black pepper"
        let saved = [H.recipe(id: "s", title: "Spaghetti Carbonara", ingredients: lines)]
        let created = [H.recipe(id: "c", title: "Spaghetti Carbonara", ingredients: reworded)]
        let run = try await H.run(saved: saved, created: created)
        #expect(run.records.count == 1)
        #expect(rules(run, containing: "s") == ["fuzzy"])
        let score = run.clusters.first?["matches"]?.arrayValue?.first?["score"]
        #expect(score?["total"].map { if case .double(let d) = $0 { d >= 0.85 } else { false } } == true)
        #expect(score?["ingredients"] != nil && score?["title"] == .double(1))
    }

    @Test("the threshold decides fuzzy matches")
    func threshold() async throws {
        let lines = ["spaghetti", "pancetta", "eggs", "pecorino", "black pepper", "garlic"]
        var other = lines
        other[4] = "chilli"
        other[5] = "parsley"
        let saved = [H.recipe(id: "s", title: "Spaghetti Carbonara", ingredients: lines)]
        let created = [H.recipe(id: "c", title: "Spaghetti Carbonara", ingredients: other)]
        #expect(try await H.run(saved: saved, created: created, threshold: 0.99).records.count == 2)
        #expect(try await H.run(saved: saved, created: created, threshold: 0.7).records.count == 1)
    }

    @Test("no chaining: A~B and B~C do not merge A with C when A and C do not match")
    func noChaining() async throws {
        // B sits between A and C: both match B, but A and C share too little.
        let a = H.recipe(
            id: "a", title: "Tomato Soup", ingredients: ["tomatoes", "onion", "garlic", "stock", "basil", "cream"])
        let b = H.recipe(
            id: "b", title: "Tomato Soup",
            ingredients: ["tomatoes", "onion", "garlic", "stock", "basil", "olive oil", "carrot"])
        let c = H.recipe(
            id: "c", title: "Tomato Soup",
            ingredients: ["tomatoes", "onion", "garlic", "stock", "olive oil", "carrot", "celery", "thyme"])
        let scorer = PairScorer()
        var table = FeatureTable()
        for (n, v) in [a, b, c].enumerated() {
            let recipe = try Recipe(value: v)
            try table.append(RecordFeatures(recipe: recipe), .make(id: recipe.id, key: UInt64(n)))
        }
        #expect(scorer.passes(scorer.score(0, 1, in: table)), "A~B")
        #expect(scorer.passes(scorer.score(1, 2, in: table)), "B~C")
        #expect(!scorer.passes(scorer.score(0, 2, in: table)), "A and C do not match")
        let run = try await H.run(saved: [a, c], created: [b])
        #expect(run.records.count == 2, "B joins one of them; A and C stay apart")
        #expect(run.summary.keptApartByChaining >= 1)
        let left =
            run.records.contains { $0["id"] == "a" }
                && run.clusters.allSatisfy { c in
                    !(c["members"]?.arrayValue ?? []).contains { $0["id"] == "a" }
                } ? "a" : "c"
        let explanation = try run.analysis.explain(left)
        #expect(explanation.contains("kept apart without chaining"), "\(explanation)")
    }

    @Test("blocking pairs every duplicate kind with its original")
    func blockingFindsDuplicates() throws {
        let generated = LabelledSetGenerator(seed: 5, count: 600).generateAll()
        var table = FeatureTable()
        for (n, item) in generated.enumerated() {
            try table.append(RecordFeatures(recipe: item.recipe), .make(id: item.recipe.id, key: UInt64(n)))
        }
        let blocker = CandidateBlocker(plan: BlockingPlan())
        var missed = 0
        var pairs = 0
        for x in generated.indices {
            for y in generated.indices where y > x && generated[x].entity == generated[y].entity {
                pairs += 1
                if !blocker.areCandidates(x, y, in: table) { missed += 1 }
            }
        }
        #expect(pairs > 40)
        #expect(missed == 0, "\(missed) of \(pairs) duplicate pairs never compared")
    }
}

extension RecordIdentity {
    static func make(id: String, key: UInt64, input: Int = 0) -> RecordIdentity {
        RecordIdentity(
            id: id, recordNameHash: StableHasher.hash("recipe-" + id, seed: 0x726E), key: StableKey(high: key, low: 0),
            updatedAt: 0,
            isCreated: false, isSaved: true, isDeleted: false, input: input, inputIndex: Int(key), spillOffset: 0,
            spillLength: 0)
    }
}
