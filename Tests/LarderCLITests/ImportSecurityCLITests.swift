import Foundation
import LarderFormats
import LarderTestSupport
import Testing

/// The holes of issue #12, probed through the built binary: local files leaking into outputs,
/// decompression bombs, nested archives, inputs that hold nothing.
@Suite struct ImportSecurityCLITests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 24)

    /// A v3 recipe record with `imageRef`.
    static func recipe(id: String, title: String, imageRef: String) -> String {
        #"{"id":"\#(id)","title":"\#(title)","ingredients":[{"quantity":3.0,"item":"eggs","original":"3 eggs"}],"instructions":[{"text":"Boil."}],"createdAt":"2024-01-01T18:00:00Z","updatedAt":"2024-01-02T20:15:00Z","ownerID":"_user1","prepTime":10,"cookTime":15,"servings":4,"dietaryNotes":[],"tags":[],"isPublic":true,"isSaved":false,"isCreated":true,"isFavorited":false,"imageRef":"\#(imageRef)"}"#
    }

    /// `recs/r.json` holding three recipes whose images are a file outside (by `..`, absolute, and
    /// through a symlink), and a fourth whose image sits inside `recs/images/`.
    static func makeLeakyRecords(in dir: TemporaryDirectory) throws -> String {
        try FileManager.default.createDirectory(atPath: dir.path("recs/images"), withIntermediateDirectories: true)
        try Data(png + Array("TOP SECRET".utf8)).write(to: URL(fileURLWithPath: dir.path("secret.png")))
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("recs/images/link.png"), withDestinationPath: dir.path("secret.png"))
        try Data(png).write(to: URL(fileURLWithPath: dir.path("recs/images/ok.png")))
        let records = [
            recipe(id: "10000000-0000-4000-8000-000000000001", title: "Dotdot", imageRef: "../secret.png"),
            recipe(id: "10000000-0000-4000-8000-000000000002", title: "Absolute", imageRef: dir.path("secret.png")),
            recipe(id: "10000000-0000-4000-8000-000000000003", title: "Symlink", imageRef: "images/link.png"),
            recipe(id: "10000000-0000-4000-8000-000000000004", title: "Fine", imageRef: "images/ok.png"),
        ]
        return try dir.write(
            "recs/r.json", #"{"schema":"recipe","version":3,"records":["# + records.joined(separator: ",") + "]}")
    }

    @Test(
        "local file leak through export --to paprika: imageRef outside the records folder is refused, the record exported without it"
    )
    func exportRefusesOutsideImages() throws {
        let dir = try TemporaryDirectory()
        let records = try Self.makeLeakyRecords(in: dir)
        let result = try CLI.run(["export", records, "--to", "paprika", "-o", dir.path("x.paprikarecipes")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("4 exported"))
        for (index, ref) in [(0, "../secret.png"), (1, dir.path("secret.png")), (2, "images/link.png")] {
            #expect(
                result.stderr.contains("r.json: record \(index): imageRef")
                    || result.stderr.contains("record \(index): imageRef"), "\(result.stderr)")
            #expect(result.stderr.contains(ref))
        }
        #expect(result.stderr.contains("3 images left out"))
        let back = try CLI.run(["import", dir.path("x.paprikarecipes"), "-o", dir.path("back.json")])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderr.contains("4 imported"))
        #expect(back.stderr.contains("1 image written"))
        let images = try FileManager.default.contentsOfDirectory(atPath: dir.path("back-images"))
        #expect(images == ["10000000-0000-4000-8000-000000000004.png"])
    }

    @Test(
        "local file leak through migrate --to 1: imageRef outside the records folder rejects the record, naming imageRef"
    )
    func migrateRefusesOutsideImages() throws {
        let dir = try TemporaryDirectory()
        let records = try Self.makeLeakyRecords(in: dir)
        let secret = Data(Self.png + Array("TOP SECRET".utf8)).base64EncodedString()
        let result = try CLI.run([
            "migrate", records, "--to", "1", "--keep-going", "--rejects", dir.path("rej.ndjson"), "-o",
            dir.path("v1.json"),
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let output = try dir.read("v1.json")
        #expect(!output.contains(secret))
        #expect(output.contains("Fine"))
        #expect(!output.contains("Dotdot") && !output.contains("Absolute") && !output.contains("Symlink"))
        let rejects = try dir.read("rej.ndjson")
        #expect(rejects.components(separatedBy: "\n").filter { $0.contains("\"path\":\"imageRef\"") }.count == 3)
        #expect(!rejects.contains(secret))
    }

    @Test("local file leak through a Nextcloud folder: symlinks that leave the folder are not followed")
    func nextcloudDoesNotFollowSymlinksOut() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("nc/Soup"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path("nc/Stolen"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        try Data(Self.png + Array("TOP SECRET".utf8)).write(to: URL(fileURLWithPath: dir.path("secret.jpg")))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: dir.path("secret.jpg"))
        try dir.write(
            "secret-recipe.json",
            #"{"@type":"Recipe","name":"Private","recipeIngredient":["1 secret"],"recipeInstructions":"Shh."}"#)
        try dir.write(
            "nc/Soup/recipe.json",
            #"{"@type":"Recipe","name":"Soup","recipeIngredient":["1 leek"],"recipeInstructions":"Simmer."}"#)
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("nc/Soup/full.jpg"), withDestinationPath: dir.path("secret.jpg"))
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("nc/Stolen/recipe.json"), withDestinationPath: dir.path("secret-recipe.json"))
        let result = try CLI.run([
            "import", dir.path("nc"), "--from", "nextcloud", "--keep-going", "--rejects", dir.path("rej.ndjson"), "-o",
            dir.path("out/r.json"),
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("imported: Soup"))
        #expect(result.stderr.contains("Stolen/recipe.json"))
        #expect(result.stderr.contains("Soup/full.jpg"))
        #expect(!(try dir.read("out/r.json")).contains("Private"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("out/r-images")))
    }

    /// A gzip JSON Paprika recipe whose directions are `megabytes` MiB of spaces, compressed while
    /// it is generated (never held whole in memory).
    static func bomb(megabytes: Int) throws -> [UInt8] {
        let sink = MemoryByteSink()
        let gzip = try GzipWriter(sink, level: 9)
        try gzip.write(
            #"{"uid":"B0B0B0B0-2222-3333-4444-555555555555","name":"Bomb","ingredients":"1 egg","directions":"Boil."#)
        let chunk = [UInt8](repeating: 0x20, count: 1 << 20)
        for _ in 0..<megabytes { try gzip.write(chunk) }
        try gzip.write(#""}"#)
        try gzip.close()
        return sink.bytes
    }

    static func paprika(_ uid: String, _ name: String) throws -> [UInt8] {
        let sink = MemoryByteSink()
        let gzip = try GzipWriter(sink)
        try gzip.write(#"{"uid":"\#(uid)","name":"\#(name)","ingredients":"1 egg","directions":"Boil it."}"#)
        try gzip.close()
        return sink.bytes
    }

    static func zip(_ entries: [(String, [UInt8])], at path: String) throws {
        let writer = ZipWriter(sink: try FileByteSink(path: path))
        for (name, bytes) in entries { try writer.add(path: name, bytes: bytes, deflate: false) }
        try writer.finish()
    }

    @Test(
        "gzip bomb inside a Paprika archive: the 300 MB entry is refused at the record size limit, the rest imports with --keep-going"
    )
    func paprikaGzipBomb() async throws { try await offCooperativePool { try Self().paprikaGzipBombBlocking() } }

    func paprikaGzipBombBlocking() throws {
        let dir = try TemporaryDirectory()
        let bomb = try Self.bomb(megabytes: 300)
        #expect(bomb.count < 2 << 20)
        try Self.zip(
            [
                ("A.paprikarecipe", try Self.paprika("AAAAAAAA-2222-3333-4444-555555555555", "A")),
                ("Bomb.paprikarecipe", bomb),
                ("C.paprikarecipe", try Self.paprika("CCCCCCCC-2222-3333-4444-555555555555", "C")),
            ], at: dir.path("bomb.paprikarecipes"))
        let kept = try CLI.run([
            "import", dir.path("bomb.paprikarecipes"), "--keep-going", "--rejects", dir.path("rej.ndjson"), "-o",
            dir.path("r.json"),
        ])
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("2 imported, 1 rejected"), "\(kept.stderr)")
        #expect(kept.stderr.contains("bomb.paprikarecipes!Bomb.paprikarecipe"))
        #expect(kept.stderr.contains("16 MiB"))
        #expect(kept.stderr.contains("--max-record-size"))
        #expect(try dir.read("rej.ndjson").contains("refused-input"))

        let stopped = try CLI.run(["import", dir.path("bomb.paprikarecipes"), "-o", dir.path("s.json")])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("Bomb.paprikarecipe"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("s.json")))

        let raised = try CLI.run([
            "import", dir.path("bomb.paprikarecipes"), "--max-record-size", "1KB", "--keep-going", "--rejects",
            dir.path("rej1.ndjson"), "-o", dir.path("t.json"),
        ])
        #expect(raised.stderr.contains("1 KiB"), "\(raised.stderr)")
    }

    @Test(
        "record over --max-record-size in NDJSON and JSON: convert refuses it with file:line:col and goes on with --keep-going"
    )
    func convertRefusesOversizedRecord() throws {
        let dir = try TemporaryDirectory()
        let big = Self.recipe(
            id: "10000000-0000-4000-8000-00000000000b", title: String(repeating: "x", count: 4000), imageRef: "b.png")
        let small = Self.recipe(id: "10000000-0000-4000-8000-00000000000a", title: "Small", imageRef: "a.png")
        let other = Self.recipe(id: "10000000-0000-4000-8000-00000000000c", title: "Other", imageRef: "c.png")
        let ndjson = try dir.write("r.ndjson", small + "\n" + big + "\n" + other + "\n")
        let result = try CLI.run([
            "convert", ndjson, "--to", "ndjson", "--max-record-size", "1KB", "--keep-going", "--rejects",
            dir.path("rej.ndjson"), "-o", dir.path("o.ndjson"),
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("2 written, 1 rejected"), "\(result.stderr)")
        let rejected = try dir.read("rej.ndjson")
        #expect(
            rejected.contains("\"line\":2") && rejected.contains("\"column\":1") && rejected.contains("r.ndjson"),
            "\(rejected)")
        #expect(rejected.contains("--max-record-size"))
        #expect(try dir.read("o.ndjson").components(separatedBy: "\n").filter { !$0.isEmpty }.count == 2)

        let json = try dir.write("r.json", "[\n  " + small + ",\n  " + big + "\n]\n")
        let plain = try CLI.run([
            "convert", json, "--to", "ndjson", "--max-record-size", "1KB", "-o", dir.path("p.ndjson"),
        ])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("r.json:3:3"), "\(plain.stderr)")
        #expect(plain.stderr.contains("1 KiB"))

        let validate = try CLI.run(["validate", json, "--max-record-size", "1KB"])
        #expect(validate.status == 1)
        #expect(validate.stderr.contains("r.json:3:3"), "\(validate.stderr)")
        #expect(try CLI.run(["validate", json, "--max-record-size", "64MB"]).status != 2)
        #expect(try CLI.run(["validate", json, "--max-record-size", "lots"]).status == 2)
    }

    /// A Tandoor recipe zip holding `recipe.json`.
    static func tandoorRecipe(_ name: String) throws -> [UInt8] {
        let sink = MemoryByteSink()
        let writer = ZipWriter(sink: sink)
        try writer.add(
            path: "recipe.json",
            bytes: Array(#"{"name":"\#(name)","steps":[{"instruction":"Cook.","ingredients":[]}]}"#.utf8))
        try writer.finish()
        return sink.bytes
    }

    static func zipBytes(_ entries: [(String, [UInt8])]) throws -> [UInt8] {
        let sink = MemoryByteSink()
        let writer = ZipWriter(sink: sink)
        for (name, bytes) in entries { try writer.add(path: name, bytes: bytes) }
        try writer.finish()
        return sink.bytes
    }

    @Test("Tandoor export nested one level deeper: recipes are found in zips inside zips inside a sub-folder")
    func tandoorNestedDeeper() throws {
        let dir = try TemporaryDirectory()
        let export = try Self.zipBytes([
            ("export/1.zip", try Self.tandoorRecipe("Dal")), ("export/2.zip", try Self.tandoorRecipe("Rice")),
        ])
        let wrapper = try Self.zipBytes([("backup/tandoor_export.zip", export)])
        try Data(try Self.zipBytes([("wrapper.zip", wrapper)])).write(to: URL(fileURLWithPath: dir.path("outer.zip")))
        let result = try CLI.run(["import", dir.path("outer.zip"), "-o", dir.path("r.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("2 imported"))
    }

    @Test("an input that holds no recipes is a data error naming the file and what was looked for")
    func zeroRecordsIsAnError() throws {
        let dir = try TemporaryDirectory()
        let empty = try Self.zipBytes([("1.zip", try Self.zipBytes([("notes.txt", Array("hello".utf8))]))])
        try Data(empty).write(to: URL(fileURLWithPath: dir.path("empty.zip")))
        let result = try CLI.run(["import", dir.path("empty.zip"), "--from", "tandoor", "-o", dir.path("r.json")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("empty.zip"))
        #expect(result.stderr.contains("no recipes found"))
        #expect(result.stderr.contains("recipe.json"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("r.json")))
        let kept = try CLI.run([
            "import", dir.path("empty.zip"), "--from", "tandoor", "--keep-going", "--rejects", dir.path("rej.ndjson"),
            "-o", dir.path("k.json"),
        ])
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("no recipes found"))
    }
}
