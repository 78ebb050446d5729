import Foundation
import LarderTestSupport
import Testing

/// `larder import` of the Cookbook app's exports (pages and the older YAML files) and of BigOven's
/// recipe JSON and CSV, through the built binary.
@Suite struct CookbookAppBigOvenCLITests {
    private static func sample(_ name: String) -> String {
        CLI.packageRoot.appendingPathComponent("samples/import/\(name)").path
    }

    private static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(
        "each sample imports with --from auto to its importer, with its field census in the report; a re-run adds nothing",
        arguments: [
            ("cookbookapp-export.zip", "cookbookapp", "recipeIngredient", "ingredients", 1),
            ("cookbookapp-yaml.zip", "cookbookapp", "directions", "instructions", 0),
            ("bigoven-recipes.json", "bigoven", "Ingredients[].PreparationNotes", "ingredients", 0),
            ("bigoven-recipes.csv", "bigoven", "IngredientsTextBlock", "ingredients", 0),
        ])
    func importsSample(_ name: String, _ format: String, _ field: String, _ larderField: String, _ images: Int) throws {
        let dir = try TemporaryDirectory()
        let args = [
            "import", Self.sample(name), "--from", "auto", "-o", dir.path("out.json"), "--report", dir.path("r.json"),
        ]
        let first = try CLI.run(args)
        #expect(first.status == 0, "\(first.stderr)")
        let report = try Self.object(try dir.read("r.json"))
        let counts = try #require(report["counts"] as? [String: Any])
        #expect(counts["imported"] as? Int == 2, "\(report)")
        #expect(counts["rejected"] as? Int == 0)
        #expect(counts["images"] as? Int == images)
        let census = try #require(report["census"] as? [[String: Any]])
        #expect(census.map { $0["format"] as? String } == [format])
        #expect(census.first?["records"] as? Int == 2)
        let fields = try #require(census.first?["fields"] as? [[String: Any]])
        let line = try #require(fields.first { $0["field"] as? String == field }, "no census line for \(field)")
        #expect((line["carried"] as? [String: Any])?[larderField] as? Int == 2, "\(line)")
        let again = try CLI.run(args + ["--merge"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("0 imported, 0 rejected, 2 duplicate"), "\(again.stderr)")
    }

    @Test("bad entries go to the rejects file with their archive entry, index and field path; their siblings import")
    func rejectsNameEntryAndField() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.path("cookbook.zip")
        try ImportSecurityCLITests.zip(
            [
                ("Tea.yml", Array("name: Tea\ningredients: 1 tea bag\ndirections: Steep.\n".utf8)),
                (
                    "Jam.yml",
                    Array("name: Jam\ningredients:\n  - 1 kg fruit\n  - {sugar: 1 kg}\ndirections: Boil.\n".utf8)
                ),
            ], at: zip)
        let json = try dir.write(
            "bigoven.json", #"[{"RecipeID":1,"Title":"Toast","Instructions":"Toast."},{"RecipeID":2,"Cuisine":"x"}]"#)
        let result = try CLI.run(
            [
                "import", zip, json, "--keep-going", "--rejects", dir.path("rej.ndjson"), "-o", dir.path("out.json"),
            ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("2 imported, 2 rejected"), "\(result.stderr)")
        let rejects = try dir.read("rej.ndjson")
        #expect(rejects.contains("cookbook.zip!Jam.yml"), "\(rejects)")
        #expect(rejects.contains("\"path\":\"ingredients[1]\""), "\(rejects)")
        #expect(rejects.contains("\"path\":\"Title\""), "\(rejects)")
        #expect(try dir.read("out.json").contains("\"Tea\""))
    }

    @Test(
        "a zip of pages no app claims is read like the folder it was made from: each page as a web page; --from cookbookapp reads its recipe pages"
    )
    func fromCookbookAppOverridesDetection() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.path("pages.zip")
        let pie =
            "<html><body><div itemscope itemtype=\"https://schema.org/Recipe\"><h1 itemprop=\"name\">Pie</h1>"
            + "<ul><li itemprop=\"recipeIngredient\">1 pastry case</li></ul></div></body></html>"
        try ImportSecurityCLITests.zip(
            [("About.html", Array("<html><body><p>My recipes</p></body></html>".utf8)), ("Pie.html", Array(pie.utf8))],
            at: zip)
        let auto = try CLI.run([
            "import", zip, "--keep-going", "--rejects", dir.path("ra.ndjson"), "-o", dir.path("a.json"),
        ])
        #expect(auto.status == 1, "About.html holds no recipe: \(auto.stderr)")
        #expect(auto.stderr.contains("1 imported, 1 rejected"), "\(auto.stderr)")
        #expect(auto.stderr.contains("pages.zip!About.html"), "\(auto.stderr)")
        let result = try CLI.run(
            [
                "import", zip, "--from", "cookbookapp", "--keep-going", "-o", dir.path("b.json"), "--rejects",
                dir.path("r"),
            ])
        #expect(result.status == 1, "About.html holds no recipe: \(result.stderr)")
        #expect(result.stderr.contains("1 imported, 1 rejected"), "\(result.stderr)")
        #expect(result.stderr.contains("Cookbook app (1 record)"), "\(result.stderr)")
        let csv = try CLI.run([
            "import", Self.sample("bigoven-recipes.csv"), "--from", "bigoven", "-o", dir.path("c.json"),
        ])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stderr.contains("BigOven (2 records)"), "\(csv.stderr)")
    }
}
