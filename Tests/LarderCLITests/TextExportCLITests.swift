import Foundation
import LarderTestSupport
import Testing

/// `larder import` on the text and page exports of recipe apps (Pepperplate, ChefTap, Saffron,
/// Gourmet): detected by content, with the field census in the report, and re-runs add nothing.
@Suite struct TextExportCLITests {
    @Test(
        "each app's sample imports with --from auto, its report names the format's census, and a re-run adds nothing",
        arguments: [
            ("pepperplate-export.zip", "pepperplate"), ("cheftap-export.zip", "cheftap"),
            ("saffron-export.zip", "saffron"), ("gourmet-export.zip", "gourmet"),
        ])
    func importsSample(_ name: String, _ format: String) throws {
        let dir = try TemporaryDirectory()
        let args = [
            "import", CLI.packageRoot.appendingPathComponent("samples/import/\(name)").path, "--from", "auto", "-o",
            dir.path("out.json"), "--report", dir.path("r.json"),
        ]
        let first = try CLI.run(args)
        #expect(first.status == 0, "\(first.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(try dir.read("r.json").utf8)) as? [String: Any])
        #expect((report["counts"] as? [String: Any])?["imported"] as? Int == 2, "\(report)")
        let census = try #require(report["census"] as? [[String: Any]])
        #expect(census.map { $0["format"] as? String } == [format])
        #expect(census.first?["records"] as? Int == 2)
        let again = try CLI.run(args + ["--merge"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("0 imported"), "\(again.stderr)")
        #expect(again.stderr.contains("2 duplicate"), "\(again.stderr)")
    }
}
