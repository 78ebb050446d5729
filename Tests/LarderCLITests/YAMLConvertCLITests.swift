import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@Suite struct YAMLConvertCLITests {
    private func recipesJSON(in directory: TemporaryDirectory) throws -> String {
        let recipes = [
            Recipe.make(id: "r-1", title: "no", tags: ["yes", "Off", "1e3", "2024-01-01"]),
            Recipe.make(id: "r-2", title: "Soup\nwith two lines\n", servings: nil, tags: []),
        ]
        return try directory.write("recipes.json", try JSONWriter.string(.array(recipes.map(\.value))))
    }

    @Test("converts JSON to YAML and back without changing a record")
    func convertsJSONToYAMLAndBack() throws {
        let directory = try TemporaryDirectory()
        let json = try recipesJSON(in: directory)
        let toYAML = try CLI.run(["convert", json, "--to", "yaml", "-o", directory.path("recipes.yaml")])
        #expect(toYAML.status == 0, "\(toYAML.stderr)")
        #expect(toYAML.stderr.contains("2 records: 2 written, 0 rejected"))
        let yaml = try directory.read("recipes.yaml")
        #expect(yaml.hasPrefix("- id: r-1\n  title: 'no'\n"))

        let back = try CLI.run([
            "convert", directory.path("recipes.yaml"), "--to", "json", "-o", directory.path("back.json"),
        ])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try values(at: directory.path("back.json")) == values(at: json))
    }

    @Test("converts YAML from standard input to gzip'd YAML in an envelope and reads it back")
    func convertsStandardInputToEnvelope() throws {
        let directory = try TemporaryDirectory()
        let json = try recipesJSON(in: directory)
        let yaml = try CLI.run(["convert", json, "--to", "yaml"])
        #expect(yaml.status == 0)
        let gz = directory.path("out.yaml.gz")
        let enveloped = try CLI.run(
            ["convert", "-", "--to", "yaml", "--envelope", "-o", gz], stdin: Data(yaml.stdout.utf8))
        #expect(enveloped.status == 0, "\(enveloped.stderr)")
        let reader = try RecordIO.openReader(path: gz)
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 2)
        #expect(reader.header == EnvelopeHeader(schema: "recipe", version: RecordType.recipe.currentVersion))
    }

    @Test("stops at a YAML syntax error with its position and exit status 1, writing no output")
    func reportsYAMLSyntaxErrors() throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.write("bad.yaml", "- id: a\n  title: x: y\n")
        let result = try CLI.run(["convert", bad, "--to", "json", "-o", directory.path("out.json")])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("bad.yaml:2:11: error: record 0: mapping values are not allowed in this context"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.json")))
    }

    @Test("sends a YAML record holding .inf, which JSON cannot, to the rejects file and counts it")
    func rejectsNonFiniteNumbersForJSON() throws {
        let directory = try TemporaryDirectory()
        var bad = try #require(Recipe.make(id: "r-2").value.objectValue)
        bad["ingredients"] = [["item": "salt", "quantity": .double(.infinity), "original": "salt"]]
        let sink = MemoryByteSink()
        let writer = try YAMLWriter(sink: sink)
        try writer.write(Recipe.make(id: "r-1").value)
        try writer.write(.object(bad))
        try writer.finish()
        let input = try directory.write("inf.yaml", sink.text)
        let result = try CLI.run([
            "convert", input, "--to", "json", "-o", directory.path("out.json"), "--keep-going", "--rejects",
            directory.path("rejects.ndjson"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("2 records: 1 written, 1 rejected"), "\(result.stderr)")
        let rejects = try directory.read("rejects.ndjson")
        #expect(rejects.contains("\"quantity\":\".inf\""))
        #expect(rejects.contains("\"code\":\"unrepresentable\""))
        #expect(try values(at: directory.path("out.json")).count == 1)
    }

    private func values(at path: String) throws -> [Value] {
        let reader = try RecordIO.openReader(path: path)
        var values: [Value] = []
        while let item = try reader.next() { values.append(item.value) }
        return values
    }
}
