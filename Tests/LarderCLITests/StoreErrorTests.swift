import Foundation
import GRDB
import LarderTestSupport
import Testing

/// A store larder cannot use: the message names the file and says what is wrong in plain words
/// (no raw SQLite text), and the exit status is 3 whatever the command.
@Suite struct StoreErrorTests {
    @Test("store stats on a file that is not an SQLite database: exit 3, plain words naming the file")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("notes.db", "hello, this is not a database\n")
        let result = try CLI.run(["store", "stats", "--store", path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("notes.db is not a Larder store"), "\(result.stderr)")
        #expect(!result.stderr.contains("while executing") && !result.stderr.contains("SQLite error 26"), "\(result.stderr)")
    }

    @Test("store stats on another app's SQLite database: exit 3, and the file is left unchanged")
    func foreignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try CLI.run(["store", "stats", "--store", path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("other.sqlite is not a Larder store"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a store written by a newer larder, or at a newer schema version: exit 3 from every command")
    func tooNewStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("larder.db")
        let samples = CLI.packageRoot.appendingPathComponent("samples/saved.json").path
        #expect(try CLI.run(["store", "import", samples, "--store", path]).status == 0)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "UPDATE schema_state SET version = 4 WHERE type = 'recipe'") }
        for command in [["dedupe", "--store", path], ["migrate", "--store", path, "--type", "recipe"], ["store", "import", samples, "--store", path]] {
            let result = try CLI.run(command)
            #expect(result.status == 3, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("larder.db") && result.stderr.contains("4"), "\(command): \(result.stderr)")
        }
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('larder-store-99')") }
        try queue.close()
        let stats = try CLI.run(["store", "stats", "--store", path])
        #expect(stats.status == 3)
        #expect(stats.stderr.contains("larder.db was written by a newer larder"), "\(stats.stderr)")
    }
}
