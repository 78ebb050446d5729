import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Attacks on the files an import writes: names taken from content, leftovers, write failures.
@Suite struct ImportFileSafetyTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 24)
    static var pngBase64: String { Data(png).base64EncodedString() }

    static func paprika(uid: String, name: String, photo: Bool = true) -> String {
        var fields = [
            #""uid":"\#(uid)""#, #""name":"\#(name)""#, #""ingredients":"1 egg""#, #""directions":"Boil it.""#,
        ]
        if photo { fields.append(#""photo_data":"\#(pngBase64)""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Runs an import session with its output at `work/out.json`.
    static func run(
        _ inputs: [String], in dir: TemporaryDirectory, keepGoing: Bool = true, images: String? = nil
    ) throws -> (ImportSession.Report, [Value]) {
        try FileManager.default.createDirectory(atPath: dir.path("work"), withIntermediateDirectories: true)
        let session = try ImportSession(
            options: ImportSession.Options(
                outputPath: dir.path("work/out.json"), outputFormat: .json, keepGoing: keepGoing,
                rejectsPath: dir.path("work/rejects.ndjson"),
                imagesDirectory: images, importedAt: fixtureDate))
        let report = try session.run(inputs.map { ($0, nil) })
        let reader = try RecordIO.openReader(path: dir.path("work/out.json"))
        var records: [Value] = []
        while let item = try reader.next() { records.append(item.value) }
        return (report, records)
    }

    /// Every regular file under `root`, relative to it.
    static func files(under root: String) -> Set<String> {
        var found = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                found.insert(relative)
            }
        }
        return found
    }

    /// `out-images/<one file name>`, the name neither hidden nor `..`.
    static func isOneFileInImages(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0] == "out-images" && !parts[1].hasPrefix(".") && !parts[1].isEmpty
    }

    /// A folder `outside` holding `ESC.png` with known content, as a victim file.
    @discardableResult
    static func makeVictim(in dir: TemporaryDirectory) throws -> String {
        try FileManager.default.createDirectory(atPath: dir.path("outside"), withIntermediateDirectories: true)
        return try dir.write("outside/ESC.png", "precious")
    }

    @Test("arbitrary file write by a Paprika uid with ../: nothing is written outside the images folder")
    func paprikaUIDTraversal() throws {
        let dir = try TemporaryDirectory()
        try Self.makeVictim(in: dir)
        try ImportFixtures.zip(
            [
                ("Evil.paprikarecipe", try ImportFixtures.gzip(Self.paprika(uid: "../../outside/ESC", name: "Evil"))),
                ("Dots.paprikarecipe", try ImportFixtures.gzip(Self.paprika(uid: "........", name: "Dots"))),
            ], at: dir.path("evil.paprikarecipes"))
        let (report, records) = try Self.run([dir.path("evil.paprikarecipes")], in: dir)
        #expect(report.imported.count == 2)
        #expect(try dir.read("outside/ESC.png") == "precious")
        #expect(Self.files(under: dir.path("outside")) == ["ESC.png"])
        let written = Self.files(under: dir.path("work")).subtracting(["out.json", "rejects.ndjson"])
        #expect(written.count == 2)
        #expect(written.allSatisfy(Self.isOneFileInImages), "\(written)")
        for ref in records.compactMap({ $0["imageRef"]?.stringValue }) {
            #expect(Self.isOneFileInImages(ref), "\(ref)")
            #expect(FileManager.default.fileExists(atPath: dir.path("work/" + ref)))
        }
    }

    @Test("arbitrary file write by a Paprika uid with ../ and --images DIR: the file stays in DIR")
    func paprikaUIDTraversalWithImagesFolder() throws {
        let dir = try TemporaryDirectory()
        try Self.makeVictim(in: dir)
        try ImportFixtures.zip(
            [("Evil.paprikarecipe", try ImportFixtures.gzip(Self.paprika(uid: "../outside/ESC", name: "Evil")))],
            at: dir.path("evil.paprikarecipes"))
        let (report, _) = try Self.run([dir.path("evil.paprikarecipes")], in: dir, images: dir.path("pics"))
        #expect(report.images == 1)
        #expect(try dir.read("outside/ESC.png") == "precious")
        #expect(Self.files(under: dir.path("outside")) == ["ESC.png"])
        #expect(Self.files(under: dir.path("pics")).count == 1)
    }

    @Test("arbitrary file write by a Mela id with ../: nothing is written outside the images folder")
    func melaIDTraversal() throws {
        let dir = try TemporaryDirectory()
        try Self.makeVictim(in: dir)
        let mela =
            #"{"id":"../../outside/ESC","title":"Evil","ingredients":"1 egg","instructions":"Boil it.","images":["\#(Self.pngBase64)"]}"#
        try ImportFixtures.zip([("Evil.melarecipe", Array(mela.utf8))], at: dir.path("evil.melarecipes"))
        let (report, records) = try Self.run([dir.path("evil.melarecipes")], in: dir)
        #expect(report.imported.count == 1)
        #expect(try dir.read("outside/ESC.png") == "precious")
        #expect(Self.files(under: dir.path("outside")) == ["ESC.png"])
        let ref = try #require(records.first?["imageRef"]?.stringValue)
        #expect(Self.isOneFileInImages(ref), "\(ref)")
        #expect(Self.files(under: dir.path("work")).subtracting(["out.json", "rejects.ndjson"]) == [ref])
    }

    @Test("image overwrite: a file already in the images folder is never replaced; the new image gets another name")
    func neverOverwritesExistingImage() throws {
        let dir = try TemporaryDirectory()
        let id = "11111111-2222-3333-4444-555555555555"
        try FileManager.default.createDirectory(atPath: dir.path("work/out-images"), withIntermediateDirectories: true)
        try dir.write("work/out-images/\(id).png", "someone else's")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("work/out-images/\(id)-2.png"), withDestinationPath: dir.path("outside/ESC.png"))
        try Self.makeVictim(in: dir)
        try ImportFixtures.zip(
            [("A.paprikarecipe", try ImportFixtures.gzip(Self.paprika(uid: id, name: "A")))],
            at: dir.path("a.paprikarecipes"))
        let (report, records) = try Self.run([dir.path("a.paprikarecipes")], in: dir)
        #expect(report.images == 1)
        #expect(try dir.read("work/out-images/\(id).png") == "someone else's")
        #expect(try dir.read("outside/ESC.png") == "precious")
        let ref = try #require(records.first?["imageRef"]?.stringValue)
        #expect(ref == "out-images/\(id)-3.png")
        #expect(report.warnings.contains { $0.contains(id + ".png") && $0.contains("already exists") })
    }

    @Test("leftover images: a failed import without keep-going removes the images it wrote, and only those")
    func failedImportCleansUp() throws {
        let dir = try TemporaryDirectory()
        try ImportFixtures.zip(
            [
                (
                    "A.paprikarecipe",
                    try ImportFixtures.gzip(Self.paprika(uid: "11111111-2222-3333-4444-555555555555", name: "A"))
                ),
                (
                    "Bad.paprikarecipe",
                    try ImportFixtures.gzip(#"{"uid":"x","name":"","ingredients":"","directions":""}"#)
                ),
            ], at: dir.path("mixed.paprikarecipes"))
        #expect(throws: LarderError.self) {
            _ = try Self.run([dir.path("mixed.paprikarecipes")], in: dir, keepGoing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("work/out-images")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("work/out.json")))

        // An images folder that was already there stays, with what it held.
        try FileManager.default.createDirectory(atPath: dir.path("pics"), withIntermediateDirectories: true)
        try dir.write("pics/mine.png", "mine")
        #expect(throws: LarderError.self) {
            _ = try Self.run(
                [dir.path("mixed.paprikarecipes")], in: dir, keepGoing: false, images: dir.path("pics/deeper/still"))
        }
        #expect(Self.files(under: dir.path("pics")) == ["mine.png"])
        #expect(!FileManager.default.fileExists(atPath: dir.path("pics/deeper")))
    }

    @Test(
        "image write error with keep-going: only the records whose image failed are rejected, the rest of the archive imports"
    )
    func imageWriteErrorRejectsOneRecord() throws {
        let dir = try TemporaryDirectory()
        try dir.write("blocker", "a file where the images folder should go")
        try ImportFixtures.zip(
            [
                (
                    "A.paprikarecipe",
                    try ImportFixtures.gzip(Self.paprika(uid: "AAAAAAAA-2222-3333-4444-555555555555", name: "A"))
                ),
                (
                    "B.paprikarecipe",
                    try ImportFixtures.gzip(
                        Self.paprika(uid: "BBBBBBBB-2222-3333-4444-555555555555", name: "B", photo: false))
                ),
                (
                    "C.paprikarecipe",
                    try ImportFixtures.gzip(Self.paprika(uid: "CCCCCCCC-2222-3333-4444-555555555555", name: "C"))
                ),
            ], at: dir.path("three.paprikarecipes"))
        let (report, records) = try Self.run(
            [dir.path("three.paprikarecipes")], in: dir, images: dir.path("blocker/images"))
        #expect(records.compactMap { $0["title"]?.stringValue } == ["B"])
        #expect(report.rejected.map(\.name).sorted() == ["A", "C"])
        #expect(
            report.rejected.allSatisfy {
                ($0.reason ?? "").contains("image") && ($0.reason ?? "").contains("three.paprikarecipes!")
            })
        #expect(try dir.read("work/rejects.ndjson").contains("A.paprikarecipe"))
    }
}
