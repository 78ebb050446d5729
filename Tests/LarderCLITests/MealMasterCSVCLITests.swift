import Foundation
import LarderTestSupport
import Testing

/// `larder import` and `larder export --to` for MealMaster and CSV, through the built binary.
@Suite struct MealMasterCSVCLITests {
    private func sample(_ name: String) -> String {
        CLI.packageRoot.appendingPathComponent("samples/import/\(name)").path
    }

    @Test("a MealMaster file imports by detection, exports with --to mealmaster and imports back")
    func mealMasterImportExport() throws {
        let dir = try TemporaryDirectory()
        let imported = try CLI.run(["import", sample("mealmaster-classics.mmf"), "-o", dir.path("mm.json")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("3 imported, 0 rejected"), "\(imported.stderr)")
        let exported = try CLI.run(["export", dir.path("mm.json"), "--to", "mealmaster", "-o", dir.path("out.mmf")])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.contains("3 exported, 0 rejected"))
        let text = try String(contentsOfFile: dir.path("out.mmf"), encoding: .utf8)
        #expect(text.hasPrefix("MMMMM----- Recipe via Meal-Master"))
        #expect(text.contains("\r\n      Title: Chili Con Carne\r\n"))
        let back = try CLI.run(["import", dir.path("out.mmf"), "-o", dir.path("back.json")])
        #expect(back.stderr.contains("3 imported, 0 rejected"), "\(back.stderr)")
        let stdout = try CLI.run(["export", dir.path("mm.json"), "--to", "mealmaster"])
        #expect(stdout.stdout.components(separatedBy: "\r\nMMMMM\r\n").count == 4)
    }

    @Test("a broken MealMaster recipe is rejected with its index and line under --keep-going; the rest import")
    func mealMasterRejects() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("two.mmf")
        let text = [
            "MMMMM----- Recipe via Meal-Master (tm) v8.05", "", " Categories: Lost", "", "      1 c  Rice", "MMMMM",
            "MMMMM----- Recipe via Meal-Master (tm) v8.05", "", "      Title: Kept", "", "      1 c  Rice", "MMMMM",
        ].joined(separator: "\r\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = try CLI.run([
            "import", path, "--keep-going", "--rejects", dir.path("rejects.ndjson"), "-o", dir.path("out.json"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("1 imported, 1 rejected"), "\(result.stderr)")
        #expect(result.stderr.contains("two.mmf#0"), "\(result.stderr)")
        let rejects = try String(contentsOfFile: dir.path("rejects.ndjson"), encoding: .utf8)
        #expect(rejects.contains("\"line\":1"), "\(rejects)")
    }

    @Test("a CSV file imports by detection and with --map, exports with --to csv and imports back")
    func csvImportExport() throws {
        let dir = try TemporaryDirectory()
        let imported = try CLI.run(["import", sample("recipes.csv"), "-o", dir.path("csv.json")])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("2 imported, 0 rejected"), "\(imported.stderr)")
        let mapped = try CLI.run([
            "import", sample("recipes.csv"), "--from", "csv", "--map", "title=Notizen", "--keep-going", "--rejects",
            dir.path("rejects.ndjson"), "-o",
            dir.path("mapped.json"),
        ])
        // The second row has no notes: with the title from Notizen it has no title and is rejected.
        #expect(mapped.stderr.contains("1 imported, 1 rejected"), "\(mapped.stderr)")
        let exported = try CLI.run(["export", dir.path("csv.json"), "--to", "csv", "-o", dir.path("out.csv")])
        #expect(exported.status == 0, "\(exported.stderr)")
        let back = try CLI.run(["import", dir.path("out.csv"), "-o", dir.path("back.json")])
        #expect(back.stderr.contains("2 imported, 0 rejected"), "\(back.stderr)")
    }

    @Test("with --map title=COLUMN, detection claims a .csv file whose header names no title")
    func mapHelpsDetection() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("sheet.csv")
        try Data("Gericht,Zutaten\nTee,\"1 Beutel\nWasser\"\n".utf8).write(to: URL(fileURLWithPath: path))
        let plain = try CLI.run(["import", path, "-o", dir.path("a.json")])
        #expect(plain.status == 2, "\(plain.stderr)")
        let mapped = try CLI.run(["import", path, "--map", "title=Gericht", "-o", dir.path("b.json")])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(mapped.stderr.contains("1 imported"), "\(mapped.stderr)")
        let records = try String(contentsOfFile: dir.path("b.json"), encoding: .utf8)
        #expect(records.contains("1 Beutel"))
        // With --map the file is CSV by its name: a column it lacks is the importer's error, naming its columns.
        let wrong = try CLI.run(["import", path, "--map", "title=Name", "-o", dir.path("c.json")])
        #expect(wrong.status == 2, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("no column \"Name\""), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("\"Gericht\""), "\(wrong.stderr)")
    }

    @Test("--map with an unknown field is a usage error listing the fields")
    func unknownMapField() throws {
        let result = try CLI.run(["import", sample("recipes.csv"), "--map", "title=Titel,flavour=Geschmack"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("flavour"))
        #expect(result.stderr.contains("title, description, ingredients"))
    }
}
