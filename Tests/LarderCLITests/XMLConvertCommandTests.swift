import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

/// `larder convert` to and from XML, run through the built binary (`swift build --product larder`).
@Suite struct XMLConvertCommandTests {
    private func recipesJSON() throws -> String {
        let recipes = [
            Recipe.make(id: "r-1"),
            Recipe.make(id: "r-2", title: "  Crème brûlée <3 & \"friends\"\r\n", tags: ["no", "~", "0x10"]),
            Recipe.make(id: "r-3", ingredients: [], instructions: [], servings: nil, tags: []),
        ]
        return "[\n" + (try recipes.map { try JSONWriter.string($0.value) }.joined(separator: ",\n")) + "\n]\n"
    }

    private func decodedRecipes(_ path: String) throws -> [Recipe] {
        let reader = try RecordIO.openReader(path: path)
        var recipes: [Recipe] = []
        while let item = try reader.next() { recipes.append(try Recipe(value: item.value)) }
        return recipes
    }

    @Test("convert x.json --to xml and back returns the same records")
    func convertsJSONToXMLAndBack() throws {
        let directory = try TemporaryDirectory()
        let json = try directory.write("x.json", try recipesJSON())
        let toXML = try CLI.run(["convert", json, "--to", "xml", "-o", directory.path("x.xml")])
        #expect(toXML.status == 0, "\(toXML.stderr)")
        #expect(toXML.stderr.contains("3 records: 3 written, 0 rejected"))
        let xml = try directory.read("x.xml")
        #expect(
            xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<records schema=\"recipe\" version=\"4\" xmlns:")
        )
        #expect(xml.contains("\">\n  <recipe>\n"))
        #expect(xml.contains("&#13;"))

        let back = try CLI.run(["convert", directory.path("x.xml"), "--to", "json", "-o", directory.path("back.json")])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try decodedRecipes(directory.path("back.json")) == decodedRecipes(json))
        // Lossless: empty lists and all, the records come back as the same NDJSON.
        let original = try CLI.run(["convert", json, "--to", "ndjson"])
        let roundTripped = try CLI.run(["convert", directory.path("back.json"), "--to", "ndjson"])
        #expect(original.status == 0 && !original.stdout.isEmpty)
        #expect(roundTripped.stdout == original.stdout)
    }

    @Test("convert --to xml writes to standard output and reads standard input")
    func pipesXML() throws {
        let result = try CLI.run(["convert", "-", "--to", "xml"], stdin: Data(try recipesJSON().utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("<recipe>\n    <id>r-2</id>"))
        let back = try CLI.run(["convert", "-", "--to", "ndjson"], stdin: Data(result.stdout.utf8))
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.split(separator: "\n").count == 3)
    }

    @Test("refuses an XML file with an external entity: exit 1, file:line:col, no output")
    func refusesXXE() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "evil.xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE records [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                + "<records><recipe><title>&x;</title></recipe></records>\n")
        let result = try CLI.run(["convert", path, "--to", "json", "-o", directory.path("out.json")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("evil.xml:2:"))
        #expect(result.stderr.contains("refused"))
        #expect(!result.stderr.contains("root:"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.json")))
    }

    @Test("sends a record with a mistyped field to the rejects with the field's line")
    func rejectsMistypedField() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            "r.xml",
            """
            <records schema="recipe" version="3">
              <recipe><id>a</id><title>A</title><createdAt>2024-01-01T00:00:00Z</createdAt></recipe>
              <recipe>
                <id>b</id><title>B</title><createdAt>2024-01-01T00:00:00Z</createdAt>
                <prepTime>5 min</prepTime>
              </recipe>
            </records>
            """)
        let result = try CLI.run([
            "convert", path, "--to", "json", "-o", directory.path("out.json"), "--keep-going", "--rejects",
            directory.path("rejects.ndjson"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("2 records: 1 written, 1 rejected"))
        let rejects = try directory.read("rejects.ndjson")
        #expect(rejects.contains("\"line\":5"))
        #expect(rejects.contains("prepTime"))
    }

    @Test("reports a truncated XML file with its line and exits 1")
    func reportsTruncatedXML() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("cut.xml", "<records>\n  <recipe>\n    <id>a</id>\n    <title>Half")
        let result = try CLI.run(["convert", path, "--to", "json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cut.xml:4:"))
        #expect(result.stderr.contains("syntax-error") || result.stderr.contains("malformed XML"))
    }
}
