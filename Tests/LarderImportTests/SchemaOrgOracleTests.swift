import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Imports every real page of the schema.org corpus and compares the result with
/// recipe-scrapers' expected output, field by field.
@Suite struct SchemaOrgOracleTests {
    private struct Tally {
        var agree = 0
        var total = 0
        var share: Double { total == 0 ? 1 : Double(agree) / Double(total) }
        mutating func count(_ ok: Bool) {
            total += 1
            if ok { agree += 1 }
        }
    }

    private static func normalized(_ value: Value?) -> String? {
        guard let s = value?.stringValue else { return nil }
        return HTMLText.normalize(s)
    }

    private static func minutes(_ value: Value?) -> Int? {
        switch value {
        case .int(let i)?: Int(i)
        case .double(let d)?: Int(d)
        default: nil
        }
    }

    @Test(
        "agrees with the recipe-scrapers oracle on title, ingredients, instructions, yields and times",
        .enabled(if: Corpus.has("schemaorg"), "needs ../shared/corpus/schemaorg (or LARDER_CORPUS)"))
    func agreesWithOracle() throws {
        let root = URL(fileURLWithPath: Corpus.path("schemaorg"))
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".jsonld") }
            .sorted()
        #expect(files.count > 400)
        var tallies: [String: Tally] = [:]
        var rejected: [String] = []
        var diffs: [String] = []
        let diffField = ProcessInfo.processInfo.environment["LARDER_ORACLE_DIFF"]
        for file in files {
            let stem = String(file.dropLast(".jsonld".count))
            let expectedData = try Data(contentsOf: root.appendingPathComponent(stem + ".expected.json"))
            let expected = try JSONLDBlocks.parse(MemoryByteSource(Array(expectedData), name: stem + ".expected.json"))
            var blocks: [Value] = []
            let recipe: ImportedRecipe
            do {
                let node = try JSONLDBlocks.parse(FileByteSource(path: root.appendingPathComponent(file).path))
                blocks.append(node)
                let refsPath = root.appendingPathComponent(stem + ".refs.json").path
                if FileManager.default.fileExists(atPath: refsPath) {
                    blocks.append(
                        .array((try JSONLDBlocks.parse(FileByteSource(path: refsPath))).objectValue?.map(\.value) ?? [])
                    )
                }
                let finder = SchemaOrgNodeFinder(blocks: blocks)
                let nodes = finder.recipes(in: node)
                guard let first = nodes.first else {
                    rejected.append("\(file): no Recipe node")
                    continue
                }
                recipe = try SchemaOrgRecipeParser(finder: finder).parse(first)
            } catch let error as LarderError {
                rejected.append("\(file): \(error)")
                continue
            }
            func note(_ field: String, _ ours: String, _ theirs: String) {
                if diffField == field || diffField == "all" {
                    diffs.append("\(file) [\(field)]\n  ours:   \(ours)\n  oracle: \(theirs)")
                }
            }
            if let title = Self.normalized(expected["title"]) {
                let ok = HTMLText.normalize(recipe.title) == title
                tallies["title", default: Tally()].count(ok)
                if !ok { note("title", recipe.title, title) }
            }
            if let list = expected["ingredients"]?.arrayValue {
                let theirs = list.compactMap { Self.normalized($0) }
                let ours = recipe.ingredients.map { HTMLText.normalize($0) }
                tallies["ingredients", default: Tally()].count(ours == theirs)
                if ours != theirs {
                    note("ingredients", ours.joined(separator: " | "), theirs.joined(separator: " | "))
                }
            }
            if let list = expected["instructions_list"]?.arrayValue {
                let ok = recipe.steps.count == list.count
                tallies["instructions", default: Tally()].count(ok)
                if !ok {
                    note(
                        "instructions",
                        "\(recipe.steps.count): "
                            + recipe.steps.map { ($0.isSection ? "§" : "") + String($0.text.prefix(50)) }.joined(
                                separator: " | "),
                        "\(list.count): "
                            + list.compactMap { $0.stringValue.map { String($0.prefix(50)) } }.joined(separator: " | "))
                }
            }
            if let yields = expected["yields"] {
                let theirs = Self.normalized(yields)
                let ok = recipe.yieldText == theirs
                tallies["yields", default: Tally()].count(ok)
                if !ok { note("yields", recipe.yieldText ?? "nil", theirs ?? "nil") }
            }
            for (key, ours) in [
                ("total_time", recipe.totalMinutes), ("prep_time", recipe.prepMinutes),
                ("cook_time", recipe.cookMinutes),
            ] {
                guard let value = expected[key] else { continue }
                let theirs = Self.minutes(value)
                let ok = (ours ?? 0) == (theirs ?? 0)
                tallies[key, default: Tally()].count(ok)
                if !ok { note(key, ours.map(String.init) ?? "nil", theirs.map(String.init) ?? "nil") }
            }
        }
        for key in ["title", "ingredients", "instructions", "yields", "total_time", "prep_time", "cook_time"] {
            let t = tallies[key] ?? Tally()
            print("schema.org oracle: \(key): \(t.agree)/\(t.total) = \(String(format: "%.1f", t.share * 100))%")
        }
        print("schema.org oracle: rejected \(rejected.count) of \(files.count)")
        for line in rejected { print("  rejected: \(line)") }
        if !diffs.isEmpty {
            try diffs.joined(separator: "\n").write(toFile: "/tmp/oracle-diff.txt", atomically: true, encoding: .utf8)
        }
        #expect(rejected.isEmpty)
        #expect((tallies["title"]?.share ?? 0) >= 0.99)
        #expect((tallies["ingredients"]?.share ?? 0) >= 0.85)
        #expect((tallies["instructions"]?.share ?? 0) >= 0.80)
        for key in ["yields", "total_time", "prep_time", "cook_time"] {
            #expect((tallies[key]?.share ?? 0) >= 0.90, "\(key)")
        }
    }
}
