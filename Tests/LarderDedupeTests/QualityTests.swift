import Foundation
import LarderCore
import LarderFormats
import LarderSamples
import Testing

@testable import LarderDedupe

/// Precision and recall on generated labelled sets, near-misses, and order independence.
@Suite struct QualityTests {
    typealias H = DedupeHarness

    struct Labelled {
        var saved: [Value] = []
        var created: [Value] = []
        var savedTruth: [LabelledRecipe] = []
        var createdTruth: [LabelledRecipe] = []
    }

    static func labelled(seed: UInt64, count: Int, nearMisses: Double = 0.03) -> Labelled {
        var generator = LabelledSetGenerator(seed: seed, count: count)
        generator.nearMissFraction = nearMisses
        var set = Labelled()
        generator.generate { item in
            if item.role == .saved {
                set.saved.append(item.recipe.value)
                set.savedTruth.append(item)
            } else {
                set.created.append(item.recipe.value)
                set.createdTruth.append(item)
            }
        }
        return set
    }

    struct PairKey: Hashable {
        var a: Int
        var b: Int
        init(_ x: Int, _ y: Int) {
            a = min(x, y)
            b = max(x, y)
        }
    }

    /// Pairwise precision and recall of predicted clusters against the truth, and recall per edit kind.
    static func evaluate(_ set: Labelled, _ analysis: DedupeAnalysis) -> (
        precision: Double, recall: Double, byEdit: [String: (Int, Int)]
    ) {
        // Global numbering: saved records first, then created (the pass's input order).
        let truth = set.savedTruth + set.createdTruth
        func global(_ input: Int, _ index: Int) -> Int { input == 0 ? index : set.saved.count + index }
        var predicted = Set<PairKey>()
        for cluster in analysis.clusters {
            let members = cluster.map { global($0.input, $0.index) }
            for x in members.indices {
                for y in members.indices where y > x { predicted.insert(PairKey(members[x], members[y])) }
            }
        }
        var byEntity: [Int: [Int]] = [:]
        for (n, item) in truth.enumerated() { byEntity[item.entity, default: []].append(n) }
        var actual = Set<PairKey>()
        var byEdit: [String: (Int, Int)] = [:]
        for members in byEntity.values {
            for x in members.indices {
                for y in members.indices where y > x {
                    let pair = PairKey(members[x], members[y])
                    actual.insert(pair)
                    for record in [truth[members[x]], truth[members[y]]] {
                        guard case .duplicate(let edits) = record.kind else { continue }
                        for edit in edits {
                            var counts = byEdit[edit.rawValue, default: (0, 0)]
                            counts.1 += 1
                            if predicted.contains(pair) { counts.0 += 1 }
                            byEdit[edit.rawValue] = counts
                        }
                    }
                }
            }
        }
        let truePositives = predicted.intersection(actual).count
        return (
            Double(truePositives) / Double(max(predicted.count, 1)),
            Double(truePositives) / Double(max(actual.count, 1)), byEdit
        )
    }

    @Test("precision ≥ 0.99 and recall ≥ 0.98 on a labelled set with every kind of duplicate and near-miss")
    func precisionAndRecall() async throws {
        let set = Self.labelled(seed: 2024, count: 4000)
        let run = try await H.run(saved: set.saved, created: set.created)
        let (precision, recall, byEdit) = Self.evaluate(set, run.analysis)
        print(
            "dedupe quality on 4000 generated recipes: precision \(MatchScore.format(precision)), recall \(MatchScore.format(recall))"
        )
        for (edit, counts) in byEdit.sorted(by: { $0.key < $1.key }) {
            print("  recall for duplicates with \(edit): \(counts.0)/\(counts.1)")
        }
        #expect(Set(byEdit.keys) == Set(LabelledRecipe.Edit.allCases.map(\.rawValue)), "every edit kind is in the set")
        #expect(precision >= 0.99)
        #expect(recall >= 0.98)
    }

    @Test("near-misses stay apart from the recipe they resemble")
    func nearMissesStayApart() async throws {
        let set = Self.labelled(seed: 77, count: 1000, nearMisses: 0.2)
        let run = try await H.run(saved: set.saved, created: set.created)
        let truth = set.savedTruth + set.createdTruth
        var entityOfRecord: [Int] = truth.map(\.entity)
        var clusterOf: [Int: Int] = [:]
        for (c, cluster) in run.analysis.clusters.enumerated() {
            for member in cluster { clusterOf[member.input == 0 ? member.index : set.saved.count + member.index] = c }
        }
        var nearMisses = 0
        for (n, item) in truth.enumerated() {
            guard case .nearMiss = item.kind else { continue }
            nearMisses += 1
            // A near-miss is its own entity: any cluster it is in holds only that entity.
            if let c = clusterOf[n] {
                let entities = Set(
                    run.analysis.clusters[c].map {
                        entityOfRecord[$0.input == 0 ? $0.index : set.saved.count + $0.index]
                    })
                #expect(entities == [item.entity], "near-miss \(item.recipe.title) merged with another recipe")
            }
        }
        entityOfRecord.removeAll()
        #expect(nearMisses > 100)
    }

    @Test("two different dishes called \"Pancakes\" are not merged")
    func sameTitleDifferentDish() async throws {
        let saved = [H.recipe(id: "fluffy", title: "Pancakes", ingredients: H.pancakeLines)]
        let created = [H.recipe(id: "potato", title: "Pancakes", ingredients: H.potatoPancakeLines)]
        let run = try await H.run(saved: saved, created: created)
        #expect(run.records.count == 2)
        let explanation = try run.analysis.explain("potato")
        #expect(explanation.contains("same title, different dish"), "\(explanation)")
    }

    @Test("the same shopping list cooked as another dish is not merged")
    func sameIngredientsDifferentDish() async throws {
        let lines = ["plain flour", "eggs", "milk", "butter", "salt"]
        let saved = [H.recipe(id: "crepes", title: "French Crêpes", ingredients: lines)]
        let created = [H.recipe(id: "yorkshire", title: "Yorkshire Puddings", ingredients: lines.reversed())]
        let run = try await H.run(saved: saved, created: created)
        #expect(run.records.count == 2)
        #expect(try run.analysis.explain("crepes").contains("same ingredients, different dish"))
    }

    @Test("the same records in any order give byte-identical output", arguments: [1, 2, 3])
    func orderIndependence(shuffleSeed: UInt64) async throws {
        let set = Self.labelled(seed: 99, count: 800)
        let reference = try await H.run(saved: set.saved, created: set.created)
        var rng = SeededRandom(seed: shuffleSeed)
        let shuffled = try await H.run(saved: rng.shuffled(set.saved), created: rng.shuffled(set.created))
        #expect(shuffled.text == reference.text)
        #expect(shuffled.summary.written == reference.summary.written)
        #expect(reference.summary.clusters > 30)
    }

    @Test("JSON output is byte-identical for shuffled input too")
    func orderIndependenceJSON() async throws {
        let set = Self.labelled(seed: 5, count: 600)
        var rng = SeededRandom(seed: 9)
        let a = try await H.run(saved: set.saved, created: set.created, format: .json)
        let b = try await H.run(saved: rng.shuffled(set.saved), created: rng.shuffled(set.created), format: .json)
        #expect(a.text == b.text)
        #expect(a.text.hasPrefix("[\n{"))
    }

    @Test("the generator is deterministic")
    func generatorIsDeterministic() {
        let a = LabelledSetGenerator(seed: 3, count: 300).generateAll().map(\.recipe)
        let b = LabelledSetGenerator(seed: 3, count: 300).generateAll().map(\.recipe)
        let c = LabelledSetGenerator(seed: 4, count: 300).generateAll().map(\.recipe)
        #expect(a == b)
        #expect(a != c)
        #expect(a.allSatisfy { $0.validate().isEmpty }, "generated recipes are valid")
    }
}
