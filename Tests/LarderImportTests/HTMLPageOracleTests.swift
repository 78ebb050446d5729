import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Imports every whole page of the html corpus (pages with no schema.org Recipe in JSON-LD)
/// and compares the result with recipe-scrapers' expected output, field by field, and counts
/// which reader found each recipe.
@Suite struct HTMLPageOracleTests {
    /// The reader an import origin names (`microdata`, `RDFa`, `recipe card (…)`, `page text`;
    /// an `ld+json block` is JSON-LD).
    private static func reader(_ origin: ImportOrigin) -> String {
        guard let entry = origin.entry, !entry.hasPrefix("ld+json") else { return "JSON-LD" }
        return entry.hasPrefix("recipe card") ? "recipe card" : entry
    }

    @Test(
        "agrees with the recipe-scrapers oracle on whole pages without JSON-LD",
        .enabled(if: Corpus.has("html"), "needs ../shared/corpus/html (or LARDER_CORPUS)"))
    func agreesWithOracle() throws {
        let root = URL(fileURLWithPath: Corpus.path("html"))
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".html") }
            .sorted()
        #expect(files.count > 50)
        var score = OracleScore()
        var readers: [String: Int] = [:]
        var rejected: [String] = []
        for file in files {
            let stem = String(file.dropLast(".html".count))
            let expectedData = try Data(contentsOf: root.appendingPathComponent(stem + ".expected.json"))
            let expected = try JSONLDBlocks.parse(MemoryByteSource(Array(expectedData), name: stem + ".expected.json"))
            let sink = ImportCollector()
            try SchemaOrgImporter().importItems(at: root.appendingPathComponent(file).path, context: sink.context)
            guard let (recipe, origin) = sink.recipes.first else {
                rejected.append("\(file): \(sink.rejects.first.map { "\($0.0)" } ?? "no recipe")")
                readers["none", default: 0] += 1
                score.countMissing(expected: expected)
                continue
            }
            readers[Self.reader(origin), default: 0] += 1
            score.compare(recipe, with: expected, label: "\(file) (\(Self.reader(origin)))")
        }
        try score.report("html oracle", diffPath: "/tmp/html-oracle-diff.txt")
        for (reader, count) in readers.sorted(by: { $0.key < $1.key }) {
            print("html oracle: reader \(reader): \(count) of \(files.count)")
        }
        print("html oracle: rejected \(rejected.count) of \(files.count)")
        for line in rejected { print("  rejected: \(line)") }
        // Floors at the figures reached (rounded down), so a regression fails.
        #expect(score.share("title") >= 0.91)
        #expect(score.share("ingredients") >= 0.74)
        #expect(score.share("instructions") >= 0.70)
        #expect(score.share("yields") >= 0.69)
        #expect(score.share("total_time") >= 0.82)
        #expect(score.share("prep_time") >= 0.72)
        #expect(score.share("cook_time") >= 0.73)
    }
}
