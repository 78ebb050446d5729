import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct PersistenceTests {
    @Test("a restart on the same data folder keeps records, zones and tokens")
    func restartKeepsData() async throws {
        let folder = try TemporaryDirectory()
        let configuration = TestServer.configuration {
            $0.inMemory = false
            $0.dataDirectory = folder.path("data")
        }
        let first = try await TestServer.start(configuration: configuration)
        let alice = first.client()
        try await alice.createZone("Kept")
        let zone = RecordZoneID(zoneName: "Kept")
        _ = try await alice.modify(
            [RecordOperation(.create, .make("r1", fields: ["title": .string("durable")]))], zone: zone)
        let token = try #require(try await alice.zoneChanges(zone).changes?.syncToken)
        await first.stop()
        #expect(FileManager.default.fileExists(atPath: folder.path("data/emulator.sqlite")))

        let second = try await TestServer.start(configuration: configuration)
        try await stopping(second) { _ in
            let again = second.client()
            let records = try await again.query(Query(recordType: "Recipe"), zone: zone)
            #expect(records.records.records.first?.field("title") == "durable")
            let changes = try #require(try await again.zoneChanges(zone, token: token).changes)
            #expect(changes.records.isEmpty)
        }
    }

    @Test("a damaged stored record is an INTERNAL_ERROR naming it, not a record without fields (issue 11)")
    func damagedStoredRecord() async throws {
        let folder = try TemporaryDirectory()
        let configuration = TestServer.configuration {
            $0.inMemory = false
            $0.dataDirectory = folder.path("data")
        }
        let zone = RecordZoneID(zoneName: "Kept")
        let first = try await TestServer.start(configuration: configuration)
        try await stopping(first) { _ in
            let alice = first.client()
            try await alice.createZone("Kept")
            _ = try await alice.modify(
                [RecordOperation(.create, .make("r1", fields: ["title": .string("durable")]))], zone: zone)
        }
        // Damage the stored fields of r1 behind the server's back.
        let damage = Process()
        damage.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        damage.arguments = [
            "python3", "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE record SET fields='{\\\"title\\\": [' WHERE name='r1'\"); c.commit()",
            folder.path("data/emulator.sqlite"),
        ]
        try damage.run()
        damage.waitUntilExit()
        #expect(damage.terminationStatus == 0)

        let second = try await TestServer.start(configuration: configuration)
        try await stopping(second) { _ in
            let answer = try await second.client().post(
                "records/query", QueryRecordsRequest(query: Query(recordType: "Recipe"), zoneID: zone))
            #expect(answer.status == 500)
            #expect(answer.errorCode == "INTERNAL_ERROR")
            #expect(answer.text.contains("r1"))
        }
    }

    @Test("the configuration rejects unknown keys and resolves flag over environment over file")
    func configurationResolution() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(
            "config.json", #"{"port": 9000, "host": "127.0.0.2", "limits": {"maxRecordsPerPage": 50}}"#)
        let resolved = try EmulatorConfiguration.resolve(
            flags: .init(port: 0), environment: ["LARDER_HOST": "127.0.0.3", "LARDER_MAX_OPERATIONS": "10"],
            file: URL(fileURLWithPath: path))
        #expect(resolved.port == 0 && resolved.host == "127.0.0.3")
        #expect(resolved.limits.maxRecordsPerPage == 50 && resolved.limits.maxOperationsPerRequest == 10)
        let unknown = try folder.write("bad.json", #"{"prot": 1}"#)
        #expect(throws: LarderError.self) { try EmulatorConfiguration.load(from: URL(fileURLWithPath: unknown)) }
        let nested = try folder.write("bad2.json", #"{"limits": {"maxOps": 1}}"#)
        do {
            _ = try EmulatorConfiguration.load(from: URL(fileURLWithPath: nested))
            Issue.record("an unknown nested key was accepted")
        } catch let error as LarderError {
            #expect(error.message.contains("maxOps"))
        }
        #expect(throws: LarderError.self) {
            try EmulatorConfiguration.resolve(flags: .init(), environment: ["LARDER_PORT": "eighty"], file: nil)
        }
    }
}
