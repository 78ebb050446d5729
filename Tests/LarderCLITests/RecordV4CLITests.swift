import Foundation
import LarderTestSupport
import Testing

/// recipe v4 from the command line: XML that validates against every XSD, and the store's v3 → v4
/// migration with its ledger and the refused downgrade.
@Suite struct RecordV4CLITests {
    private func sample(_ name: String) -> String { CLI.packageRoot.appendingPathComponent(name).path }

    @Test("the XML samples validate against their XSDs")
    func xmlSamplesValidate() throws {
        for name in ["samples/recipes.xml", "samples/brew-logs.xml", "samples/brew-recipes.xml"] {
            let result = try CLI.run(["validate", sample(name)])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stderr.contains("(XSD): valid"), "\(name): \(result.stderr)")
        }
    }

    @Test("XML written by convert validates against the XSD of its version, for every version")
    func convertedXMLValidates() throws {
        let directory = try TemporaryDirectory()
        for name in [
            "samples/recipes.json", "samples/brew-logs.json", "samples/brew-recipes.json", "samples/v1/recipes-v1.json",
            "samples/v2/recipes-v2.json", "samples/v1/brew-logs-v1.json",
        ] {
            let output = directory.path((name as NSString).lastPathComponent + ".xml")
            let convert = try CLI.run(["convert", sample(name), "--to", "xml", "-o", output])
            #expect(convert.status == 0, "\(name): \(convert.stderr)")
            let validate = try CLI.run(["validate", output])
            #expect(validate.status == 0, "\(name): \(validate.stderr)")
        }
        // v3 records, migrated and written as XML, against the v3 XSD.
        let v3 = directory.path("recipes-v3.xml")
        let migrate = try CLI.run([
            "migrate", sample("samples/v1/recipes-v1.json"), "--to", "3", "--format", "xml", "-o", v3,
        ])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let validate = try CLI.run(["validate", v3])
        #expect(
            validate.status == 0 && validate.stderr.contains("against recipe v3 (XSD): valid"), "\(validate.stderr)")
    }

    @Test("a v3 store migrates to v4 with the ledger, and going back down is refused while v4 fields hold data")
    func storeMigratesToV4() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("larder.db")
        let v3 = directory.path("recipes-v3.json")
        #expect(try CLI.run(["migrate", sample("samples/v1/recipes-v1.json"), "--to", "3", "-o", v3]).status == 0)
        let imported = try CLI.run(["store", "import", v3, "--store", store])
        #expect(imported.status == 0 && imported.stderr.contains("recipe v3"), "\(imported.stderr)")
        let migrated = try CLI.run(["migrate", "--store", store, "--type", "recipe"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(migrated.stderr.contains("recipe in \(store) is at v4"), "\(migrated.stderr)")
        let validated = try CLI.run(["schema", "validate", "--store", store])
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        #expect(validated.stdout.contains("all match the registry"), "\(validated.stdout)")
        let stats = try CLI.run(["store", "stats", "--store", store])
        #expect(stats.stdout.contains("recipe v4: 24 records"), "\(stats.stdout)")
        // Empty v4 fields go back down without loss.
        let down = try CLI.run(["migrate", "--store", store, "--type", "recipe", "--to", "3"])
        #expect(down.status == 0 && down.stderr.contains("is at v3"), "\(down.stderr)")
        #expect(try CLI.run(["migrate", "--store", store, "--type", "recipe"]).status == 0)
        // A record with notes cannot go down: the step rolls back and names the record and the field.
        let withNotes = try directory.write(
            "notes.json",
            #"{"schema": "recipe", "version": 4, "records": [{"id": "noted", "title": "Soup", "createdAt": "2024-01-01T00:00:00Z", "notes": [{"text": "Better the next day."}]}]}"#
        )
        #expect(try CLI.run(["store", "import", withNotes, "--store", store]).status == 0)
        let refused = try CLI.run(["migrate", "--store", store, "--type", "recipe", "--to", "3"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("recipe noted:") && refused.stderr.contains("notes")
                && refused.stderr.contains("cannot go down to v3"), "\(refused.stderr)")
        let after = try CLI.run(["store", "stats", "--store", store])
        #expect(after.stdout.contains("recipe v4: 25 records"), "\(after.stdout)")
    }
}
