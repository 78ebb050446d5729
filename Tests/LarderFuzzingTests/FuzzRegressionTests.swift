import Foundation
import LarderCloudKit
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderEmulatorFuzzing
@testable import LarderFuzzing

/// The fuzz targets over the regression corpus (every past finding) and over seeds: each must
/// neither crash nor hang, and each must read something from a valid seed, so a target that
/// silently reads nothing cannot pass for a fuzzer.
///
/// The CPU-bound work runs serialized and off the cooperative pool, which the emulator tests' in-process servers need.
@Suite(.serialized) struct FuzzRegressionTests {
    static let root = CLI.packageRoot

    /// Every fuzz target of both binaries: the files and wire formats, and the emulator's request bodies.
    static let targets = FuzzTargets.all + EmulatorFuzzTargets.all

    /// The target called `name`.
    static func target(_ name: String) -> FuzzTargets.Target? { targets.first { $0.name == name } }

    /// The files of the regression corpus of `target`.
    static func regressions(_ target: String) -> [URL] {
        files(in: root.appendingPathComponent("Fuzz/regressions/\(target)"))
    }

    /// The files in `folder`, sorted by name; none when it does not exist.
    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Seeds from `samples/` and `Fuzz/seeds/<target>/` (what `make fuzz` starts from too) plus the few made here.
    static func seeds(_ target: FuzzTargets.Target) throws -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        let samples = root.appendingPathComponent("samples")
        let walker = FileManager.default.enumerator(atPath: samples.path)
        while let relative = walker?.nextObject() as? String {
            guard target.seedSuffixes.contains(where: { relative.hasSuffix($0) }), !relative.hasPrefix("bad/") else {
                continue
            }
            seeds.append(Array(try Data(contentsOf: samples.appendingPathComponent(relative))))
        }
        seeds += made[target.name, default: []].map { Array($0.utf8) }
        // Seeds kept beside the regression corpus, for targets whose input no sample is.
        for file in files(in: root.appendingPathComponent("Fuzz/seeds/\(target.name)")) {
            seeds.append(Array(try Data(contentsOf: file)))
        }
        switch target.name {
        case "gzip":
            // A two-member gzip stream of a sample.
            let sink = MemoryByteSink()
            let text = Array(try Data(contentsOf: samples.appendingPathComponent("recipes.json")))
            for _ in 0..<2 {
                let member = try GzipWriter(sink)
                try text.withUnsafeBytes { try member.write($0) }
                try member.close()
            }
            seeds.append(sink.bytes)
        case "manifest":
            seeds.append(Array(try Data(contentsOf: root.appendingPathComponent("Schemas/registry.yaml"))))
        default: break
        }
        return seeds
    }

    /// Seeds for targets that samples/ has no file for.
    static let made: [String: [String]] = [
        "html-jsonld": [page],
        "schemaorg": [page],
        "mela": [#"{"id":"mela-1","title":"Soup","ingredients":"1 onion\n2 carrots","instructions":"Chop.\nSimmer."}"#],
        "paprika-entry": [#"{"uid":"p-1","name":"Soup","ingredients":"1 onion","directions":"Simmer."}"#],
        "ingredient-line": ["1 1/2 cups flour\n2 EL Zucker\n1 (14 ounce) can tomatoes\nsalt to taste"],
        "change-token": [ChangeToken(kind: .zone, scope: 1, epoch: 2, sequence: 3).encoded],
        "ck-request": [
            #"{"operations":[{"operationType":"create","record":{"recordName":"r1","recordType":"Recipe","fields":{"title":{"value":"Soup","type":"STRING"}}}}]}"#,
            #"{"query":{"recordType":"Recipe","filterBy":[{"fieldName":"title","comparator":"EQUALS","fieldValue":{"value":"Soup"}}]}}"#,
        ],
    ]

    static let page = """
        <!doctype html><html><head><title>Soup</title>
        <script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Soup",
        "recipeIngredient":["1 onion"],"recipeInstructions":[{"@type":"HowToStep","text":"Simmer."}]}</script>
        </head><body></body></html>
        """

    @Test("every fuzz target survives its regression corpus", arguments: FuzzRegressionTests.targets.map(\.name))
    func regressionCorpus(name: String) async throws {
        let target = try #require(FuzzRegressionTests.target(name))
        let files = Self.regressions(name).filter { $0.lastPathComponent != "README.md" }
        try await offCooperativePool {
            for file in files { _ = target.run(Array(try Data(contentsOf: file))) }
        }
    }

    @Test(
        "every fuzz target reads its valid seeds, and survives them cut short",
        arguments: FuzzRegressionTests.targets.map(\.name))
    func seedsAreRead(name: String) async throws {
        let target = try #require(FuzzRegressionTests.target(name))
        let seeds = try Self.seeds(target)
        try #require(!seeds.isEmpty, "no seed for \(name)")
        let read = try await offCooperativePool {
            let read = seeds.map { target.run($0) }
            // Truncations and a flipped byte of the small seeds: the cheapest mutations, on every run.
            for seed in seeds.filter({ $0.count <= 64 << 10 }).prefix(3) {
                for cut in stride(from: 0, to: seed.count, by: max(1, seed.count / 8)) {
                    _ = target.run(Array(seed[..<cut]))
                }
                var flipped = seed
                if !flipped.isEmpty { flipped[flipped.count / 2] ^= 0xFF }
                _ = target.run(flipped)
            }
            return read
        }
        #expect(read.contains { $0 > 0 }, "\(name) read nothing from \(seeds.count) valid seeds")
    }

    @Test("the query target reaches SQL and records: a plain query answers with the fixture's two recipes")
    func queryTargetReachesRecords() throws {
        let target = try #require(FuzzRegressionTests.target("ck-query"))
        #expect(target.run(Array(#"{"query":{"recordType":"Recipe"}}"#.utf8)) == 3)
        let filtered =
            #"{"query":{"recordType":"Recipe","filterBy":[{"fieldName":"title","comparator":"EQUALS","fieldValue":{"value":"Stew"}}]}}"#
        #expect(target.run(Array(filtered.utf8)) == 2)
    }

    @Test("each target name is one binary's: larder-fuzz and larder-fuzz-emulator share none")
    func targetNamesAreDistinct() {
        let names = Self.targets.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Set(EmulatorFuzzTargets.all.map(\.name)) == ["ck-query", "multipart"])
    }

    @Test("the regression corpus only names targets that exist")
    func corpusFoldersNameTargets() throws {
        let folder = Self.root.appendingPathComponent("Fuzz/regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "README.md" }
        let known = Set(FuzzRegressionTests.targets.map(\.name))
        #expect(names.filter { !known.contains($0) }.isEmpty)
    }
}
