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
        // Damage the stored fields of r1 behind the server's back.
        let (folder, configuration) = try await Self.damagedDataFolder(
            records: ["r1": "durable"], damage: #"UPDATE record SET fields = '{"title": [' WHERE name = 'r1'"#)
        let second = try await TestServer.start(configuration: configuration)
        try await stopping(second) { _ in
            let answer = try await second.client().post(
                "records/query", QueryRecordsRequest(query: Query(recordType: "Recipe"), zoneID: Self.zone))
            #expect(answer.status == 500)
            #expect(answer.errorCode == "INTERNAL_ERROR")
            #expect(answer.text.contains("r1"))
        }
        withExtendedLifetime(folder) {}
    }

    @Test("text in the record table's integer changeSeq column: INTERNAL_ERROR naming it, and the server serves on")
    func textInRecordIntegerColumn() async throws {
        let (folder, configuration) = try await Self.damagedDataFolder(
            records: ["r1": "damaged", "r2": "intact"], damage: "UPDATE record SET changeSeq = 'late' WHERE name = 'r1'"
        )
        let second = try await TestServer.start(configuration: configuration)
        try await stopping(second) { _ in
            let client = second.client()
            let damaged = try await client.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "r1")], zoneID: Self.zone))
            #expect(damaged.status == 500)
            #expect(damaged.errorCode == "INTERNAL_ERROR")
            let reason = damaged.json["reason"]?.stringValue ?? ""
            #expect(
                reason.hasPrefix(
                    "the emulator store is damaged: table record, column changeSeq (the row where zoneId = "))
            #expect(reason.hasSuffix(" and name = 'r1'): expected an integer, found TEXT 'late'"), "\(reason)")
            let modify = try await client.modify(
                [RecordOperation(.update, .make("r1", fields: ["title": .string("again")]))], zone: Self.zone)
            #expect(modify.first?.error?.serverErrorCode.rawValue == "INTERNAL_ERROR")
            let intact = try await client.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "r2")], zoneID: Self.zone))
            #expect(intact.status == 200)
            #expect(intact.text.contains("intact"))
        }
        withExtendedLifetime(folder) {}
    }

    /// The zone the damaged data folders hold their records in.
    static let zone = RecordZoneID(zoneName: "Kept")

    /// A data folder whose zone ``zone`` holds `records` (name: title), with `sql` then run on its
    /// SQLite file behind the server's back (the server stopped), and the configuration serving it.
    private static func damagedDataFolder(records: [String: String], damage sql: String) async throws
        -> (TemporaryDirectory, EmulatorConfiguration)
    {
        let folder = try TemporaryDirectory()
        let configuration = TestServer.configuration {
            $0.inMemory = false
            $0.dataDirectory = folder.path("data")
        }
        let first = try await TestServer.start(configuration: configuration)
        try await stopping(first) { _ in
            let alice = first.client()
            try await alice.createZone("Kept")
            _ = try await alice.modify(
                records.sorted { $0.key < $1.key }.map {
                    RecordOperation(.create, .make($0.key, fields: ["title": .string($0.value)]))
                }, zone: zone)
        }
        let damage = Process()
        damage.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        damage.arguments = [
            "python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
            folder.path("data/emulator.sqlite"), sql,
        ]
        try damage.run()
        damage.waitUntilExit()
        #expect(damage.terminationStatus == 0)
        return (folder, configuration)
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
