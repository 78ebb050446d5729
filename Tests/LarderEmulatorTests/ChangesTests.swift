import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

@Suite struct ChangesTests {
    @Test("changes/zone pages with moreComing and reports deletions as tombstones")
    func zoneChangesPageAndTombstones() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Sync")
            let zone = RecordZoneID(zoneName: "Sync")
            _ = try await alice.modify((0..<5).map { RecordOperation(.create, .make("r\($0)")) }, zone: zone)
            var token: String?
            var names: [String] = []
            var more = true
            while more {
                let page = try #require(try await alice.zoneChanges(zone, token: token, limit: 2).changes)
                names += page.records.records.compactMap(\.recordName)
                token = page.syncToken
                more = page.moreComing
            }
            #expect(names == ["r0", "r1", "r2", "r3", "r4"])
            _ = try await alice.modify([RecordOperation(.forceDelete, .make("r2"))], zone: zone)
            let after = try #require(try await alice.zoneChanges(zone, token: token).changes)
            #expect(after.records.records.map(\.recordName) == ["r2"])
            #expect(after.records.records.first?.deleted == true && after.records.records.first?.recordType == nil)
            let nothing = try #require(try await alice.zoneChanges(zone, token: after.syncToken).changes)
            #expect(nothing.records.isEmpty && !nothing.moreComing)
        }
    }

    @Test("a record deleted and re-created under the same name comes back on every device")
    func deletedAndRecreatedRecordComesBack() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Sync")
            let zone = RecordZoneID(zoneName: "Sync")
            _ = try await alice.modify(
                [RecordOperation(.create, .make("note", fields: ["title": .string("v1")]))], zone: zone)
            let deviceB = try #require(try await alice.zoneChanges(zone).changes).syncToken
            _ = try await alice.modify([RecordOperation(.forceDelete, .make("note"))], zone: zone)
            let deviceC = try #require(try await alice.zoneChanges(zone).changes).syncToken
            _ = try await alice.modify(
                [RecordOperation(.create, .make("note", fields: ["title": .string("v2")]))], zone: zone)
            for token in [deviceB, deviceC] {
                let changes = try #require(try await alice.zoneChanges(zone, token: token).changes)
                let records = changes.records.records
                #expect(records.count == 1)
                #expect(records.first?.deleted == nil && records.first?.field("title") == "v2")
            }
            let fresh = try #require(try await alice.zoneChanges(zone).changes).records.records
            #expect(fresh.count == 1 && fresh.first?.field("title") == "v2")
        }
    }

    @Test("a garbled token is BAD_REQUEST and a token from a deleted zone's earlier life is CHANGE_TOKEN_EXPIRED")
    func garbledAndExpiredTokens() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Sync")
            let zone = RecordZoneID(zoneName: "Sync")
            _ = try await alice.modify([RecordOperation(.create, .make("a"))], zone: zone)
            let token = try #require(try await alice.zoneChanges(zone).changes).syncToken
            let garbled = try await alice.zoneChanges(zone, token: "ZT-7")
            #expect(
                garbled.error?.serverErrorCode == .badRequest
                    && garbled.error?.reason == "Unknown sync continuation type")
            _ = try await alice.post(
                "zones/modify", ZonesModifyRequest(operations: [.init(operationType: "delete", zoneID: zone)]))
            let missing = try await alice.zoneChanges(zone, token: token)
            #expect(missing.error?.serverErrorCode == .zoneNotFound)
            try await alice.createZone("Sync")
            let expired = try await alice.zoneChanges(zone, token: token)
            #expect(expired.error?.serverErrorCode == .changeTokenExpired)
            let legacy = try await alice.post("records/changes", RecordChangesRequest(zoneID: zone, syncToken: token))
            #expect(legacy.status == 400 && legacy.errorCode == "CHANGE_TOKEN_EXPIRED")
        }
    }

    @Test("changes/database lists changed zones, deleted ones too, and tokens only move forward")
    func databaseChanges() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let first = try await alice.post("changes/database", DatabaseChangesRequest()).decode(
                DatabaseChangesResponse.self)
            #expect(first.zones.map(\.zoneID.zoneName) == ["_defaultZone"])
            try await alice.createZone("A")
            try await alice.createZone("B")
            let second = try await alice.post("changes/database", DatabaseChangesRequest(syncToken: first.syncToken))
                .decode(DatabaseChangesResponse.self)
            #expect(second.zones.map(\.zoneID.zoneName) == ["A", "B"])
            _ = try await alice.modify([RecordOperation(.create, .make("x"))], zone: RecordZoneID(zoneName: "B"))
            _ = try await alice.post(
                "zones/modify",
                ZonesModifyRequest(operations: [.init(operationType: "delete", zoneID: RecordZoneID(zoneName: "A"))]))
            let third = try await alice.post(
                "changes/database", DatabaseChangesRequest(syncToken: second.syncToken, resultsLimit: 1)
            )
            .decode(DatabaseChangesResponse.self)
            #expect(third.zones.map(\.zoneID.zoneName) == ["B"] && third.moreComing)
            let fourth = try await alice.post("changes/database", DatabaseChangesRequest(syncToken: third.syncToken))
                .decode(DatabaseChangesResponse.self)
            #expect(
                fourth.zones.map(\.zoneID.zoneName) == ["A"] && fourth.zones.first?.deleted == true
                    && !fourth.moreComing)
            let legacy = try await alice.post("zones/changes", DatabaseChangesRequest()).decode(
                DatabaseChangesResponse.self)
            #expect(Set(legacy.zones.map(\.zoneID.zoneName)) == ["_defaultZone", "A", "B"])
            let bad = try await alice.post("changes/database", DatabaseChangesRequest(syncToken: "nonsense"))
            #expect(bad.errorCode == "BAD_REQUEST")
            let publicDB = try await server.client(database: .public).post("changes/database", DatabaseChangesRequest())
            #expect(publicDB.errorCode == "BAD_REQUEST")
        }
    }
}
