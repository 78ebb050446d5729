import Foundation
import LarderTestSupport
import Testing

/// `larder export --to mealie|tandoor|nextcloud|mela`: files, folders, standard output, atomic output.
@Suite struct ExportFormatsCLITests {
    private func sample(_ name: String) -> String {
        CLI.packageRoot.appendingPathComponent("samples/import/\(name)").path
    }

    /// Three recipes (the Paprika sample) and one (the Cooklang sample) as Larder records in `dir`.
    private func records(_ dir: TemporaryDirectory) throws {
        let three = try CLI.run(["import", sample("sample.paprikarecipes"), "-o", dir.path("three.json")])
        #expect(three.status == 0, "\(three.stderr)")
        let one = try CLI.run(["import", sample("shakshuka.cook"), "-o", dir.path("one.json")])
        #expect(one.status == 0, "\(one.stderr)")
    }

    @Test(
        "--to mealie, tandoor, nextcloud and mela write the app's export, which imports back (detected too)",
        arguments: [
            ("mealie", "mealie.zip"), ("tandoor", "tandoor.zip"), ("nextcloud", "Recipes"),
            ("nextcloud", "recipes.zip"),
            ("mela", "out.melarecipes"),
        ])
    func exportsAndImportsBack(format: String, output: String) throws {
        let dir = try TemporaryDirectory()
        try records(dir)
        let result = try CLI.run(["export", dir.path("three.json"), "--to", format, "-o", dir.path(output)])
        #expect(result.status == 0, "\(format): \(result.stderr)")
        #expect(result.stderr.contains("3 exported, 0 rejected"))
        let back = try CLI.run(["import", dir.path(output), "--from", format, "-o", dir.path("back.json")])
        #expect(back.status == 0, "\(format): \(back.stderr)")
        #expect(back.stderr.contains("3 imported"), "\(back.stderr)")
        // Without --from, detection recognises the export as the format it is.
        let detected = try CLI.run(["import", dir.path(output), "-o", dir.path("detected.json")])
        #expect(detected.stderr.contains("3 imported"), "\(format): \(detected.stderr)")
    }

    @Test("one recipe goes to standard output as the format's single-recipe file")
    func standardOutput() throws {
        let dir = try TemporaryDirectory()
        try records(dir)
        for (format, key) in [("mealie", "recipeIngredient"), ("tandoor", "working_time"), ("nextcloud", "@context")] {
            let result = try CLI.run(["export", dir.path("one.json"), "--to", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?[key] != nil, "\(format): \(result.stdout.prefix(200))")
            #expect(object?["name"] as? String == "Pan Shakshuka", "\(format)")
        }
        let mela = try CLI.run(["export", dir.path("one.json"), "--to", "mela", "-o", dir.path("one.melarecipe")])
        #expect(mela.status == 0, "\(mela.stderr)")
        let single = try JSONSerialization.jsonObject(with: Data(try dir.read("one.melarecipe").utf8)) as? [String: Any]
        #expect(single?["title"] as? String == "Pan Shakshuka")
        let back = try CLI.run(["import", dir.path("one.melarecipe"), "-o", dir.path("back.json")])
        #expect(back.stderr.contains("1 imported"), "\(back.stderr)")
        let archive = try CLI.run(["export", dir.path("one.json"), "--to", "mela"])
        #expect(archive.stdout.hasPrefix("PK"))
    }

    @Test("several recipes to a single-recipe file, or Mela to a folder, is a usage error naming the output; no file")
    func severalToSingleFile() throws {
        let dir = try TemporaryDirectory()
        try records(dir)
        let result = try CLI.run(["export", dir.path("three.json"), "--to", "tandoor", "-o", dir.path("x.json")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("x.json"))
        #expect(result.stderr.contains("one recipe"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.json")))
        // To standard output, nothing either: the first recipe is held until the export completes.
        for format in ["mealie", "nextcloud", "tandoor"] {
            let piped = try CLI.run(["export", dir.path("three.json"), "--to", format])
            #expect(piped.status == 2, "\(format): \(piped.stderr)")
            #expect(piped.stdout.isEmpty, "\(format) wrote \(piped.stdout.prefix(80))")
        }
        let mela = try CLI.run(["export", dir.path("one.json"), "--to", "mela", "-o", dir.path("recipes")])
        #expect(mela.status == 2)
        #expect(mela.stderr.contains(".melarecipes"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("recipes")))
    }

    @Test("a bad record stops the export with its file, record index and field, and no archive is left")
    func badRecordLeavesNoArchive() throws {
        let dir = try TemporaryDirectory()
        let bad = try dir.write(
            "bad.json",
            #"[{"id":"r-1","title":"Good","createdAt":"2024-03-01T00:00:00Z"},{"id":"r-2","title":"Bad","createdAt":"2024-03-01T00:00:00Z","servings":0}]"#
        )
        for (format, output) in [
            ("mealie", "m.zip"), ("tandoor", "t.zip"), ("nextcloud", "n.zip"), ("mela", "x.melarecipes"),
        ] {
            let result = try CLI.run(["export", bad, "--to", format, "-o", dir.path(output)])
            #expect(result.status == 1, "\(format): \(result.stderr)")
            #expect(result.stderr.contains("bad.json"), "\(result.stderr)")
            #expect(result.stderr.contains("record 1"), "\(result.stderr)")
            #expect(result.stderr.contains("servings"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.path(output)), "\(format)")
        }
    }

    @Test("a failed write leaves no archive or file behind and names it (exit 3)", arguments: ["mealie", "mela"])
    func failedWriteLeavesNothing(format: String) throws {
        let dir = try TemporaryDirectory()
        try records(dir)
        let ext = format == "mela" ? "melarecipes" : "zip"
        for (index, rule) in ["enospc@1+", "eio@1", "rename.eio@1"].enumerated() {
            let name = "out\(index).\(ext)"
            let result = try CLI.run(
                ["export", dir.path("three.json"), "--to", format, "-o", dir.path(name)],
                environment: ["LARDER_FAULT_IO": "\(rule):*/\(name)"])
            #expect(result.status == 3, "\(format) \(rule): \(result.stderr)")
            #expect(result.stderr.contains(name), "\(result.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path("")).filter { $0.hasPrefix("out") }
            #expect(left.isEmpty, "\(rule) left behind: \(left)")
        }
    }

    @Test("export --help lists the new formats")
    func helpListsFormats() throws {
        let help = try CLI.run(["export", "--help"], environment: ["COLUMNS": "100"])
        for format in ["mealie", "tandoor", "nextcloud", "mela"] {
            #expect(help.stdout.contains(format), "\(format)")
        }
    }

    @Test(
        "path traversal by title: recipes titled '..' and '../../escape' export inside the output folder",
        arguments: ["nextcloud", "cooklang"])
    func titlesStayInsideTheOutput(format: String) throws {
        let dir = try TemporaryDirectory()
        var records: [String] = []
        for (index, title) in ["..", "../../escape", ".hidden", "."].enumerated() {
            records.append(
                #"{"id":"r-dots-000\#(index)","title":"\#(title)","ingredients":[{"item":"salt","original":"salt"}],"#
                    + #""instructions":[{"text":"Season."}],"createdAt":"2024-01-01T00:00:00Z","#
                    + #""updatedAt":"2024-01-01T00:00:00Z"}"#)
        }
        try Data(("[" + records.joined(separator: ",") + "]").utf8).write(
            to: URL(fileURLWithPath: dir.path("dots.json")))
        try FileManager.default.createDirectory(atPath: dir.path("a/b"), withIntermediateDirectories: true)
        let result = try CLI.run(["export", dir.path("dots.json"), "--to", format, "-o", dir.path("a/b/out")])
        #expect(result.status == 0, "\(result.stderr)")
        // Nothing next to the output folder or above it, and every recipe inside it, none hidden.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("a/b")) == ["out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("a")) == ["b"])
        let inside = try FileManager.default.contentsOfDirectory(atPath: dir.path("a/b/out"))
        #expect(inside.count == 4, "\(inside)")
        #expect(!inside.contains { $0.hasPrefix(".") }, "\(inside)")
    }
}
