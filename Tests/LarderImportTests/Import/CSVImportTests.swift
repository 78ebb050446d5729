import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// CSV and TSV rows: header mapping in three languages, `--map`, RFC 4180 cells, rejects per row.
@Suite struct CSVImportTests {

    @Test("seeded header names: the ASCII fold answers as Foundation's folding does")
    func asciiFoldAgrees() {
        var generator = SeededGenerator(seed: 277)
        let pieces = [
            "Title", "PREP", "time", " ", "_", "-", "(", "min", ")", "2", "Ä", "é", "ß", "Ｔ", "\t", "Zutaten", "#",
        ]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...6, using: &generator)
            let name = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            #expect(CSVColumn.fold(name) == CSVColumn.foldWithFoundation(name), "\(name)")
        }
        // Every ASCII byte alone and in a name.
        for byte in UInt8(0)..<0x80 {
            let name = "a" + String(decoding: [byte], as: UTF8.self) + "B"
            #expect(CSVColumn.fold(name) == CSVColumn.foldWithFoundation(name), "\(byte)")
        }
    }
    private func read(_ path: String, columns: [CSVColumn: String] = [:]) throws -> ImportCollector {
        let collector = ImportCollector()
        try CSVImporter(columns: columns).importItems(at: path, context: collector.context)
        return collector
    }

    private func write(_ text: String, in dir: TemporaryDirectory, name: String = "in.csv") throws -> String {
        let path = dir.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the sample (BOM, ';', German headers, multi-line cells) maps every column and keeps the rest in extras")
    func readsSample() throws {
        let collector = try read(ImportFixtures.sample("recipes.csv"))
        #expect(collector.rejects.isEmpty)
        #expect(collector.titles == ["Kartoffelsalat", "Pancakes \"Sunday\" style"])
        let salad = try #require(collector.recipes.first?.0)
        #expect(salad.ingredients.count == 5)
        #expect(salad.ingredients[1] == "1 Zwiebel, fein gewürfelt")
        #expect(salad.steps.count == 3)
        #expect(salad.servings == 4)
        #expect(salad.prepMinutes == 20)
        #expect(salad.cookMinutes == 25)
        #expect(salad.categories == ["Beilage"])
        #expect(salad.keywords == ["vegetarisch", "Sommer"])
        #expect(salad.sourceURL == "https://example.org/kartoffelsalat")
        #expect(salad.notes == "Schmeckt am nächsten Tag noch besser.")
        #expect(salad.extras["csv"]?.objectValue?["Bewertung"] == .string("5"))
        let pancakes = try #require(collector.recipes.last?.0)
        #expect(pancakes.cookMinutes == 15)
        #expect(pancakes.servings == 2)
        #expect(pancakes.extras["csv"]?.objectValue?["Quelle"] == .string("Grandma's notebook"))
        #expect(collector.recipes.map(\.1.index) == [0, 1])
    }

    @Test("French headers and tabs are recognised; --map overrides a header name")
    func mapsFrenchAndOverrides() throws {
        let dir = try TemporaryDirectory()
        let tsv = try write(
            "titre\tingrédients\tpréparation\tportions\ttemps de préparation\tNom court\n"
                + "Crêpes\t250 g farine\t\"Mélanger.\nCuire.\"\t4\t10\tcrêpe\n", in: dir, name: "recettes.tsv")
        let french = try read(tsv)
        let crepes = try #require(french.recipes.first?.0)
        #expect(crepes.title == "Crêpes")
        #expect(crepes.ingredients == ["250 g farine"])
        #expect(crepes.steps.map(\.text) == ["Mélanger.", "Cuire."])
        #expect(crepes.prepMinutes == 10)
        #expect(crepes.extras["csv"]?.objectValue?["Nom court"] == .string("crêpe"))
        let mapped = try read(tsv, columns: [.title: "Nom court"])
        #expect(mapped.titles == ["crêpe"])
        #expect(mapped.recipes.first?.0.extras["csv"]?.objectValue?["titre"] == .string("Crêpes"))
    }

    @Test("--map naming a missing column, or no title column at all, is a usage error listing the columns")
    func refusesUnmappableHeader() throws {
        let dir = try TemporaryDirectory()
        let path = try write("Dish,Stuff\nTea,leaves\n", in: dir)
        #expect(throws: LarderError.self) { try read(path) }
        do {
            _ = try read(path, columns: [.title: "Name"])
            Issue.record("no error")
        } catch let error as LarderError {
            #expect(error.code == .usage)
            #expect(error.message.contains("\"Dish\", \"Stuff\""))
        }
        #expect(
            try read(path, columns: [.title: "Dish", .ingredients: "Stuff"]).recipes.first?.0.ingredients == ["leaves"])
    }

    @Test("unknown --map fields are a usage error naming the valid ones")
    func parsesMap() throws {
        #expect(try CSVColumn.parseMap("title=Name, ingredients=Zutaten") == [.title: "Name", .ingredients: "Zutaten"])
        do {
            _ = try CSVColumn.parseMap("title=Name,colour=Farbe")
            Issue.record("no error")
        } catch let error as LarderError {
            #expect(error.code == .usage)
            #expect(error.message.contains("colour"))
            #expect(error.message.contains("title, description, ingredients, instructions"))
        }
        #expect(throws: LarderError.self) { try CSVColumn.parseMap("title") }
    }

    @Test("bad rows are rejected with their line, rows of empty cells skipped, and the rest import")
    func rejectsBadRows() throws {
        let dir = try TemporaryDirectory()
        let path = try write(
            "title,ingredients\r\nGood,\"a\r\nb\"\r\n,no title\r\n,\r\nToo,many,cells\r\nStray \"quote\",x\r\nLast,\"never closed\r\n",
            in: dir)
        let collector = try read(path)
        #expect(collector.titles == ["Good"])
        #expect(collector.recipes.first?.0.ingredients == ["a", "b"])
        #expect(collector.rejects.map { $0.0.location?.line } == [4, 6, 7, 8])
        #expect(collector.rejects.map(\.1.index) == [1, 2, 3, 4])
        #expect(collector.rejects[0].0.location?.fieldPath == "title")
        #expect(collector.rejects[1].0.message.contains("3 cells"))
        #expect(collector.rejects[2].0.message.contains("quote"))
        #expect(collector.rejects[3].0.message.contains("never closed"))
    }

    @Test("windows-1252 input reads with a warning")
    func readsLegacyBytes() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("old.csv")
        try Data([0x74, 0x69, 0x74, 0x6C, 0x65, 0x0A, 0x43, 0x61, 0x66, 0xE9, 0x0A]).write(
            to: URL(fileURLWithPath: path))
        let collector = try read(path)
        #expect(collector.titles == ["Café"])
        #expect(collector.warnings.contains { $0.contains("windows-1252") })
    }

    @Test("detection claims .csv and .tsv files with a title column, and nothing else claims them")
    func detects() throws {
        #expect(try ImportFormat.detect(path: ImportFixtures.sample("recipes.csv")) == .csv)
        let dir = try TemporaryDirectory()
        let other = try write("a,b\n1,2\n", in: dir, name: "numbers.csv")
        #expect(throws: LarderError.self) { try ImportFormat.detect(path: other) }
        let text = try write("name,ingredients\nTea,leaves\n", in: dir, name: "list.txt")
        #expect((try? ImportFormat.detect(path: text)) != .csv)
    }
}
