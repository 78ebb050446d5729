import Foundation
import LarderFormats
import LarderTestSupport
import Testing

/// What real users hold, imported without `--from`.
///
/// Folders of one format's files, an app export spread over several files, and zips whose markup
/// or layout the first detection missed.
@Suite struct FolderDetectionCLITests {
    static func sample(_ name: String) -> String {
        CLI.packageRoot.appendingPathComponent("samples/import/\(name)").path
    }

    /// `larder import <path> -o out.json --keep-going`, and the titles written.
    static func importTitles(_ path: String, _ extra: [String] = []) throws -> (CLIResult, [String]) {
        let directory = try TemporaryDirectory()
        let output = directory.path("out.json")
        let result = try CLI.run(
            ["import", path, "-o", output, "--keep-going", "--rejects", directory.path("r.ndjson")] + extra)
        guard let data = FileManager.default.contents(atPath: output),
            let document = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let records = document["records"] as? [[String: Any]]
        else { return (result, []) }
        return (result, records.compactMap { $0["title"] as? String })
    }

    @Test("a folder of RecipeML .xml files imports each file, and names a file nothing claims")
    func recipeMLFolder() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("box/sub"), withIntermediateDirectories: true)
        for name in ["one.xml", "sub/two.xml"] {
            try FileManager.default.copyItem(
                atPath: Self.sample("cafe-scones.xml"), toPath: directory.path("box/\(name)"))
        }
        try Data("just some notes\n".utf8).write(to: URL(fileURLWithPath: directory.path("box/notes.txt")))
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: URL(fileURLWithPath: directory.path("box/photo.jpg")))
        let (result, titles) = try Self.importTitles(directory.path("box"))
        #expect(result.status == 0, "\(result.stderr)")
        // The same recipe twice is one recipe and a duplicate; the notes are named, the photo is not.
        #expect(titles.count == 1 && titles.first?.hasPrefix("Caf") == true, "\(titles)")
        #expect(result.stderr.contains("notes.txt") && result.stderr.contains("no recipe format claims this file"))
        #expect(!result.stderr.contains("photo.jpg"))
    }

    @Test(
        "a folder of Open Recipe Format .yaml files imports without --from",
        .enabled(if: Corpus.has("orf"), "needs ../shared/corpus/orf"))
    func orfFolder() throws {
        let (result, titles) = try Self.importTitles(Corpus.path("orf"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(titles.count >= 2, "\(titles)\n\(result.stderr)")
    }

    @Test(
        "a folder of MealMaster files imports without --from; its LICENSE and README are named, not read",
        .enabled(if: Corpus.has("exports/mealmaster"), "needs ../shared/corpus/exports/mealmaster"))
    func mealMasterFolder() throws {
        let (result, titles) = try Self.importTitles(Corpus.path("exports/mealmaster"))
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        #expect(titles.count >= 100, "\(titles.count)")
        #expect(result.stderr.contains("LICENSE.gourmet"))
    }

    @Test(
        "an OpenEats dump split into recipe, ingredient, course and cuisine files imports as one dump",
        .enabled(if: Corpus.has("exports/openeats"), "needs ../shared/corpus/exports/openeats"))
    func openEatsSplitDump() throws {
        let folder = Corpus.path("exports/openeats/openeats-api-fixtures")
        let (result, titles) = try Self.importTitles(folder)
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        #expect(titles.count >= 25, "\(titles.count): \(result.stderr)")
        // The ingredients joined from their own file reached the recipes.
        let directory = try TemporaryDirectory()
        _ = try CLI.run([
            "import", folder, "-o", directory.path("out.json"), "--keep-going", "--rejects", directory.path("r.ndjson"),
        ])
        let text = try String(contentsOfFile: directory.path("out.json"), encoding: .utf8)
        #expect(text.contains("\"ingredients\":[{") || text.contains("\"ingredients\": [\n"), "no ingredient joined")
        // And the folder given with --from openeats is the same unit.
        let (forced, forcedTitles) = try Self.importTitles(folder, ["--from", "openeats"])
        #expect(forcedTitles.count == titles.count, "\(forced.stderr)")
    }

    @Test("--from on a folder reads every file below it as that format")
    func fromOnAFolder() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("mm"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.sample("mealmaster-classics.mmf"), toPath: directory.path("mm/classics.txt"))
        let (result, titles) = try Self.importTitles(directory.path("mm"), ["--from", "mealmaster"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!titles.isEmpty)
        #expect(!result.stderr.contains("is a directory"))
    }

    @Test("a CopyMeThat zip whose markup writes class = \"recipe\" with spaces is recognised")
    func copyMeThatWithSpaces() throws {
        let directory = try TemporaryDirectory()
        // The sample export, its page rewritten with spaces around '=' as the real export writes it.
        let extract = try CLI.runProgram(
            "/usr/bin/env",
            ["python3", "-c", Self.respaceScript, Self.sample("copymethat-export.zip"), directory.path("cmt.zip")],
            timeout: 60)
        #expect(extract.status == 0, "\(extract.stderr)")
        let (result, titles) = try Self.importTitles(directory.path("cmt.zip"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!titles.isEmpty)
    }

    /// Copies a zip, rewriting `recipes.html` with `attr = "value"` spacing.
    static let respaceScript = """
        import re, sys, zipfile
        src, dst = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
            for item in zin.infolist():
                data = zin.read(item.filename)
                if item.filename.endswith("recipes.html"):
                    data = re.sub(rb'(class|id)="', rb'\\1 = "', data)
                    assert b'class = "recipe"' in data
                zout.writestr(item, data)
        """

    @Test("a Plan to Eat export zip (one plantoeat.csv inside) is recognised and read")
    func planToEatZip() throws {
        let directory = try TemporaryDirectory()
        let sink = try FileByteSink(path: directory.path("plantoeat-export.zip"))
        let zip = ZipWriter(sink: sink)
        let csv = try #require(FileManager.default.contents(atPath: Self.sample("plantoeat-recipes.csv")))
        try zip.add(path: "plantoeat.csv", bytes: Array(csv))
        try zip.finish()
        let (result, titles) = try Self.importTitles(directory.path("plantoeat-export.zip"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!titles.isEmpty)
        let (forced, forcedTitles) = try Self.importTitles(
            directory.path("plantoeat-export.zip"), ["--from", "plantoeat"])
        #expect(forced.status == 0 && forcedTitles == titles, "\(forced.stderr)")
    }

    @Test("a folder of more zips than open files allowed, each read entry by entry, imports: a plan holds no open file")
    func manyZipsInAFolder() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("zips"), withIntermediateDirectories: true)
        let page = try String(contentsOfFile: Self.sample("cafe-scones.xml"), encoding: .isoLatin1)
        for index in 0..<80 {
            let xml = page.replacingOccurrences(of: "Scones", with: "Scones \(index)")
            try ImportSecurityCLITests.zip(
                [("recipe-\(index).xml", Array(xml.utf8))], at: directory.path("zips/box-\(index).zip"))
        }
        let output = directory.path("out.json")
        let command =
            "ulimit -n 48 && '\(CLI.executable.path)' import '\(directory.path("zips"))' -o '\(output)' --keep-going "
            + "--rejects '\(directory.path("r.ndjson"))'"
        let result = try CLI.runProgram("/bin/sh", ["-c", command], timeout: 300)
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        #expect(result.stderr.contains("80 imported"), "\(result.stderr.suffix(500))")
    }
}
