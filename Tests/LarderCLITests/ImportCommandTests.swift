import Foundation
import LarderTestSupport
import Testing

@Suite struct ImportCommandTests {
    private func sample(_ name: String) -> String {
        CLI.packageRoot.appendingPathComponent("samples/import/\(name)").path
    }

    @Test(
        "imports a Paprika archive and a schema.org file; a re-run replaces the output, one with --merge adds nothing")
    func importsAndReRuns() throws {
        let dir = try TemporaryDirectory()
        let args = [
            "import", sample("sample.paprikarecipes"), sample("overnight-oats.jsonld"), "-o", dir.path("r.json"),
        ]
        let first = try CLI.run(args)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("4 imported, 0 rejected, 0 duplicate"))
        #expect(first.stderr.contains("imported: Buttermilk Pancakes"))
        let before = try dir.read("r.json")
        let second = try CLI.run(args + ["--merge"])
        #expect(second.status == 0)
        #expect(
            second.stderr.contains("0 imported, 0 rejected, 4 duplicate, 4 kept from the existing output (--merge)"))
        #expect(try dir.read("r.json") == before)
        // Without --merge the output is replaced, as convert, jq and yq replace theirs; the ids are the same.
        let third = try CLI.run(args)
        #expect(third.status == 0)
        #expect(third.stderr.contains("4 imported, 0 rejected, 0 duplicate"), "\(third.stderr)")
        #expect(third.stderr.contains("(replaced the existing file; --merge adds to it instead)"), "\(third.stderr)")
        func ids(_ text: String) throws -> [String] {
            let envelope = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return (envelope?["records"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try ids(dir.read("r.json")) == ids(before) && ids(before).count == 4)
        let validate = try CLI.run(["validate", dir.path("r.json")])
        #expect(validate.status == 0)
    }

    @Test("a re-run finds the images it wrote (same name, same bytes) instead of writing -2 copies")
    func reRunReusesImages() throws {
        let dir = try TemporaryDirectory()
        let args = ["import", sample("sample.paprikarecipes"), "-o", dir.path("r.json")]
        #expect(try CLI.run(args).stderr.contains("1 image written"))
        let again = try CLI.run(args)
        #expect(again.status == 0 && !again.stderr.contains("image written"), "\(again.stderr)")
        let images = try FileManager.default.contentsOfDirectory(atPath: dir.path("r-images"))
        #expect(images.count == 1, "\(images)")
        #expect(try dir.read("r.json").contains("r-images/\(images[0])"))
    }

    @Test("sends bad items to the rejects file with --keep-going and exits 1")
    func keepsGoing() throws {
        let dir = try TemporaryDirectory()
        let bad = try dir.write("bad.jsonld", #"{"@type":"Recipe","recipeIngredient":["1 egg"]}"#)
        let result = try CLI.run(
            [
                "import", bad, sample("shakshuka.cook"), "--keep-going", "--rejects", dir.path("rej.ndjson"), "-o",
                dir.path("r.ndjson"),
            ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("rejected: bad.jsonld"))
        #expect(try dir.read("rej.ndjson").contains("\"path\":\"name\""))
        #expect(try dir.read("r.ndjson").contains("Pan Shakshuka"))
    }

    @Test("a lone surrogate in an imported page becomes U+FFFD with a warning in the report")
    func loneSurrogateWarning() throws {
        let dir = try TemporaryDirectory()
        let page = try dir.write(
            "soup.jsonld",
            #"{"@type":"Recipe","name":"So\ud800up","recipeIngredient":["1 egg"],"recipeInstructions":"Cook."}"#)
        let result = try CLI.run(["import", page, "-o", dir.path("r.json"), "--report", dir.path("report.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("soup.jsonld")
                && result.stderr.contains("line 1, column 29: lone surrogate \\ud800"), "\(result.stderr)")
        #expect(try dir.read("report.json").contains("lone surrogate"))
        #expect(try dir.read("r.json").contains("So\u{FFFD}up"))
    }

    @Test("stops at the first bad item without --keep-going and writes nothing")
    func stopsWithoutKeepGoing() throws {
        let dir = try TemporaryDirectory()
        let bad = try dir.write("bad.jsonld", #"{"@type":"Recipe","recipeIngredient":["1 egg"]}"#)
        let result = try CLI.run(["import", sample("shakshuka.cook"), bad, "-o", dir.path("r.json")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.jsonld"))
        #expect(result.stderr.contains("name"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("r.json")))
    }

    @Test("refuses an unknown format with a usage error, and a missing file with an I/O error")
    func reportsUsageAndIOErrors() throws {
        let dir = try TemporaryDirectory()
        let unknown = try CLI.run(["import", try dir.write("x.txt", "hello")])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--from"))
        let missing = try CLI.run(["import", dir.path("nope.paprikarecipes")])
        #expect(missing.status == 3)
    }

    @Test("exports to Paprika, schema.org, Cooklang and RecipeML, and the Paprika archive imports back")
    func exportsEveryFormat() throws {
        let dir = try TemporaryDirectory()
        #expect(try CLI.run(["import", sample("sample.paprikarecipes"), "-o", dir.path("r.json")]).status == 0)
        for (format, output) in [
            ("paprika", "x.paprikarecipes"), ("schemaorg", "x.jsonld"), ("cooklang", "cook"), ("recipeml", "x.xml"),
        ] {
            let result = try CLI.run(["export", dir.path("r.json"), "--to", format, "-o", dir.path(output)])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(result.stderr.contains("3 exported"))
        }
        #expect(FileManager.default.fileExists(atPath: dir.path("cook/Buttermilk Pancakes.cook")))
        #expect(try dir.read("x.xml").contains("<recipeml version=\"0.5\">"))
        let back = try CLI.run(["import", dir.path("x.paprikarecipes"), "-o", dir.path("back.json")])
        #expect(back.status == 0)
        #expect(back.stderr.contains("3 imported"))
        let cook = try CLI.run(["import", dir.path("cook"), "-o", dir.path("cook.json")])
        #expect(cook.status == 0, "\(cook.stderr)")
        #expect(cook.stderr.contains("3 imported"))
    }
}
