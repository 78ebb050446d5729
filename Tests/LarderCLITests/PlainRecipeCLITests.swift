import Foundation
import LarderTestSupport
import Testing

@Suite struct PlainRecipeCLITests {
    static let plainYAML = """
        - title: Pancakes
          serves: 4
          wine: Riesling
          ingredients:
            - 200 g flour
            - 2 Ei(er)
          steps: |
            Whisk.
            Fry.
        - title: Dal
          ingredients: [200 g red lentils]
          steps: [Simmer.]
        - title: Toast
          ingredients: [2 slices bread]
          steps: [Toast.]
        """

    private func hintCount(_ stderr: String) -> Int {
        stderr.components(separatedBy: "hint:").count - 1
    }

    @Test("larder import detects a hand-written YAML list as plain recipes and names the fields it cannot keep")
    func importsPlainYAML() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("recipes.yaml", Self.plainYAML)
        let result = try CLI.run(["import", input, "-o", dir.path("out.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("3 imported, 0 rejected"))
        #expect(result.stderr.contains("recipes.yaml#0: warning: not imported"), "\(result.stderr)")
        #expect(result.stderr.contains("wine"))
        #expect(try CLI.run(["validate", dir.path("out.json")]).status == 0)
        let output = try dir.read("out.json")
        #expect(output.contains("\"Ei\""), "Ei(er) is the item Ei")
    }

    @Test("larder convert stays strict on a plain file, and its error says once to use larder import")
    func convertHintsOnce() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("recipes.yaml", Self.plainYAML)
        let stopped = try CLI.run(["convert", input, "--to", "json", "-o", dir.path("out.json")])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.hasPrefix("larder: \(input):"), "\(stopped.stderr)")
        #expect(hintCount(stopped.stderr) == 1, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("larder import \(input)"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.json")))
        let kept = try CLI.run([
            "convert", input, "--to", "json", "-o", dir.path("out.json"), "--keep-going", "--rejects",
            dir.path("rejects.ndjson"),
        ])
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("3 records: 0 written, 3 rejected"), "\(kept.stderr)")
        #expect(hintCount(kept.stderr) == 1, "\(kept.stderr)")
    }

    @Test("larder migrate says once to use larder import when it rejects plain recipes")
    func migrateHintsOnce() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.write("recipes.yaml", Self.plainYAML)
        let stopped = try CLI.run(["migrate", input, "--type", "recipe", "--to", "3", "-o", dir.path("out.yaml")])
        #expect(stopped.status == 1, "\(stopped.stderr)")
        #expect(hintCount(stopped.stderr) == 1, "\(stopped.stderr)")
        let kept = try CLI.run([
            "migrate", input, "--type", "recipe", "--to", "3", "-o", dir.path("out.yaml"), "--keep-going", "--rejects",
            dir.path("rejects.ndjson"),
        ])
        #expect(kept.status == 1)
        #expect(hintCount(kept.stderr) == 1, "\(kept.stderr)")
        #expect(kept.stderr.contains("larder import"))
    }

    @Test("no hint when a Larder record is rejected for a reason a plain file would not explain")
    func noHintForLarderErrors() throws {
        let result = try CLI.run(["convert", "samples/bad/missing-field.json", "--to", "json"])
        #expect(result.status == 1)
        #expect(hintCount(result.stderr) == 0, "\(result.stderr)")
    }
}
