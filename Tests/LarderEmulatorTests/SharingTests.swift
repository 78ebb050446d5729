import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

/// Seed 004 (iCook): share a source read-only, accept, read it from the shared database, try to write.
@Suite struct SharingTests {
    static func shareSource(
        _ alice: TestClient, permission: SharePermission, zoneName: String = "Sources"
    ) async throws -> (share: Record, zone: RecordZoneID) {
        try await alice.createZone(zoneName)
        let zone = RecordZoneID(zoneName: zoneName)
        var category = Record.make("category-1", type: "Category", fields: ["name": .string("Breakfast")])
        category.parent = RecordParent(recordName: "source-1")
        let source = try await alice.modify(
            [
                RecordOperation(.create, .make("source-1", type: "Source", fields: ["name": .string("Grandma's box")])),
                RecordOperation(.create, category),
            ], zone: zone)
        let tag = try #require(source.records.first?.recordChangeTag)
        var share = Record(recordName: "Share-1", recordType: "cloudKit.share", fields: [:])
        share.forRecord = ForRecord(recordName: "source-1", recordChangeTag: tag)
        share.publicPermission = SharePermission.none
        share.participants = [
            ShareParticipant(
                userIdentity: UserIdentity(lookupInfo: LookupInfo(emailAddress: "bob@example.com")), type: "USER",
                permission: permission, acceptanceStatus: "INVITED")
        ]
        let saved = try await alice.modify([RecordOperation(.create, share)], zone: zone)
        return (try #require(saved.records.first, "\(saved)"), zone)
    }

    @Test("a read-only participant reads the shared source but gets ACCESS_DENIED writing it")
    func readOnlyParticipantCannotWriteSharedSource() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let bobShared = server.client(TestServer.bob, database: .shared)
            let (share, zone) = try await Self.shareSource(alice, permission: .readOnly)
            #expect(share.recordType == "cloudkit.share" && share.shortGUID != nil)
            #expect(
                share.participants?.count == 2
                    && share.owner?.userIdentity?.userRecordName == TestServer.alice.userRecordName)
            let sharedZone = RecordZoneID(zoneName: zone.zoneName, ownerRecordName: TestServer.alice.userRecordName)

            // Before accepting, nothing is visible.
            let before = try await bobShared.post("changes/database", DatabaseChangesRequest()).decode(
                DatabaseChangesResponse.self)
            #expect(before.zones.isEmpty)

            let accepted = try await bobShared.post(
                "records/accept", ShortGUIDsRequest(shortGUIDs: [try #require(share.shortGUID)])
            )
            .decode(ShareMetadataResponse.self)
            let metadata = try #require(accepted.results.first?.metadata)
            #expect(metadata.participantStatus == "ACCEPTED" && metadata.participantPermission == .readOnly)
            #expect(metadata.rootRecordName == "source-1" && metadata.zoneID == sharedZone)

            let databaseChanges = try await bobShared.post(
                "changes/database", DatabaseChangesRequest(syncToken: before.syncToken)
            )
            .decode(DatabaseChangesResponse.self)
            #expect(databaseChanges.zones.map(\.zoneID) == [sharedZone])
            let zoneChanges = try #require(try await bobShared.zoneChanges(sharedZone).changes)
            #expect(Set(zoneChanges.records.records.compactMap(\.recordName)) == ["source-1", "category-1", "Share-1"])
            let query = try await bobShared.query(Query(recordType: "Source"), zone: sharedZone)
            #expect(query.records.records.first?.field("name") == "Grandma's box")
            #expect(query.records.records.first?.share?.recordName == "Share-1")

            let sourceTag = try #require(query.records.records.first?.recordChangeTag)
            let write = try await bobShared.modify(
                [
                    RecordOperation(
                        .update,
                        .make("source-1", type: "Source", fields: ["name": .string("Mine now")], tag: sourceTag))
                ],
                zone: sharedZone, atomic: false)
            #expect(write.errorCodes == ["ACCESS_DENIED"])
            let child = try await bobShared.modify(
                [RecordOperation(.forceUpdate, .make("category-1", type: "Category", fields: ["name": .string("x")]))],
                zone: sharedZone)
            #expect(child.errorCodes == ["ACCESS_DENIED"])
            let shareEdit = try await bobShared.modify(
                [RecordOperation(.forceUpdate, Record(recordName: "Share-1", recordType: "cloudkit.share"))],
                zone: sharedZone)
            #expect(shareEdit.errorCodes == ["ACCESS_DENIED"])

            // Alice still owns and edits it.
            let own = try await alice.modify(
                [
                    RecordOperation(
                        .forceUpdate, .make("source-1", type: "Source", fields: ["name": .string("Renamed")]))
                ],
                zone: zone)
            #expect(own.errorCodes == [nil])
        }
    }

    @Test("a read-write participant can edit records under the shared root, but never the share")
    func readWriteParticipantEditsButNotTheShare() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let bobShared = server.client(TestServer.bob, database: .shared)
            let (share, _) = try await Self.shareSource(alice, permission: .readWrite)
            _ = try await bobShared.post(
                "records/accept", ShortGUIDsRequest(shortGUIDs: [try #require(share.shortGUID)]))
            let sharedZone = RecordZoneID(zoneName: "Sources", ownerRecordName: TestServer.alice.userRecordName)
            var recipe = Record.make("recipe-9", type: "Recipe", fields: ["title": .string("Bob's")])
            recipe.parent = RecordParent(recordName: "category-1")
            let written = try await bobShared.modify([RecordOperation(.create, recipe)], zone: sharedZone)
            #expect(written.errorCodes == [nil])
            let orphan = try await bobShared.modify([RecordOperation(.create, .make("loose"))], zone: sharedZone)
            #expect(orphan.errorCodes == ["ACCESS_DENIED"])
            let shareEdit = try await bobShared.modify(
                [RecordOperation(.forceUpdate, Record(recordName: "Share-1", recordType: "cloudkit.share"))],
                zone: sharedZone)
            #expect(shareEdit.errorCodes == ["ACCESS_DENIED"])
            // Deleting the share takes the zone away from Bob.
            _ = try await alice.modify(
                [RecordOperation(.forceDelete, Record(recordName: "Share-1"))], zone: RecordZoneID(zoneName: "Sources"))
            let after = try await bobShared.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "source-1")], zoneID: sharedZone))
            #expect(after.errorCode == "ZONE_NOT_FOUND")
        }
    }

    @Test("a zone-wide share exposes the whole zone")
    func zoneWideShare() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await alice.createZone("Family")
            let zone = RecordZoneID(zoneName: "Family")
            _ = try await alice.modify(
                [RecordOperation(.create, .make("a")), RecordOperation(.create, .make("b"))], zone: zone)
            var share = Record(recordName: Record.zoneWideShareName, recordType: "cloudkit.share")
            share.participants = [
                ShareParticipant(
                    userIdentity: UserIdentity(userRecordName: TestServer.bob.userRecordName), permission: .readOnly)
            ]
            let saved = try await alice.modify([RecordOperation(.create, share)], zone: zone)
            let guid = try #require(saved.records.first?.shortGUID)
            let bobShared = server.client(TestServer.bob, database: .shared)
            _ = try await bobShared.post("records/accept", ShortGUIDsRequest(shortGUIDs: [guid]))
            let sharedZone = RecordZoneID(zoneName: "Family", ownerRecordName: TestServer.alice.userRecordName)
            let zones = try await bobShared.get("zones/list").decode(ZonesResponse.self)
            #expect(zones.zones.compactMap(\.zone?.zoneID) == [sharedZone])
            #expect(
                Set(QueryTests.names(try await bobShared.query(Query(recordType: "Recipe"), zone: sharedZone))) == [
                    "a", "b",
                ])
            let write = try await bobShared.modify([RecordOperation(.create, .make("c"))], zone: sharedZone)
            #expect(write.errorCodes == ["ACCESS_DENIED"])
        }
    }

    @Test("shares cannot live in the default zone; an unknown participant's record name is refused")
    func shareValidation() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            _ = try await alice.modify([RecordOperation(.create, .make("root"))])
            var share = Record(recordName: "S", recordType: "cloudkit.share")
            share.forRecord = ForRecord(recordName: "root")
            #expect(try await alice.modify([RecordOperation(.create, share)]).errorCodes == ["BAD_REQUEST"])
            try await alice.createZone("Z")
            _ = try await alice.modify([RecordOperation(.create, .make("root"))], zone: RecordZoneID(zoneName: "Z"))
            share.participants = [ShareParticipant(userIdentity: UserIdentity(userRecordName: "_nobody"))]
            let refused = try await alice.modify([RecordOperation(.create, share)], zone: RecordZoneID(zoneName: "Z"))
            #expect(refused.errorCodes == ["BAD_REQUEST"])
        }
    }

    @Test("discoverability attack: an invitation by email reveals nothing before acceptance, known or unknown")
    func invitationRevealsNothing() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            func invite(_ email: String, zone: String) async throws -> [ShareParticipant] {
                try await alice.createZone(zone)
                let zoneID = RecordZoneID(zoneName: zone)
                let root = try await alice.modify([RecordOperation(.create, .make("root"))], zone: zoneID)
                var share = Record(recordName: "S", recordType: "cloudkit.share")
                share.forRecord = ForRecord(recordName: "root", recordChangeTag: root.records.first?.recordChangeTag)
                share.participants = [
                    ShareParticipant(userIdentity: UserIdentity(lookupInfo: LookupInfo(emailAddress: email)))
                ]
                let saved = try await alice.modify([RecordOperation(.create, share)], zone: zoneID)
                return try #require(saved.records.first, "\(saved)").participants ?? []
            }
            // Bob exists (and is not discoverable); nobody@ does not. The owner sees the same for both.
            let known = try await invite("bob@example.com", zone: "Known")
            let unknown = try await invite("nobody@example.com", zone: "Unknown")
            let invited = try #require(known.first { $0.type != "OWNER" })
            let stranger = try #require(unknown.first { $0.type != "OWNER" })
            #expect(invited.userIdentity?.userRecordName == nil && invited.userIdentity?.nameComponents == nil)
            #expect(invited.userIdentity?.lookupInfo?.emailAddress == "bob@example.com")
            #expect(invited.acceptanceStatus == stranger.acceptanceStatus && invited.permission == stranger.permission)
            #expect(stranger.userIdentity?.userRecordName == nil && stranger.userIdentity?.nameComponents == nil)
            let shown = try JSONEncoder().encode(known)
            #expect(!String(decoding: shown, as: UTF8.self).contains(TestServer.bob.userRecordName))
        }
    }
}
