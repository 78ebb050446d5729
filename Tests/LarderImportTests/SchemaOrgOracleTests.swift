import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Imports every real page of the schema.org corpus and compares the result with
/// recipe-scrapers' expected output, field by field.
@Suite struct SchemaOrgOracleTests {
    @Test(
        "agrees with the recipe-scrapers oracle on title, ingredients, instructions, yields and times",
        .enabled(if: Corpus.has("schemaorg"), "needs ../shared/corpus/schemaorg (or LARDER_CORPUS)"))
    func agreesWithOracle() throws {
        let root = URL(fileURLWithPath: Corpus.path("schemaorg"))
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".jsonld") }
            .sorted()
        #expect(files.count > 400)
        var score = OracleScore()
        var rejected: [String] = []
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
            score.compare(recipe, with: expected, label: file)
        }
        try score.report("schema.org oracle", diffPath: "/tmp/oracle-diff.txt")
        print("schema.org oracle: rejected \(rejected.count) of \(files.count)")
        for line in rejected { print("  rejected: \(line)") }
        #expect(rejected.isEmpty)
        #expect(score.share("title") >= 0.99)
        #expect(score.share("ingredients") >= 0.85)
        #expect(score.share("instructions") >= 0.88)
        for key in ["yields", "total_time", "prep_time", "cook_time"] {
            #expect(score.share(key) >= 0.90, "\(key)")
        }
    }
}
