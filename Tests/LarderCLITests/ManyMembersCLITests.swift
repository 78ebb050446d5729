import Foundation
import LarderTestSupport
import Testing

/// Security round 3: one record of very many members costs time linear in its size.
///
/// Before: `convert` of 50,000 members 76 s, `import --from plain` 110 s, a CSV
/// of 200,000 columns 233 s. Each runs under a one-minute limit, which the quadratic code missed
/// by far at these sizes.
@Suite struct ManyMembersCLITests {
    static let count = 100_000

    /// One recipe with `count` extra members `k0`, `k1`, … in JSON.
    static func wideJSON() -> String {
        "[{\"id\":\"r1\",\"title\":\"Wide\",\"ingredients\":[],\"instructions\":[],"
            + "\"createdAt\":\"2024-01-01T10:00:00Z\","
            + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}]"
    }

    @Test("many members attack: convert of one record of 100,000 members, JSON and YAML", .timeLimit(.minutes(5)))
    func convertWideRecord() throws {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("wide.json")
        try Data(Self.wideJSON().utf8).write(to: input)
        let yaml = directory.url.appendingPathComponent("wide.yaml").path
        let toYAML = try CLI.run(["convert", input.path, "--to", "yaml", "-o", yaml])
        #expect(toYAML.status == 0, "\(toYAML.stderr)")
        let back = directory.url.appendingPathComponent("back.ndjson").path
        let toJSON = try CLI.run(["convert", yaml, "--to", "ndjson", "-o", back])
        #expect(toJSON.status == 0, "\(toJSON.stderr)")
        let text = try String(contentsOfFile: back, encoding: .utf8)
        #expect(text.contains("\"k99999\":99999"))
    }

    @Test("many members attack: import --from plain of one record of 100,000 members", .timeLimit(.minutes(5)))
    func importWideRecord() throws {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("wide.json")
        try Data(Self.wideJSON().utf8).write(to: input)
        let output = directory.url.appendingPathComponent("out.json").path
        let result = try CLI.run(["import", input.path, "--from", "plain", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        // Every unknown member is kept in extras.
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("\"k99999\""))
    }

    @Test("many members attack: a CSV of 100,000 columns imports", .timeLimit(.minutes(5)))
    func importWideCSV() throws {
        let directory = try TemporaryDirectory()
        let input = directory.url.appendingPathComponent("wide.csv")
        let header = (["title"] + (0..<Self.count).map { "c\($0)" }).joined(separator: ",")
        let row = (["Cake"] + (0..<Self.count).map(String.init)).joined(separator: ",")
        try Data((header + "\n" + row + "\n").utf8).write(to: input)
        let output = directory.url.appendingPathComponent("out.json").path
        let result = try CLI.run(["import", input.path, "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("\"c99999\""))
    }
}
