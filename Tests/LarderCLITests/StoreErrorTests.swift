import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderStore

/// A store larder cannot use: the message names the file and says what is wrong in plain words
/// (no raw SQLite text), and the exit status is 3 whatever the command.
@Suite struct StoreErrorTests {
    static let samples = CLI.packageRoot.appendingPathComponent("samples/saved.json").path

    /// `larder.db` in `directory`, with the saved samples imported by the CLI.
    static func importedStore(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("larder.db")
        #expect(try CLI.run(["store", "import", samples, "--store", path]).status == 0)
        return path
    }

    @Test("store stats on a file that is not an SQLite database: exit 3, plain words naming the file")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("notes.db", "hello, this is not a database\n")
        let result = try CLI.run(["store", "stats", "--store", path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("notes.db is not a Larder store"), "\(result.stderr)")
        #expect(
            !result.stderr.contains("while executing") && !result.stderr.contains("SQLite error 26"), "\(result.stderr)"
        )
    }

    @Test("store stats on another app's SQLite database: exit 3, and the file is left unchanged")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite")
        try Store.executeRaw("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)", onFile: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try CLI.run(["store", "stats", "--store", path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("other.sqlite is not a Larder store"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a store written by a newer larder, or at a newer schema version: exit 3 from every command")
    func tooNewStore() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.importedStore(in: directory)
        try Store.executeRaw("UPDATE schema_state SET version = 5 WHERE type = 'recipe'", onFile: path)
        for command in [
            ["dedupe", "--store", path], ["migrate", "--store", path, "--type", "recipe"],
            ["store", "import", Self.samples, "--store", path],
        ] {
            let result = try CLI.run(command)
            #expect(result.status == 3, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("larder.db") && result.stderr.contains("5"), "\(command): \(result.stderr)")
        }
        try Store.executeRaw("INSERT INTO grdb_migrations (identifier) VALUES ('larder-store-99')", onFile: path)
        let stats = try CLI.run(["store", "stats", "--store", path])
        #expect(stats.status == 3)
        #expect(stats.stderr.contains("larder.db was written by a newer larder"), "\(stats.stderr)")
    }

    @Test("a record whose stored body is damaged: export and dedupe stop naming the record, and change nothing")
    func damagedRecordBody() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.importedStore(in: directory)
        let id = try #require(try Store(path: path).records(type: "recipe").first?["id"]?.stringValue)
        try Store.executeRaw(
            "UPDATE records SET body = '{\"id\": \"\(id)\", \"title\": ' WHERE type = 'recipe' AND id = '\(id)'",
            onFile: path)
        let before = try Store(path: path).contentDigest()
        for command in [
            ["store", "export", "--store", path, "--type", "recipe", "--to", "ndjson"], ["dedupe", "--store", path],
        ] {
            let result = try CLI.run(command)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains("recipe \(id): the stored body is not a JSON object"),
                "\(command): \(result.stderr)")
        }
        #expect(try Store(path: path).contentDigest() == before)
    }

    @Test("a blob where records.body must be text: export and dedupe exit 3 naming the table, column and record")
    func blobInRecordsTextColumn() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.importedStore(in: directory)
        let id = try #require(try Store(path: path).records(type: "recipe").first?["id"]?.stringValue)
        try Store.executeRaw("UPDATE records SET body = x'FF' WHERE type = 'recipe' AND id = '\(id)'", onFile: path)
        for command in [
            ["store", "export", "--store", path, "--type", "recipe", "--to", "ndjson"], ["dedupe", "--store", path],
        ] {
            let result = try CLI.run(command)
            #expect(result.status == 3, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "larder.db: table records, column body (the row where type = 'recipe' and id = '\(id)'): "
                        + "expected text, found BLOB of 1 byte; the store is damaged"),
                "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(command): \(result.stderr)")
        }
    }

    @Test("text in schema_state's integer version column: every store command exits 3 naming it, none crashes")
    func textInSchemaStateIntegerColumn() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.importedStore(in: directory)
        try Store.executeRaw("UPDATE schema_state SET version = 'four' WHERE type = 'recipe'", onFile: path)
        for command in [
            ["store", "stats", "--store", path],
            ["store", "export", "--store", path, "--type", "recipe", "--to", "json"],
            ["dedupe", "--store", path], ["migrate", "--store", path, "--type", "recipe"],
        ] {
            let result = try CLI.run(command)
            #expect(result.status == 3, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "table schema_state, column version (the row where type = 'recipe'): "
                        + "expected an integer or NULL, found TEXT 'four'"),
                "\(command): \(result.stderr)")
        }
    }

    @Test("a device watermark and last-seen time at Int64.max milliseconds: stats and compaction run, no crash")
    func deviceTimesPastAnyDate() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.importedStore(in: directory)
        try Store.executeRaw(
            "INSERT INTO devices (id, name, watermark, last_seen) VALUES ('far', 'far', 9223372036854775807, 9223372036854775807)",
            onFile: path)
        let stats = try CLI.run(["store", "stats", "--store", path])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.contains("far: watermark 292278994-08-17T07:12:54.784Z"), "\(stats.stdout)")
        let compact = try CLI.run(["tombstones", "compact", "--store", path])
        #expect(compact.status == 0, "\(compact.stderr)")
    }
}
