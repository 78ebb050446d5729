import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// The leaf census over every sample and every real file `larder import` reads: no source leaf is
/// neither carried, kept nor dropped with a reason.
@Suite struct LeafCensusCorpusTests {
    /// The corpus inputs `larder import` reads, by folder and file extension (`""`: the folder whole).
    static let corpusInputs: [(folder: String, ext: String)] = [
        ("schemaorg", "jsonld"), ("html", "html"), ("orf", "yaml"), ("cooklang", "cook"),
        ("exports/cooklang/cookcli-seed", ""), ("exports/mealmaster", "txt"), ("exports/mealmaster", "mmf"),
        ("exports/openeats/openeats-api-fixtures", ""), ("exports/beanconqueror", "json"),
    ]

    /// Imports `inputs` in one session and checks its leaf census; returns the summary.
    static func check(_ inputs: [String], what: String) throws -> CensusTally {
        let dir = try TemporaryDirectory()
        let (report, _) = try ImportFixtures.session(inputs, in: dir)
        let tally = report.census
        var lines = ["\(what): leaf census per format (carried / kept (unmapped) / dropped / lost)"]
        for format in tally.leaves.formats {
            let t = tally.leaves.total(format)
            lines.append(
                "  \(format.rawValue): \(tally.records[format] ?? 0) records, \(t.carried) / \(t.kept) (\(t.unmapped)) / \(t.dropped) / \(t.lost)"
            )
            for (path, count) in tally.leaves.unmapped(format).prefix(12) {
                lines.append("      unmapped \(path): \(count)")
            }
            #expect(t.lost == 0, "\(format.rawValue) lost leaves: \(tally.leaves.lost(format))")
        }
        print(lines.joined(separator: "\n"))
        // Every recipe format counted its leaves (brew logs have the field census alone).
        for format in tally.records.keys where format != .beanconqueror {
            #expect(tally.leaves.formats.contains(format), "\(format.rawValue) has no leaf census")
        }
        return tally
    }

    @Test("Larder's own records import with every leaf carried: a step's `Step 1:` label is not a loss")
    func ownRecordsAddNoExtras() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("g.json")
        let result = try CLI.run(["generate", "--type", "recipe", "-n", "50", "-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        let (report, records) = try ImportFixtures.session([path], in: dir)
        let totals = report.census.leaves.total(.plain)
        #expect(
            totals.carried > 0 && totals.unmapped == 0 && totals.lost == 0, "\(report.census.leaves.unmapped(.plain))")
        #expect(records.allSatisfy { $0["extras"]?["plain"] == nil }, "extras added to Larder's own records")
    }

    @Test("every sample's leaves are carried, kept or dropped with a reason")
    func samples() throws {
        let folder = CLI.packageRoot.appendingPathComponent("samples/import")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "README.md" }
            .sorted()
        let tally = try Self.check(names.map { folder.appendingPathComponent($0).path }, what: "samples")
        #expect(tally.leaves.formats.count >= 25)
    }

    @Test(
        "every real file's leaves are carried, kept or dropped with a reason",
        .enabled(if: Corpus.has("schemaorg") && Corpus.has("exports"), "needs ../shared/corpus"))
    func corpus() throws {
        var inputs: [String] = []
        for (folder, ext) in Self.corpusInputs where Corpus.has(folder) {
            let path = Corpus.path(folder)
            if ext.isEmpty {
                inputs.append(path)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix("." + ext) }
            inputs += names.sorted().map { path + "/" + $0 }
        }
        let tally = try Self.check(inputs, what: "corpus")
        #expect(tally.leaves.total(.schemaorg).carried > 10_000)
    }
}
