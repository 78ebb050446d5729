import Foundation
import GRDB
import LarderFormats
import LarderTestSupport
import Testing

/// The built `larder` under `LARDER_FAULT_IO` (ENOSPC and EIO at the N-th write, fsync, rename or
/// store commit; short writes): every command completes, or fails naming the file and leaves what
/// was there before, with no partial output and no temporary files.
@Suite struct FaultInjectionCLITests {
    private static func sample(_ name: String) -> String {
        CLI.packageRoot.appendingPathComponent("samples/\(name)").path
    }

    private static func run(_ arguments: [String], faults: String? = nil) async throws -> CLIResult {
        try await offCooperativePool {
            try CLI.run(arguments, environment: faults.map { ["LARDER_FAULT_IO": $0] } ?? [:])
        }
    }

    /// Every file under `directory` (relative path → bytes; folders as empty entries).
    private static func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = directory.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return files }
        for case let relative as String in walker {
            let path = root + "/" + relative
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            files[relative] = isDirectory.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    // MARK: convert

    @Test(
        "convert to a file: a failed write, fsync or rename leaves the previous file (or none) and no temporary file, and names the output",
        arguments: [
            ("short@1+,enospc@1", false), ("short@1+,eio@3", false), ("short@1+,enospc@7", false),
            ("fsync.eio@1", false),
            ("rename.enospc@1", false), ("short@1+,enospc@2", true), ("fsync.enospc@1", true),
        ])
    func convertFailsCleanly(rule: String, gzip: Bool) async throws {
        let input = Self.sample("recipes.json")
        let name = gzip ? "out.ndjson.gz" : "out.ndjson"
        for previous in [nil, "an earlier conversion\n"] {
            let dir = try TemporaryDirectory()
            if let previous { try dir.write(name, previous) }
            let before = try Self.snapshot(dir.url)
            let faults = rule.split(separator: ",").map { "\($0):*/\(name)" }.joined(separator: ",")
            let result = try await Self.run(
                ["convert", input, "--to", "ndjson", "-o", dir.path(name)] + (gzip ? ["--gzip"] : []), faults: faults)
            #expect(result.status == 3, "\(rule): \(result.stderr)")
            #expect(result.stderr.contains(dir.path(name) + ": error: "), "\(rule): \(result.stderr)")
            #expect(try Self.snapshot(dir.url) == before, "\(rule): the folder changed")
        }
    }

    @Test("convert under short writes and EINTR on every call writes the same bytes as without")
    func convertCompletesThroughShortWrites() async throws {
        let dir = try TemporaryDirectory()
        let input = Self.sample("recipes.json")
        let clean = try await Self.run(["convert", input, "--to", "yaml", "-o", dir.path("clean.yaml")])
        #expect(clean.status == 0, "\(clean.stderr)")
        let faulty = try await Self.run(
            ["convert", input, "--to", "yaml", "-o", dir.path("out.yaml")],
            faults: "short@1+:*/out.yaml,eintr@2:*/out.yaml,fsync.eintr@1:*/out.yaml,rename.eintr@1:*/out.yaml")
        #expect(faulty.status == 0, "\(faulty.stderr)")
        #expect(try dir.read("out.yaml") == (try dir.read("clean.yaml")))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.url.path)) == ["clean.yaml", "out.yaml"])
    }

    // MARK: import with images

    /// A Paprika archive of recipes with photos.
    private static func paprikaArchive(_ recipes: [(uid: String, name: String)], at path: String) throws {
        let writer = ZipWriter(sink: try FileByteSink(path: path))
        for (index, recipe) in recipes.enumerated() {
            let png: [UInt8] =
                [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: UInt8(index + 1), count: 3000)
            let json = """
                {"uid":"\(recipe.uid)","name":"\(recipe.name)","ingredients":"1 egg","directions":"Boil it.",\
                "photo_data":"\(Data(png).base64EncodedString())"}
                """
            let entry = MemoryByteSink()
            let gzip = try GzipWriter(entry)
            try gzip.write(json)
            try gzip.close()
            try writer.add(path: "\(recipe.name).paprikarecipe", bytes: entry.bytes, deflate: false)
        }
        try writer.finish()
    }

    @Test(
        "import of a Paprika archive whose second image cannot be written: exit 3 naming the image, images folder and output as before"
    )
    func importImageFailure() async throws {
        let dir = try TemporaryDirectory()
        let uids = (1...4).map { "AAAAAAA\($0)-2222-3333-4444-555555555555" }
        try Self.paprikaArchive([(uids[0], "First")], at: dir.path("one.paprikarecipes"))
        try Self.paprikaArchive(
            [(uids[1], "Second"), (uids[2], "Third"), (uids[3], "Fourth")], at: dir.path("three.paprikarecipes"))
        let output = dir.path("out/r.json")
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        let images = "*/out/r-images/*"

        // Into a fresh folder: nothing is left, not even the images folder.
        let fresh = try await Self.run(
            ["import", dir.path("three.paprikarecipes"), "-o", output], faults: "enospc@2:\(images)")
        #expect(fresh.status == 3, "\(fresh.stderr)")
        #expect(fresh.stderr.contains(dir.path("out/r-images/\(uids[2]).png")), "\(fresh.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).isEmpty)

        // Over an earlier import: its output and image stay as they were.
        let first = try await Self.run(["import", dir.path("one.paprikarecipes"), "-o", output])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Self.snapshot(dir.url.appendingPathComponent("out"))
        #expect(before.keys.sorted() == ["r-images", "r-images/\(uids[0]).png", "r.json"])
        for rule in ["enospc@2", "short@1+,eio@14"] {
            let faults = rule.split(separator: ",").map { "\($0):\(images)" }.joined(separator: ",")
            let failed = try await Self.run(["import", dir.path("three.paprikarecipes"), "-o", output], faults: faults)
            #expect(failed.status == 3, "\(rule): \(failed.stderr)")
            #expect(
                failed.stderr.contains(dir.path("out/r-images/")) && failed.stderr.contains(".png"),
                "\(rule): \(failed.stderr)")
            #expect(try Self.snapshot(dir.url.appendingPathComponent("out")) == before, "\(rule)")
        }

        // Without faults the same import completes.
        let again = try await Self.run(["import", dir.path("three.paprikarecipes"), "-o", output])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out/r-images")).count == 4)
    }

    // MARK: store

    /// Every row of every table, as text: the whole state of an SQLite file.
    private static func dump(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var lines: [String] = []
            for table in try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY rowid") {
                    lines.append("\(table): \(row)")
                }
            }
            lines.append("integrity: " + (try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? ""))
            return lines
        }
    }

    @Test(
        "store import whose commit fails (disk full, I/O error) exits 3 naming the store, which keeps its previous state"
    )
    func storeCommitFailure() async throws {
        let dir = try TemporaryDirectory()
        let base = dir.path("base.db")
        let seeded = try await Self.run(["store", "import", Self.sample("recipes.json"), "--store", base])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let more = Self.sample("brew-recipes.json")
        // What a complete import leaves, to compare the runs that complete with.
        try FileManager.default.copyItem(atPath: base, toPath: dir.path("complete.db"))
        #expect(try await Self.run(["store", "import", more, "--store", dir.path("complete.db")]).status == 0)
        let previous = try Self.dump(base)
        // The rows a complete import leaves (history and schema_state carry the time of the run).
        func records(_ store: String) throws -> [String] {
            try Self.dump(store).filter { $0.hasPrefix("records: ") || $0.hasPrefix("images: ") }
        }
        let complete = try records(dir.path("complete.db"))
        var failures = 0
        for (index, rule) in ["commit.enospc@1", "commit.eio@1", "commit.enospc@2", "commit.enospc@1+"].enumerated() {
            let store = dir.path("s\(index).db")
            try FileManager.default.copyItem(atPath: base, toPath: store)
            let result = try await Self.run(
                ["store", "import", more, "--store", store], faults: "\(rule):*/s\(index).db")
            if result.status == 0 {
                #expect(try records(store) == complete, "\(rule)")
                continue
            }
            failures += 1
            #expect(result.status == 3, "\(rule): \(result.stderr)")
            #expect(result.stderr.contains(store + ":"), "\(rule): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    rule.contains("enospc") ? "the disk is full" : "reading or writing the store failed"),
                "\(result.stderr)")
            #expect(try Self.dump(store) == previous, "\(rule): the store changed")
            #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
        }
        #expect(failures == 3)
    }
}
