import Foundation
import LarderCore
import LarderFormats
import LarderRegistry
import LarderStore
import LarderTestSupport
import Testing

@testable import LarderSync

/// `larder upload`, `download` and `sync` as a user runs them: the built binary against an
/// emulator in this process.
@Suite struct UploadCLITests {
    struct Fixture {
        let server: UploadTestServer
        let directory: TemporaryDirectory
        let config: String

        static func make() async throws -> Fixture {
            let server = try await UploadTestServer.start()
            let directory = try TemporaryDirectory()
            let config = directory.path("emulator.json")
            try server.writeConfig(to: config)
            return Fixture(server: server, directory: directory, config: config)
        }

        func connection(zone: String) -> [String] {
            ["--endpoint", server.baseURL.absoluteString, "--emulator-config", config, "--zone", zone]
        }
    }

    func requireBinary() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: CLI.executable.path) else {
            Issue.record("build larder first: swift build --product larder")
            return false
        }
        return true
    }

    @Test("usage mistakes exit 2 with a message naming the fix")
    func usageErrors() async throws {
        guard requireBinary() else { return }
        let noEndpoint = try await runLarder([
            "upload", "samples/recipes.json", "--container", "iCloud.x", "--api-token", "t",
        ])
        #expect(noEndpoint.status == 2)
        #expect(noEndpoint.stderr.contains("--endpoint"))
        let batch = try await runLarder([
            "upload", "samples/recipes.json", "--endpoint", "http://127.0.0.1:1", "--batch-size", "300",
        ])
        #expect(batch.status == 2)
        #expect(batch.stderr.contains("200"))
        let badKey = try await runLarder([
            "download", "--endpoint", "http://127.0.0.1:1", "--key-id", "k", "-o", "x.json",
        ])
        #expect(badKey.status == 2)
    }

    @Test("an unreachable server exits 3 and says a re-run resumes")
    func unreachableServer() async throws {
        guard requireBinary() else { return }
        let directory = try TemporaryDirectory()
        let result = try await runLarder(
            [
                "upload", CLI.packageRoot.appendingPathComponent("samples/recipes.json").path, "--endpoint",
                "http://127.0.0.1:1",
                "--container", "iCloud.x", "--api-token", String(repeating: "a", count: 64), "--web-auth-token", "w",
                "--max-attempts", "2",
                "--journal", directory.path("j"), "--progress", "none",
            ], in: directory.url)
        #expect(result.status == 3)
        #expect(result.stderr.contains("run again to resume"))
        // Nothing listens at port 1: said at once, in plain words, with what starts a server.
        #expect(result.stderr.contains("nothing is listening at http://127.0.0.1:1"), "\(result.stderr)")
        #expect(result.stderr.contains("larder serve"))
        #expect(!result.stderr.contains("SingleConnectionFailure"))
        // An input that cannot be opened is named before any request is made.
        let missing = try await runLarder(
            [
                "upload", directory.path("no-such.json"), "--endpoint", "http://127.0.0.1:1",
                "--container", "iCloud.x", "--api-token", String(repeating: "a", count: 64), "--web-auth-token", "w",
                "--max-attempts", "2", "--journal", directory.path("j2"), "--progress", "none",
            ], in: directory.url)
        #expect(missing.status == 3, "\(missing.stderr)")  // 3: network or I/O
        #expect(missing.stderr.contains("no-such.json") && !missing.stderr.contains("zones/lookup"))
    }

    @Test("nothing listening: upload with the default retries stops at once instead of retrying for a minute")
    func refusedConnectionIsNotRetried() async throws {
        guard requireBinary() else { return }
        let directory = try TemporaryDirectory()
        let started = ContinuousClock.now
        let result = try await runLarder(
            [
                "upload", CLI.packageRoot.appendingPathComponent("samples/recipes.json").path, "--endpoint",
                "http://127.0.0.1:1", "--container", "iCloud.x", "--api-token", String(repeating: "a", count: 64),
                "--web-auth-token", "w", "--journal", directory.path("j"), "--progress", "none",
            ], in: directory.url)
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 3)
        #expect(result.stderr.contains("nothing is listening"), "\(result.stderr)")
        // One attempt, not ten with backoff (61 s before): the figure in the note, not a timing assertion.
        print("refused connection: larder upload exited \(result.status) after \(elapsed)")
    }

    @Test("one-character journal name: upload does not crash and writes the journal in the current directory")
    func oneCharacterJournalName() async throws {
        guard requireBinary() else { return }
        let fixture = try await Fixture.make()
        try await stopping(fixture.server) { _ in
            let input = try fixture.directory.write("in.json", TestRecords.envelope(TestRecords.recipes(2, seed: 7)))
            let result = try await runLarder(
                ["upload", input] + fixture.connection(zone: "short") + ["--journal", "j", "--progress", "none"],
                in: fixture.directory.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: fixture.directory.path("j")))
            #expect(try await fixture.server.zoneContents(zone: "short").records.count == 2)
        }
    }

    @Test("upload, re-upload and download the samples: exact round trip, the second upload skipped by the journal")
    func uploadAndDownloadSamples() async throws {
        guard requireBinary() else { return }
        let fixture = try await Fixture.make()
        try await stopping(fixture.server) { _ in
            let samples = ["recipes.json", "brew-logs.json", "brew-recipes.json"].map {
                CLI.packageRoot.appendingPathComponent("samples/\($0)").path
            }
            let common =
                fixture.connection(zone: "samples") + ["--journal", fixture.directory.path("j"), "--progress", "none"]
            let first = try await runLarder(["upload"] + samples + common + ["--json"], in: fixture.directory.url)
            #expect(first.status == 0, "\(first.stderr)")
            let report = try JSONDecoder().decode(UploadReport.self, from: Data(first.stdout.utf8))
            #expect(report.uploaded == report.read)
            #expect(report.read > 60)
            #expect(first.stderr.contains("uploaded"))
            let second = try await runLarder(["upload"] + samples + common + ["--json"], in: fixture.directory.url)
            let again = try JSONDecoder().decode(UploadReport.self, from: Data(second.stdout.utf8))
            #expect(again.uploaded == 0 && again.skippedByJournal == report.read)

            let download =
                ["download"] + fixture.connection(zone: "samples") + [
                    "-o", fixture.directory.path("out.ndjson"), "--state", fixture.directory.path("out.state"),
                ]
            let fetched = try await runLarder(download, in: fixture.directory.url)
            #expect(fetched.status == 0, "\(fetched.stderr)")
            #expect(fetched.stderr.contains("full fetch"))
            var downloaded: [String: Value] = [:]
            let reader = try RecordIO.openReaderShim(fixture.directory.path("out.ndjson"))
            while let value = try reader() { downloaded[value["recordName"]?.stringValue ?? ""] = value }
            var inputs = 0
            for sample in samples {
                let input = try RecordIO.openReaderShim(sample)
                while let value = try input() {
                    inputs += 1
                    #expect(
                        downloaded[value["recordName"]?.stringValue ?? "?"].map { Semantic.equal($0, value) } == true)
                }
            }
            #expect(downloaded.count == inputs)
            let quiet = try await runLarder(download, in: fixture.directory.url)
            #expect(quiet.stderr.contains("0 changed, 0 deleted"))
        }
    }

    @Test("an older-version file is migrated as the upload reads it: counted in the report, every record arrives")
    func uploadMigratesAsItStreams() async throws {
        guard requireBinary() else { return }
        let fixture = try await Fixture.make()
        try await stopping(fixture.server) { _ in
            let input = CLI.packageRoot.appendingPathComponent("samples/v1/recipes-v1.json").path
            let result = try await runLarder(
                ["upload", input] + fixture.connection(zone: "v1") + [
                    "--journal", fixture.directory.path("j"), "--progress", "none", "--json",
                ],
                in: fixture.directory.url)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONDecoder().decode(UploadReport.self, from: Data(result.stdout.utf8))
            #expect(report.read > 0 && report.migrated == report.read && report.uploaded == report.read)
            // Streaming: no separate preparing phase, and the stage folder is gone afterwards.
            #expect(report.preparationSeconds == 0)
            #expect(!FileManager.default.fileExists(atPath: fixture.directory.path("j.work")))
            #expect(try await fixture.server.zoneContents(zone: "v1").records.count == report.read)
        }
    }

    @Test("a record that cannot be uploaded goes to the dead letters with its reason; the rest arrive; exit 1")
    func deadLetters() async throws {
        guard requireBinary() else { return }
        let fixture = try await Fixture.make()
        try await stopping(fixture.server) { _ in
            var records = TestRecords.recipes(5, seed: 31)
            records[2].setField("servings", "four")  // not an integer: the schema refuses it
            let input = try fixture.directory.write("in.json", TestRecords.envelope(records))
            let dead = fixture.directory.path("dead.ndjson")
            let result = try await runLarder(
                ["upload", input] + fixture.connection(zone: "dead") + [
                    "--journal", fixture.directory.path("j"), "--dead-letters", dead, "--progress", "none",
                ],
                in: fixture.directory.url)
            #expect(result.status == 1)
            #expect(result.stderr.contains("dead letters  1"))
            let lines = try fixture.directory.read("dead.ndjson").split(separator: "\n")
            #expect(lines.count == 1)
            let letter = try JSONDecoder().decode(Value.self, from: Data(lines[0].utf8))
            #expect(letter["stage"] == "migrate")
            #expect(letter["reason"]?.stringValue?.contains("servings") == true)
            #expect(letter["record"]?["id"] == records[2]["id"])
            #expect(try await fixture.server.zoneContents(zone: "dead").records.count == 4)
        }
    }

    @Test("sync --store: one device's changes reach another device's store")
    func syncStores() async throws {
        guard requireBinary() else { return }
        let fixture = try await Fixture.make()
        try await stopping(fixture.server) { _ in
            let phone = fixture.directory.path("phone.db")
            let laptop = fixture.directory.path("laptop.db")
            let store = try Store(path: phone, create: true)
            try SyncState(store: store).save(
                [
                    "id": "s1", "title": "Soup", "ingredients": [], "instructions": [],
                    "createdAt": "2024-01-01T00:00:00Z",
                ],
                type: "recipe", at: Date())
            _ = try Store(path: laptop, create: true)
            let connection = fixture.connection(zone: "stores") + ["--progress", "none"]
            let push = try await runLarder(
                ["sync", "--store", phone, "--device", "phone"] + connection, in: fixture.directory.url)
            #expect(push.status == 0, "\(push.stderr)")
            #expect(push.stderr.contains("pushed      1 of 1"))
            let pull = try await runLarder(
                ["sync", "--store", laptop, "--device", "laptop", "--json"] + connection, in: fixture.directory.url)
            #expect(pull.status == 0, "\(pull.stderr)")
            let records = try Store(path: laptop).records(type: "recipe")
            #expect(records.first?["title"] == "Soup")
            #expect(try SyncState(store: Store(path: laptop)).devices().map(\.id).sorted() == ["laptop", "phone"])
        }
    }

    @Test("dedupe --store on device A reaches device B through sync: the same merged set, minimal tombstones")
    func dedupeStoreSyncs() async throws {
        guard requireBinary() else { return }
        let fixture = try await Fixture.make()
        try await stopping(fixture.server) { _ in
            let phone = fixture.directory.path("phone.db")
            let laptop = fixture.directory.path("laptop.db")
            let phoneState = SyncState(store: try Store(path: phone, create: true))
            let lines: [Value] = ["rolled oats", "milk", "honey", "blueberries"].map {
                ["item": .string($0), "original": .string($0)]
            }
            func recipe(_ id: String, _ flag: String, notes: String) -> Value {
                let record: Value = [
                    "id": .string(id), "title": "Overnight Oats", "ingredients": .array(lines),
                    "instructions": [["text": "Mix and chill overnight."]], "createdAt": "2024-01-01T00:00:00Z",
                    "servings": 2, "ownerID": .string("owner-\(id)"), "personalNote": .string(notes),
                ]
                var fields = record.objectValue ?? Fields()
                fields[flag] = true
                return .object(fields)
            }
            try phoneState.save(
                recipe("created-oats", "isCreated", notes: "mine"), type: "recipe",
                at: Date(timeIntervalSince1970: 1_704_067_200))
            try phoneState.save(
                recipe("saved-oats", "isSaved", notes: "from a friend"), type: "recipe",
                at: Date(timeIntervalSince1970: 1_704_153_600))
            try phoneState.save(
                [
                    "id": "lonely", "title": "Kimchi Jjigae", "ingredients": [], "instructions": [],
                    "createdAt": "2024-01-01T00:00:00Z",
                ], type: "recipe", at: Date())
            _ = try Store(path: laptop, create: true)
            let connection = fixture.connection(zone: "dedupe-sync") + ["--progress", "none"]
            func sync(_ store: String, _ device: String) async throws {
                let run = try await runLarder(
                    ["sync", "--store", store, "--device", device] + connection, in: fixture.directory.url)
                #expect(run.status == 0, "\(run.stderr)")
            }
            try await sync(phone, "phone")
            try await sync(laptop, "laptop")
            #expect(try Store(path: laptop).records(type: "recipe").count == 3)

            let dedupe = try await runLarder(
                ["dedupe", "--store", phone, "--log", fixture.directory.path("merge.json")], in: fixture.directory.url)
            #expect(dedupe.status == 0, "\(dedupe.stderr)")
            #expect(try SyncState(store: Store(path: phone)).pendingCount() >= 1, "the merge is queued for the cloud")
            try await sync(phone, "phone")
            try await sync(laptop, "laptop")

            func live(_ path: String) throws -> [Value] {
                try Store(path: path).records(type: "recipe").filter { $0["isDeleted"] != .bool(true) }
            }
            // The same record, whatever each device's key order; the change tag and time are each device's.
            func strip(_ record: Value) -> Value {
                let fields = (record.objectValue ?? Fields()).filter { $0.key != "changeTag" && $0.key != "updatedAt" }
                return .object(Fields(fields.sorted { $0.key < $1.key }))
            }
            let phoneLive = try live(phone)
            #expect(phoneLive.compactMap { $0["id"]?.stringValue } == ["created-oats", "lonely"])
            let laptopLive = try live(laptop)
            #expect(
                laptopLive.map(strip) == phoneLive.map(strip),
                "device B holds the same merged set: \(laptopLive) vs \(phoneLive)")
            let tombstone = try Store(path: phone).records(type: "recipe").first { $0["id"] == "saved-oats" }
            #expect(tombstone?["isDeleted"] == .bool(true))
            #expect(
                tombstone?["title"] == nil && tombstone?["personalNote"] == nil, "a loser becomes a minimal tombstone")
        }
    }
}

extension RecordIO {
    /// A closure returning each record of a file, then nil.
    static func openReaderShim(_ path: String) throws -> () throws -> Value? {
        let reader = try openReader(path: path)
        return { try reader.next()?.value }
    }
}
