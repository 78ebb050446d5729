import Foundation
import LarderTestSupport
import Testing

@Suite struct ConvertCommandTests {
    static let badSamples: [String] = {
        let folder = CLI.packageRoot.appendingPathComponent("samples/bad")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasSuffix(".expected") && !$0.hasPrefix(".") }.sorted()
    }()

    @Test("every samples/bad file fails with its exact diagnostic and exit code 1", arguments: badSamples)
    func badSampleDiagnostic(name: String) throws {
        let path = "samples/bad/\(name)"
        let expected = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent(path + ".expected"), encoding: .utf8)
        let out = try TemporaryDirectory()
        let result = try CLI.run(["convert", path, "--to", "ndjson", "-o", out.path("out.ndjson")])
        #expect(result.status == 1)
        #expect(
            result.stderr.split(separator: "\n").first.map {
                "larder: " + expected.trimmingCharacters(in: .newlines) == String($0)
            } == true,
            "stderr was: \(result.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: out.path("out.ndjson")), "a failed run must leave no output file")
    }

    @Test("the issue's own diagnostic example, word for word")
    func compilerStyleDiagnostic() throws {
        let result = try CLI.run(["convert", "samples/bad/wrong-type.json", "--to", "json"])
        #expect(
            result.stderr.contains(
                "samples/bad/wrong-type.json:80:27: error: record 1: steps[2].timerSeconds: expected an integer, found \"5 min\""
            ))
        #expect(result.stderr.contains("\"timerSeconds\": \"5 min\""), "a caret snippet shows the source line")
    }

    @Test("--keep-going sends bad records to rejects and the counts add up to the input")
    func keepGoingAccounting() throws {
        let dir = try TemporaryDirectory()
        var lines: [String] = []
        for i in 0..<10 {
            let created = i % 3 == 0 ? "\"not a date\"" : "\"2024-01-01T00:00:00Z\""
            lines.append("{\"id\": \"r\(i)\", \"title\": \"Recipe \(i)\", \"createdAt\": \(created)}")
        }
        lines.insert("{\"id\": \"broken\", ", at: 5)  // a syntax error on its own line
        let input = try dir.write("in.ndjson", lines.joined(separator: "\n") + "\n")
        let result = try CLI.run([
            "convert", input, "--to", "json", "-o", dir.path("out.json"), "--keep-going", "--rejects",
            dir.path("rejects.ndjson"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("11 records: 6 written, 5 rejected"))
        let rejects = try dir.read("rejects.ndjson").split(separator: "\n")
        #expect(rejects.count == 5)
        #expect(rejects.allSatisfy { $0.contains("\"diagnostic\"") })
        let output = try dir.read("out.json")
        #expect(output.components(separatedBy: "\"id\":").count - 1 == 6)
    }

    @Test("clean runs exit 0, usage errors 2, missing files 3")
    func exitCodes() throws {
        #expect(try CLI.run(["convert", "samples/recipes.json", "--to", "ndjson", "-o", "/dev/null"]).status == 0)
        #expect(try CLI.run(["convert", "samples/recipes.json"]).status == 2)
        #expect(try CLI.run(["convert", "samples/recipes.json", "--to", "csv"]).status == 2)
        #expect(try CLI.run(["convert", "no/such/file.json", "--to", "json"]).status == 3)
        #expect(try CLI.run(["frobnicate"]).status == 2)
        #expect(try CLI.run(["--version"]).status == 0)
        #expect(try CLI.run(["convert", "--help"]).stdout.contains("--keep-going"))
    }

    @Test("reads standard input and writes standard output, like jq")
    func pipes() throws {
        let input = Data("[{\"id\": \"a\", \"title\": \"Toast\", \"createdAt\": \"2024-01-01T00:00:00Z\"}]".utf8)
        let result = try CLI.run(["convert", "-", "--to", "ndjson"], stdin: input)
        #expect(result.status == 0)
        #expect(result.stdout == "{\"id\":\"a\",\"title\":\"Toast\",\"createdAt\":\"2024-01-01T00:00:00Z\"}\n")
    }

    @Test("gzip output by name or flag is read back transparently")
    func gzipRoundTrip() throws {
        let dir = try TemporaryDirectory()
        #expect(
            try CLI.run(["convert", "samples/brew-logs.json", "--to", "ndjson", "-o", dir.path("logs.ndjson.gz")])
                .status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path("logs.ndjson.gz")))
        #expect(bytes.prefix(2) == Data([0x1f, 0x8b]))
        #expect(
            try CLI.run(["convert", dir.path("logs.ndjson.gz"), "--to", "json", "--gzip", "-o", dir.path("logs.bin")])
                .status == 0)
        let back = try CLI.run(["convert", dir.path("logs.bin"), "--to", "ndjson"])
        let original = try CLI.run(["convert", "samples/brew-logs.json", "--to", "ndjson"])
        #expect(back.stdout == original.stdout)
    }

    @Test("a failed run leaves an existing output file untouched")
    func atomicOutput() throws {
        let dir = try TemporaryDirectory()
        let out = try dir.write("out.json", "precious")
        let result = try CLI.run(["convert", "samples/bad/truncated.json", "--to", "json", "-o", out])
        #expect(result.status == 1)
        #expect(try dir.read("out.json") == "precious")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.url.path)
        #expect(leftovers == ["out.json"], "no temporary file is left behind")
    }

    @Test("validate reports every invalid record and exits 1")
    func validateReports() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write(
            "logs.json",
            """
            [{"id": "a", "recipeNameAtBrew": "V60", "doseGrams": 15, "targetYieldGrams": 250, "rating": 4, "createdAt": "2024-01-01T00:00:00Z"},
             {"id": "b", "recipeNameAtBrew": "V60", "doseGrams": 15, "targetYieldGrams": 250, "rating": 9, "createdAt": "2024-01-01T00:00:00Z"},
             {"id": "c", "recipeNameAtBrew": "V60", "doseGrams": 0, "targetYieldGrams": 250, "rating": 3, "createdAt": "2024-01-01T00:00:00Z"}]
            """)
        let result = try CLI.run(["validate", input, "--type", "brewLog"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("logs.json:2:93: error: record 1: rating: rating must be 1-5, found 9"))
        #expect(result.stderr.contains("record 2: doseGrams: dose must be greater than 0, found 0.0"))
        #expect(result.stderr.contains("3 records: 1 valid, 2 invalid"))
        for sample in ["samples/recipes.json", "samples/brew-recipes.json", "samples/brew-logs.json"] {
            #expect(try CLI.run(["validate", sample]).status == 0)
        }
    }
}
