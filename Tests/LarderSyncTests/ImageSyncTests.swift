import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderFormats
import LarderRegistry
import LarderSamples
import LarderStore
import LarderTestSupport
import Synchronization
import Testing

@testable import LarderSync

#if canImport(Glibc)
import Glibc
#endif

/// Recipe images travel as CloudKit assets: upload once per checksum, journalled, and back down
/// into files with the same bytes.
@Suite struct ImageSyncTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("first image".utf8)
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("second image".utf8)

    /// Three recipes: two share `images/a.png`, one has `images/b.jpg` (and a remote URL).
    static func writeInput(in directory: TemporaryDirectory, seed: Int = 1) throws -> (String, [Value]) {
        try FileManager.default.createDirectory(
            atPath: directory.path("in/images"), withIntermediateDirectories: true)
        try png.write(to: URL(fileURLWithPath: directory.path("in/images/a.png")))
        try jpeg.write(to: URL(fileURLWithPath: directory.path("in/images/b.jpg")))
        let refs = ["images/a.png", "images/a.png", "images/b.jpg"]
        let records = TestRecords.recipes(3, seed: seed).enumerated().map { index, record -> Value in
            var fields = record.objectValue ?? Fields()
            fields["imageRef"] = .string(refs[index])
            fields["images"] = [
                ["ref": .string(refs[index]), "isPrimary": true], ["url": "https://example.com/x.jpg"],
            ]
            return .object(fields)
        }
        let input = directory.path("in/recipes.json")
        try Data(TestRecords.envelope(records).utf8).write(to: URL(fileURLWithPath: input))
        return (input, records)
    }

    /// The input of ``writeInput(in:seed:)`` and its upload preparation.
    static func prepare(in directory: TemporaryDirectory) throws -> (UploadPreparation, [Value]) {
        let (input, records) = try writeInput(in: directory)
        let preparation = UploadPreparation(
            inputs: [input], migrator: Migrator(registry: try .load()), workDirectory: directory.path("work"))
        return (preparation, records)
    }

    static func successfulByteUploads(_ server: UploadTestServer) async throws -> Int {
        let log = try await server.control("GET", "requests")
        return (log["requests"]?.arrayValue ?? []).filter {
            $0["path"]?.stringValue?.hasPrefix("/_assets/upload/") == true && $0["status"] == 200
        }.count
    }

    func makeUpload(_ server: UploadTestServer, _ directory: TemporaryDirectory, zone: String) -> FileUpload {
        var upload = FileUpload(
            client: server.client(zone: zone), journalPath: directory.path("upload.journal"),
            deadLetterPath: directory.path("dead.ndjson"))
        upload.clock = TestClock().clock
        return upload
    }

    @Test("images upload once per checksum and download next to the output with the same bytes")
    func roundTrip() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let (preparation, records) = try Self.prepare(in: directory)
            let report = try await makeUpload(server, directory, zone: "photos").run(preparation: preparation)
            #expect(report.deadLetters == 0)
            #expect(report.uploaded == 3)
            #expect(report.imagesUploaded == 2)
            #expect(try await Self.successfulByteUploads(server) == 2)

            try FileManager.default.createDirectory(atPath: directory.path("out"), withIntermediateDirectories: true)
            var downloader = ZoneDownloader(
                client: server.client(zone: "photos"), outputPath: directory.path("out/recipes.json"))
            downloader.clock = TestClock().clock
            let down = try await downloader.run()
            #expect(down.imagesWritten == 2)
            #expect(FileManager.default.contents(atPath: directory.path("out/images/a.png")) == Self.png)
            #expect(FileManager.default.contents(atPath: directory.path("out/images/b.jpg")) == Self.jpeg)
            let reader = try RecordIO.openReader(path: directory.path("out/recipes.json"))
            var back: [String: Value] = [:]
            while let item = try reader.next() { back[item.value["id"]?.stringValue ?? ""] = item.value }
            for record in records {
                let id = record["id"]?.stringValue ?? ""
                #expect(back[id].map { Semantic.equal($0, record) } == true, "\(id)")
            }

            // A re-run is skipped by the journals: no record and no image is sent again.
            try await server.clearLog()
            let again = try await makeUpload(server, directory, zone: "photos").run(preparation: preparation)
            #expect(again.skippedByJournal == 3)
            #expect(again.imagesUploaded == 0)
            #expect(try await Self.successfulByteUploads(server) == 0)
        }
    }

    @Test("a run stopped after its images were uploaded does not upload them again")
    func stoppedAfterImagesDoesNotReupload() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let (preparation, _) = try Self.prepare(in: directory)
            try await server.addFault(#"{"operation":"records/modify","probability":1,"error":"TRY_AGAIN_LATER"}"#)
            var first = makeUpload(server, directory, zone: "stopped")
            first.configuration.retry = RetryPolicy(maxAttempts: 1)
            // The uploader gives the records up (or stops); either way they are not written.
            let stopped = try? await first.run(preparation: preparation)
            #expect((stopped?.uploaded ?? 0) == 0)
            #expect(try await Self.successfulByteUploads(server) == 2)
            try await server.clearFaults()
            try await server.clearLog()
            let second = try await makeUpload(server, directory, zone: "stopped").run(preparation: preparation)
            #expect(second.uploaded == 3)
            #expect(second.imagesUploaded == 0)
            #expect(try await Self.successfulByteUploads(server) == 0)
        }
    }

    @Test("images upload a window at a time, just before their records: a receipt older than its lifetime is not used")
    func imagesUploadPerWindow() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let (preparation, _) = try Self.prepare(in: directory)
            // Each reading of the wall clock is 20 minutes after the last: every receipt in the
            // asset journal has expired by the next window.
            let minutes = Mutex(0.0)
            let jumping = LarderClock(
                now: {
                    Date(
                        timeIntervalSince1970: minutes.withLock {
                            $0 += 20
                            return $0 * 60
                        })
                },
                monotonicSeconds: { 0 }, sleep: { _ in })
            var upload = makeUpload(server, directory, zone: "windows")
            upload.clock = jumping
            upload.imageWindow = 1
            let report = try await upload.run(preparation: preparation)
            #expect(report.uploaded == 3)
            #expect(report.deadLetters == 0)
            // a.png serves records 1 and 2 (windows 1 and 2): uploaded twice, b.jpg once.
            #expect(report.imagesUploaded == 3)
            #expect(try await Self.successfulByteUploads(server) == 3)
        }
    }

    @Test("an image file that exists but cannot be read is a warning in the report, never silently left out")
    func unreadableImageIsAWarning() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let (preparation, _) = try Self.prepare(in: directory)
            // images/a.png is listed in its folder but reading it fails (a folder by that name).
            try FileManager.default.removeItem(atPath: directory.path("in/images/a.png"))
            try FileManager.default.createDirectory(
                atPath: directory.path("in/images/a.png"), withIntermediateDirectories: false)
            let report = try await makeUpload(server, directory, zone: "unreadable").run(preparation: preparation)
            #expect(report.uploaded == 3)
            #expect(report.imagesUploaded == 1)
            #expect(report.warnings.count == 1)
            #expect(report.warnings.first?.contains("images/a.png could not be read") == true, "\(report.warnings)")
            #expect(report.text().contains("warning"))
        }
    }

    @Test("an image the server refuses dead-letters only the records that need it")
    func refusedImageDeadLetters() async throws {
        // b.jpg (16 bytes) fits, a.png (19) does not.
        let server = try await UploadTestServer.start { $0.limits.maxAssetBytes = 17 }
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let (preparation, _) = try Self.prepare(in: directory)
            let report = try await makeUpload(server, directory, zone: "refused").run(preparation: preparation)
            #expect(report.uploaded == 1)
            #expect(report.deadLetters == 2)
            #expect(report.deadLettersByStage["asset"] == 2)
        }
    }

    @Test("a window whose records all become dead letters does not end the upload: the next windows go on")
    func deadLetteredWindowDoesNotEndUpload() async throws {
        // Windows of one record: the first two need a.png, which the server refuses.
        let server = try await UploadTestServer.start { $0.limits.maxAssetBytes = 17 }
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let (preparation, _) = try Self.prepare(in: directory)
            var upload = makeUpload(server, directory, zone: "windows-refused")
            upload.imageWindow = 1
            let report = try await upload.run(preparation: preparation)
            #expect(report.uploaded == 1)
            #expect(report.deadLetters == 2)
            #expect(report.deadLettersByStage["asset"] == 2)
        }
    }

    /// Uploads the three recipes of ``writeInput(in:seed:)`` into `zone`; returns a client of it.
    static func uploadInput(_ server: UploadTestServer, _ directory: TemporaryDirectory, zone: String) async throws
        -> CloudKitClient
    {
        let (preparation, _) = try prepare(in: directory)
        var upload = FileUpload(
            client: server.client(zone: zone), journalPath: directory.path("upload.journal"),
            deadLetterPath: directory.path("dead.ndjson"))
        upload.clock = TestClock().clock
        #expect(try await upload.run(preparation: preparation).uploaded == 3)
        return server.client(zone: zone)
    }

    /// Uploads the three recipes of ``writeInput(in:seed:)`` into `zone`, then, as a malicious server
    /// or a share participant with write access would, points each record's `imageRef` at `refs[i]`.
    static func uploadAndRename(
        _ server: UploadTestServer, _ directory: TemporaryDirectory, zone: String, refs: [String]
    ) async throws {
        let client = try await uploadInput(server, directory, zone: zone)
        let records = try await client.zoneChanges(syncToken: nil).records.compactMap(\.record)
            .filter { $0.fields?[ImageFiles.field] != nil }
            .sorted { ($0.recordName ?? "") < ($1.recordName ?? "") }
        #expect(records.count == refs.count)
        let operations = zip(records, refs).map { record, ref in
            RecordOperation(
                .update,
                Record(
                    recordName: record.recordName, recordType: record.recordType,
                    recordChangeTag: record.recordChangeTag, fields: ["imageRef": RecordField(value: .string(ref))]))
        }
        let body = try WireEncoder.encode(
            ModifyRecordsRequest(operations: operations, zoneID: RecordZoneID(zoneName: zone)))
        let results = try await client.modify(body: Data(body))
        #expect(results.allSatisfy { $0.record != nil }, "\(results)")
    }

    @Test("image path attack: a record naming .bashrc or .ssh/authorized_keys never writes there on download")
    func downloadKeepsServerNamedPathsInImages() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            try await Self.uploadAndRename(
                server, directory, zone: "attack", refs: [".bashrc", ".ssh/authorized_keys", "../../escape.jpg"])
            try FileManager.default.createDirectory(
                atPath: directory.path("out/.ssh"), withIntermediateDirectories: true)
            try Data("export PS1=me\n".utf8).write(to: URL(fileURLWithPath: directory.path("out/.bashrc")))
            try Data("ssh-ed25519 AAAA me\n".utf8).write(
                to: URL(fileURLWithPath: directory.path("out/.ssh/authorized_keys")))
            var downloader = ZoneDownloader(
                client: server.client(zone: "attack"), outputPath: directory.path("out/recipes.json"))
            downloader.clock = TestClock().clock
            let report = try await downloader.run()
            #expect(report.imagesWritten == 3)
            #expect(FileManager.default.contents(atPath: directory.path("out/.bashrc")) == Data("export PS1=me\n".utf8))
            #expect(
                FileManager.default.contents(atPath: directory.path("out/.ssh/authorized_keys"))
                    == Data("ssh-ed25519 AAAA me\n".utf8))
            #expect(!FileManager.default.fileExists(atPath: directory.path("escape.jpg")))
            let landed = try FileManager.default.contentsOfDirectory(atPath: directory.path("out/images")).sorted()
            #expect(landed == ["authorized_keys.png", "bashrc.png", "escape.jpg"])
            #expect(FileManager.default.contents(atPath: directory.path("out/images/bashrc.png")) == Self.png)
            #expect(FileManager.default.contents(atPath: directory.path("out/images/escape.jpg")) == Self.jpeg)
            // Each record points at the file written for it.
            let reader = try RecordIO.openReader(path: directory.path("out/recipes.json"))
            var refs: [String] = []
            while let item = try reader.next() { refs.append(item.value["imageRef"]?.stringValue ?? "") }
            #expect(refs.sorted() == ["images/authorized_keys.png", "images/bashrc.png", "images/escape.jpg"])
            // A second download finds the same files and writes nothing.
            let again = try await downloader.run()
            #expect(again.imagesWritten == 0)
        }
    }

    @Test("image path attack: sync never writes an image over its own store or a dot-file beside it")
    func syncKeepsServerNamedPathsInImages() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            try await Self.uploadAndRename(
                server, directory, zone: "attack-sync", refs: ["store.db", ".bashrc", "store.db-wal"])
            try FileManager.default.createDirectory(atPath: directory.path("dev"), withIntermediateDirectories: true)
            let store = try Store(path: directory.path("dev/store.db"), create: true)
            try SyncState(store: store).save(
                [
                    "id": "mine", "title": "Mine", "ingredients": [], "instructions": [],
                    "createdAt": "2024-01-01T10:00:00Z",
                ], type: "recipe", at: Date())
            var sync = StoreSync(store: store, client: server.client(zone: "attack-sync"))
            sync.deviceID = "dev"
            sync.clock = TestClock().clock
            let report = try await sync.run()
            #expect(report.imagesWritten == 3)
            #expect(!FileManager.default.fileExists(atPath: directory.path("dev/.bashrc")))
            let reopened = try Store(path: directory.path("dev/store.db"))
            let recipes = try reopened.records(type: "recipe")
            #expect(recipes.count == 4)
            #expect(recipes.contains { $0["id"] == "mine" })
            let landed = try FileManager.default.contentsOfDirectory(atPath: directory.path("dev/images")).sorted()
            #expect(landed == ["bashrc.png", "store.db", "store.db-wal.jpg"] || landed.count == 3, "\(landed)")
            for recipe in recipes where recipe["id"] != "mine" {
                let ref = recipe["imageRef"]?.stringValue ?? ""
                #expect(ref.hasPrefix("images/"), "\(ref)")
            }
        }
    }

    @Test("image names: a server's path or record name becomes one bounded, dot-less component")
    func imageNamesAreMadeSafe() {
        func name(_ path: String?, _ record: String = "r", _ index: Int = 0) -> String {
            let parts = ImageDownload.nameParts(path, recordName: record, index: index)
            return parts.stem + (parts.fileExtension.map { "." + $0 } ?? "")
        }
        #expect(name(".bashrc") == "bashrc")
        #expect(name(".ssh/authorized_keys") == "authorized_keys")
        #expect(name("../../escape.JPG") == "escape.jpg")
        #expect(name("/etc/passwd") == "passwd")
        #expect(name("images/a.png") == "a.png")
        #expect(name("..").hasPrefix("file-"))
        let long = name(nil, String(repeating: "n", count: 255), 1)
        #expect(long.utf8.count <= 100 && long.hasSuffix("-2"))
        let longPath = name(String(repeating: "p", count: 300) + ".png")
        #expect(longPath.utf8.count <= 100 && longPath.hasSuffix(".png"))
    }

    @Test("downloaded image paths that would leave the output folder are renamed inside it")
    func unsafePathsAreRenamed() {
        #expect(ImageFiles.isSafeRelativePath("images/a.png"))
        #expect(!ImageFiles.isSafeRelativePath("../a.png"))
        #expect(!ImageFiles.isSafeRelativePath("/etc/passwd"))
        #expect(!ImageFiles.isSafeRelativePath("images//a.png"))
        #expect(
            ImageFiles.paths(in: ["imageRef": "a.png", "images": [["ref": "a.png"], ["ref": "http://x/y"]]]) == [
                "a.png"
            ])
    }
}

/// kill -9 of `larder upload` with images, at random points (inside the asset journal too).
@Suite struct ImageCrashTests {
    @Test(
        "kill -9 during an upload with images: the re-run ends with every record once and every image identical",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: CLI.executable.path),
            "needs the built larder (swift build --product larder)"))
    func crashWithImages() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let config = directory.path("emulator.json")
            try server.writeConfig(to: config)
            let (input, records) = try ImageSyncTests.writeInput(in: directory, seed: 7)
            var random = SeededRandom(seed: 20_251_125)
            let arguments = [
                "upload", input, "--endpoint", server.baseURL.absoluteString, "--emulator-config", config, "--zone",
                "crash", "--journal", directory.path("crash.journal"), "--dead-letters", directory.path("dead.ndjson"),
                "--batch-size", "1", "--progress", "none",
            ]
            var kills = 0
            for _ in 0..<8 {
                let step = random.int(1...10)
                let result = try await runLarder(arguments, environment: ["LARDER_FAULT_KILL_AT": String(step)])
                if result.status == SIGKILL { kills += 1 } else { #expect(result.status == 0, "\(result.stderr)") }
            }
            #expect(kills >= 3)
            let final = try await runLarder(arguments)
            #expect(final.status == 0, "\(final.stderr)")
            let (contents, writes) = try await server.zoneContents(zone: "crash")
            #expect(contents.count == records.count)
            #expect(writes == Int64(records.count), "\(writes) writes for \(records.count) records")
            // Nothing is left to do, and the images come back byte for byte.
            try await server.clearLog()
            let again = try await runLarder(arguments + ["--json"])
            #expect(try JSONDecoder().decode(UploadReport.self, from: Data(again.stdout.utf8)).imagesUploaded == 0)
            #expect(try await ImageSyncTests.successfulByteUploads(server) == 0)
            var downloader = ZoneDownloader(
                client: server.client(zone: "crash"), outputPath: directory.path("out/recipes.json"))
            downloader.clock = TestClock().clock
            _ = try await downloader.run()
            #expect(FileManager.default.contents(atPath: directory.path("out/images/a.png")) == ImageSyncTests.png)
            #expect(FileManager.default.contents(atPath: directory.path("out/images/b.jpg")) == ImageSyncTests.jpeg)
        }
    }
}

/// `larder sync --store`: images travel between two devices' stores.
@Suite struct StoreImageSyncTests {
    @Test("a store's recipe image reaches another device's store folder with the same bytes")
    func storeImagesTravel() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            func device(_ name: String) throws -> (Store, StoreSync) {
                try FileManager.default.createDirectory(
                    atPath: directory.path("\(name)/images"), withIntermediateDirectories: true)
                let store = try Store(path: directory.path("\(name)/\(name).db"), create: true)
                var sync = StoreSync(store: store, client: server.client(zone: "stores"))
                sync.deviceID = name
                sync.clock = TestClock().clock
                return (store, sync)
            }
            let (storeA, syncA) = try device("A")
            let (storeB, syncB) = try device("B")
            try ImageSyncTests.png.write(to: URL(fileURLWithPath: directory.path("A/images/r1.png")))
            let recipe: Value = [
                "id": "r1", "title": "Shakshuka", "ingredients": [], "instructions": [],
                "createdAt": "2024-01-01T10:00:00Z", "imageRef": "images/r1.png",
            ]
            try SyncState(store: storeA).save(recipe, type: "recipe", at: Date())
            let pushed = try await syncA.run()
            #expect(pushed.push.imagesUploaded == 1)
            let pulled = try await syncB.run()
            #expect(pulled.imagesWritten == 1)
            #expect(FileManager.default.contents(atPath: directory.path("B/images/r1.png")) == ImageSyncTests.png)
            let back = try storeB.records(type: "recipe").first { $0["id"] == "r1" }
            #expect(back?["imageRef"] == "images/r1.png")
        }
    }
}

/// The image files an upload leaves out are warnings through a diagnostic sink (issue 28 part 2).
@Suite struct UnreadableImageWarningTests {
    @Test("a store push names an image file it cannot read, and why, in the report's warnings (it said nothing)")
    func storePushWarns() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(
                atPath: directory.path("dev/images/r1.png"), withIntermediateDirectories: true)
            let store = try Store(path: directory.path("dev/dev.db"), create: true)
            let recipe: Value = [
                "id": "r1", "title": "Shakshuka", "ingredients": [], "instructions": [],
                "createdAt": "2024-01-01T10:00:00Z", "imageRef": "images/r1.png",
            ]
            try SyncState(store: store).save(recipe, type: "recipe", at: Date())
            var sync = StoreSync(store: store, client: server.client(zone: "unreadable-store"))
            sync.deviceID = "dev"
            sync.clock = TestClock().clock
            let report = try await sync.run()
            #expect(report.push.uploaded >= 1)
            #expect(report.push.warnings.count == 1)
            let warning = report.push.warnings.first ?? ""
            #expect(warning.contains("image images/r1.png could not be read"), "\(warning)")
            #expect(warning.contains(directory.path("dev/images/r1.png")), "\(warning)")
        }
    }

    @Test("the image table tells its sink once per unreadable file, with the file and the reason")
    func tableWarnsThroughItsSink() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("a.png"), withIntermediateDirectories: true)
        let log = DiagnosticLog()
        let table = ImageTable(folders: [directory.url.path], diagnostics: log)
        let record: Value = ["id": "r1", "imageRef": "a.png"]
        #expect(table.files(of: record).isEmpty)
        #expect(table.files(of: record).isEmpty)
        #expect(log.warnings.count == 1)
        #expect(log.warnings.first?.severity == .warning)
        #expect(log.warnings.first?.code == "image-unreadable")
        #expect(log.warnings.first?.location.file?.hasSuffix("a.png") == true)
    }
}
