import Foundation
import LarderTestSupport
import Testing

/// Record-derived text printed for people (diagnostics, summaries, dedupe explanations) has its
/// control characters escaped, so a title cannot clear or rewrite the user's terminal.
@Suite struct TerminalEscapeTests {
    static let escape = "\u{1B}"

    @Test("a title containing ESC [2J is escaped in diagnostics and dedupe explanations, untouched in the output data")
    func escapeSequencesInTitles() throws {
        let directory = try TemporaryDirectory()
        let bad = try directory.write(
            "bad.json",
            #"[{"id":"a","title":"\u001b[2JHacked","servings":"\u001b[2J","ingredients":[],"instructions":[],"createdAt":"2024-01-01T00:00:00Z"}]"#
        )
        let convert = try CLI.run(["convert", bad, "--to", "json", "-o", directory.path("out.json")])
        #expect(convert.status == 1)
        #expect(convert.stderr.contains(#"found "\u{1B}[2J""#), "\(convert.stderr)")
        #expect(!convert.stderr.contains(Self.escape))
        let validate = try CLI.run(["validate", bad])
        #expect(validate.status == 1)
        #expect(!validate.stderr.contains(Self.escape), "\(validate.stderr)")

        let recipe =
            #"{"id":"ID","title":"\u001b[2JSoup","servings":2,"ingredients":[],"instructions":[],"createdAt":"2024-01-01T00:00:00Z"}"#
        let saved = try directory.write("saved.ndjson", recipe.replacingOccurrences(of: "ID", with: "s-1") + "\n")
        let created = try directory.write("created.ndjson", recipe.replacingOccurrences(of: "ID", with: "c-1") + "\n")
        let explain = try CLI.run([
            "dedupe", "--saved", saved, "--created", created, "--explain", "s-1", "-o", directory.path("merged.ndjson"),
        ])
        #expect(explain.stdout.contains(#"\u{1B}[2JSoup"#), "\(explain.stdout)\n\(explain.stderr)")
        #expect(!explain.stdout.contains(Self.escape) && !explain.stderr.contains(Self.escape))

        // Machine output keeps the data exactly.
        let good = try directory.write("good.ndjson", recipe.replacingOccurrences(of: "ID", with: "g-1") + "\n")
        let yaml = try CLI.run(["convert", good, "--to", "ndjson"])
        #expect(yaml.status == 0, "\(yaml.stderr)")
        #expect(yaml.stdout.contains(#""title":"\u001b[2JSoup""#), "\(yaml.stdout)")
    }
}
