import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

@Suite struct ReferenceActionTests {
    static let zone = RecordZoneID(zoneName: "Refs")

    static func ref(_ name: String, _ action: String, zone: RecordZoneID? = nil) -> FieldValue {
        .reference(Reference(recordName: name, zoneID: zone, action: action))
    }

    static func child(_ name: String, parent: String, action: String = "DELETE_SELF") -> RecordOperation {
        RecordOperation(.create, .make(name, type: "Step", fields: ["recipe": ref(parent, action)]))
    }

    /// Runs `body` with a server, Alice's client and her zone `Refs`.
    static func withZone(_ body: (TestClient) async throws -> Void) async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Refs")
            try await body(alice)
        }
    }

    @Test("deleting a target deletes its DELETE_SELF sources recursively, each a tombstone in changes/zone")
    func deleteSelfCascades() async throws {
        try await Self.withZone { alice in
            let zone = Self.zone
            _ = try await alice.modify(
                [
                    RecordOperation(.create, .make("root")), Self.child("a", parent: "root"),
                    Self.child("b", parent: "a"), Self.child("keep", parent: "root", action: "NONE"),
                    RecordOperation(
                        .create,
                        .make(
                            "listed", type: "Tag",
                            fields: ["links": .list(elementType: .reference, [Self.ref("b", "DELETE_SELF")])])),
                ], zone: zone)
            let token = try #require(try await alice.zoneChanges(zone).changes).syncToken
            let deleted = try await alice.modify([RecordOperation(.forceDelete, .make("root"))], zone: zone)
            #expect(deleted.records.map(\.recordName) == ["root"])
            let changes = try #require(try await alice.zoneChanges(zone, token: token).changes)
            let records = changes.records.records
            #expect(records.map(\.recordName) == ["root", "a", "b", "listed"])
            #expect(records.allSatisfy { $0.deleted == true })
            let lookup = try await alice.post(
                "records/lookup",
                LookupRecordsRequest(records: [.init(recordName: "keep"), .init(recordName: "a")], zoneID: zone))
            let results = try lookup.decode(RecordsResponse.self).records
            #expect(results.errorCodes == [nil, "NOT_FOUND"])
        }
    }

    @Test("DELETE_SELF cycles end, and cross-zone references are ignored")
    func cyclesAndCrossZone() async throws {
        try await Self.withZone { alice in
            try await alice.createZone("Other")
            let zone = Self.zone
            let other = RecordZoneID(zoneName: "Other")
            _ = try await alice.modify(
                [
                    RecordOperation(.create, .make("x", fields: ["next": Self.ref("y", "DELETE_SELF")])),
                    RecordOperation(.create, .make("y", fields: ["next": Self.ref("x", "DELETE_SELF")])),
                ], zone: zone)
            _ = try await alice.modify(
                [
                    RecordOperation(
                        .create, .make("far", fields: ["next": Self.ref("x", "DELETE_SELF", zone: zone)]))
                ], zone: other)
            // A VALIDATE reference into another zone is not checked either.
            let crossValidate = try await alice.modify(
                [
                    RecordOperation(
                        .create, .make("v", fields: ["next": Self.ref("ghost", "VALIDATE", zone: other)]))
                ], zone: zone)
            #expect(crossValidate.errorCodes == [nil])
            let deleted = try await alice.modify([RecordOperation(.forceDelete, .make("x"))], zone: zone)
            #expect(deleted.errorCodes == [nil])
            let changes = try #require(try await alice.zoneChanges(zone).changes).records.records
            #expect(Set(changes.filter { $0.deleted == true }.compactMap(\.recordName)) == ["x", "y"])
            let far = try #require(try await alice.zoneChanges(other).changes).records.records
            #expect(far.map(\.recordName) == ["far"] && far.first?.deleted == nil)
        }
    }

    @Test(
        "VALIDATE: a save to a missing target and a delete of a referenced target fail with VALIDATING_REFERENCE_ERROR")
    func validateReferences() async throws {
        try await Self.withZone { alice in
            let zone = Self.zone
            let missing = try await alice.modify(
                [Self.child("orphan", parent: "nobody", action: "VALIDATE")], zone: zone)
            #expect(missing.errorCodes == ["VALIDATING_REFERENCE_ERROR"])
            _ = try await alice.modify(
                [
                    RecordOperation(.create, .make("target")),
                    Self.child("holder", parent: "target", action: "VALIDATE"),
                ],
                zone: zone)
            let refused = try await alice.modify([RecordOperation(.forceDelete, .make("target"))], zone: zone)
            #expect(refused.errorCodes == ["VALIDATING_REFERENCE_ERROR"])
            // Once the holder is gone, the target can go.
            let both = try await alice.modify(
                [RecordOperation(.forceDelete, .make("holder")), RecordOperation(.forceDelete, .make("target"))],
                zone: zone)
            #expect(both.errorCodes == [nil, nil])
        }
    }

    @Test("a VALIDATE holder that the cascade deletes does not block the delete")
    func validateHolderInsideCascade() async throws {
        try await Self.withZone { alice in
            let zone = Self.zone
            _ = try await alice.modify(
                [
                    RecordOperation(.create, .make("root")),
                    RecordOperation(
                        .create,
                        .make(
                            "step", type: "Step",
                            fields: ["recipe": Self.ref("root", "DELETE_SELF"), "check": Self.ref("root", "VALIDATE")])),
                ], zone: zone)
            let deleted = try await alice.modify([RecordOperation(.forceDelete, .make("root"))], zone: zone)
            #expect(deleted.errorCodes == [nil])
            let gone = try #require(try await alice.zoneChanges(zone).changes).records.records
            #expect(gone.allSatisfy { $0.deleted == true } && gone.count == 2)
        }
    }

    @Test("the 751st DELETE_SELF reference to one target is refused with BAD_REQUEST")
    func deleteSelfLimit() async throws {
        try await Self.withZone { alice in
            let zone = Self.zone
            _ = try await alice.modify([RecordOperation(.create, .make("target"))], zone: zone)
            for batch in 0..<4 {
                let range = (batch * 200)..<min(batch * 200 + 200, 750)
                let results = try await alice.modify(range.map { Self.child("s\($0)", parent: "target") }, zone: zone)
                #expect(results.errorCodes.allSatisfy { $0 == nil })
            }
            let extra = try await alice.modify([Self.child("s750", parent: "target")], zone: zone)
            #expect(extra.errorCodes == ["BAD_REQUEST"])
            // Re-saving one of the 750 is not a new reference.
            let again = try await alice.modify(
                [
                    RecordOperation(
                        .forceReplace, .make("s0", type: "Step", fields: ["recipe": Self.ref("target", "DELETE_SELF")]))
                ], zone: zone)
            #expect(again.errorCodes == [nil])
        }
    }

    @Test("export and import rebuild the reference index: a cascade still runs after an import")
    func importRebuildsIndex() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Refs")
            _ = try await alice.modify(
                [RecordOperation(.create, .make("root")), Self.child("a", parent: "root")], zone: Self.zone)
            let exported = try await ControlPlaneTests.call(server, "GET", "export")
            _ = try await ControlPlaneTests.call(server, "POST", "reset")
            #expect(try await ControlPlaneTests.call(server, "POST", "import", body: exported.data).status == 200)
            _ = try await alice.modify([RecordOperation(.forceDelete, .make("root"))], zone: Self.zone)
            let changes = try #require(try await alice.zoneChanges(Self.zone).changes).records.records
            #expect(changes.count == 2 && changes.allSatisfy { $0.deleted == true })
        }
    }

    @Test("changes/zone reverse: each page newest first, same pages and tokens as forward")
    func reverseChanges() async throws {
        try await Self.withZone { alice in
            let zone = Self.zone
            _ = try await alice.modify((0..<5).map { RecordOperation(.create, .make("r\($0)")) }, zone: zone)
            func page(token: String?, limit: Int?, topLevel: Bool) async throws -> ZoneChanges {
                var options = ZoneChangesRequest.Options(zoneID: zone, syncToken: token, resultsLimit: limit)
                var request = ZoneChangesRequest(zones: [])
                if topLevel { request.reverse = true } else { options.reverse = true }
                request.zones = [options]
                let answer = try await alice.post("changes/zone", request)
                return try #require(try answer.decode(ZoneChangesResponse.self).zones.first?.changes)
            }
            let whole = try await page(token: nil, limit: nil, topLevel: false)
            #expect(whole.records.records.map(\.recordName) == ["r4", "r3", "r2", "r1", "r0"])
            #expect(!whole.moreComing)
            let first = try await page(token: nil, limit: 3, topLevel: true)
            #expect(first.records.records.map(\.recordName) == ["r2", "r1", "r0"] && first.moreComing)
            let forward = try #require(try await alice.zoneChanges(zone, limit: 3).changes)
            #expect(forward.syncToken == first.syncToken)
            let second = try await page(token: first.syncToken, limit: 3, topLevel: false)
            #expect(second.records.records.map(\.recordName) == ["r4", "r3"] && !second.moreComing)
        }
    }
}
