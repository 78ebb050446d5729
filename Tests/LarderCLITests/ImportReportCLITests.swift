import Foundation
import LarderTestSupport
import Testing

/// `larder import --report FILE`: the whole report, field census included, as JSON.
@Suite struct ImportReportCLITests {
    private static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a web page nothing recognises is reported as such: stderr, the rejects file and the report name it")
    func reportsUnrecognisedPage() throws {
        let dir = try TemporaryDirectory()
        let page = try dir.write(
            "about.html",
            "<html><head><title>About us</title></head><body><h1>About us</h1><p>We sell pans.</p></body></html>")
        let result = try CLI.run(
            [
                "import", page, "--keep-going", "--rejects", dir.path("rej.ndjson"), "-o", dir.path("r.json"),
                "--report", dir.path("report.json"),
            ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("no schema.org Recipe found"), "\(result.stderr)")
        #expect(result.stderr.contains("0 imported, 1 rejected"), "\(result.stderr)")
        #expect(try dir.read("rej.ndjson").contains("microdata, RDFa, recipe-plugin cards and headed ingredient lists"))
        let report = try Self.object(try dir.read("report.json"))
        #expect((report["counts"] as? [String: Any])?["rejected"] as? Int == 1)
        #expect((report["rejected"] as? [[String: Any]])?.first?["origin"] as? String == page)
    }

    @Test("--report writes counts, the rejects summary and the field census as JSON, and stderr shows the census")
    func writesCensusReport() throws {
        let dir = try TemporaryDirectory()
        let good = try dir.write(
            "tatin.jsonld",
            #"{"@context":"https://schema.org","@type":"Recipe","name":"Tatin","recipeIngredient":["6 apples"],"#
                + #""recipeInstructions":"Bake.","cookingMethod":"Baking","publisher":{"name":"Larder Kitchen"}}"#)
        let bad = try dir.write("bad.jsonld", #"{"@type":"Recipe","recipeIngredient":["1 egg"]}"#)
        let paprika = try dir.write(
            "two.json",
            #"[{"uid":"11111111-2222-3333-4444-555555555501","name":"Egg","ingredients":"1 egg","directions":"Boil.","#
                + #""hash":"h"},{"uid":"11111111-2222-3333-4444-555555555502","directions":"Nameless."}]"#)
        let result = try CLI.run(
            [
                "import", good, bad, paprika, "--keep-going", "--rejects", dir.path("rej.ndjson"), "-o",
                dir.path("r.json"),
                "--report", dir.path("report.json"),
            ])
        #expect(result.status == 1, "one item was rejected: \(result.stderr)")
        #expect(result.stderr.contains("field census"), "\(result.stderr)")
        #expect(result.stderr.contains("cookingMethod: 1 kept in extras"), "\(result.stderr)")
        #expect(result.stderr.contains("publisher: 1 carried → sourceName"), "\(result.stderr)")
        let report = try Self.object(try dir.read("report.json"))
        let counts = try #require(report["counts"] as? [String: Any])
        #expect(counts["imported"] as? Int == 2)
        #expect(counts["rejected"] as? Int == 2)
        #expect(counts["duplicates"] as? Int == 0)
        let rejects = try #require(report["rejects"] as? [String: Any])
        #expect(rejects["count"] as? Int == 2)
        #expect(rejects["file"] as? String == dir.path("rej.ndjson"))
        #expect((rejects["byInput"] as? [String: Any])?[bad] as? Int == 1)
        #expect((rejects["byInput"] as? [String: Any])?[paprika] as? Int == 1, "\(rejects)")
        #expect((report["rejected"] as? [[String: Any]])?.first?["origin"] as? String == bad)
        let census = try #require(report["census"] as? [[String: Any]])
        #expect(census.map { $0["format"] as? String } == ["paprika", "schemaorg"])
        #expect((census[0]["fields"] as? [[String: Any]])?.contains { $0["field"] as? String == "hash" } == true)
        let schemaorg = census[1]
        #expect(schemaorg["format"] as? String == "schemaorg")
        #expect(schemaorg["records"] as? Int == 1)
        let fields = try #require(schemaorg["fields"] as? [[String: Any]])
        func field(_ name: String) -> [String: Any]? { fields.first { $0["field"] as? String == name } }
        #expect((field("name")?["carried"] as? [String: Any])?["title"] as? Int == 1)
        #expect(field("cookingMethod")?["extras"] as? Int == 1)
        let dropped = try #require(field("@context")?["dropped"] as? [[String: Any]])
        #expect(dropped.first?["count"] as? Int == 1)
        let reason = dropped.first?["reason"] as? String ?? ""
        #expect(reason.contains("JSON-LD"), "\(reason)")
        // The record itself keeps the field verbatim.
        #expect(
            try dir.read("r.json").contains("\"cookingMethod\" : \"Baking\"")
                || dir.read("r.json").contains("\"cookingMethod\": \"Baking\""))
        // Written atomically: no temporary file is left beside it.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path(".")).filter {
            $0.hasPrefix("report.json") && $0 != "report.json"
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
