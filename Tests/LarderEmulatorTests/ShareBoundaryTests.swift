import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

/// Issue #12: a participant reaches exactly the records already in the shared hierarchy, and a
/// record outside it answers exactly like a name that does not exist.
@Suite struct ShareBoundaryTests {
    static let sharedZone = RecordZoneID(zoneName: "Sources", ownerRecordName: TestServer.alice.userRecordName)

    /// Alice shares `source-1` (with child `category-1`) READ_WRITE with Bob, who accepts; she also
    /// keeps `private-1` and its child `private-2` unshared in the same zone.
    static func setUp(_ server: TestServer, permission: SharePermission = .readWrite) async throws -> TestClient {
        let alice = server.client()
        let (share, zone) = try await SharingTests.shareSource(alice, permission: permission)
        var child = Record.make("private-2", type: "Secret", fields: ["note": .string("child of a secret")])
        child.parent = RecordParent(recordName: "private-1")
        let seeded = try await alice.modify(
            [
                RecordOperation(.create, .make("private-1", type: "Secret", fields: ["note": .string("owner only")])),
                RecordOperation(.create, child),
            ], zone: zone)
        #expect(seeded.errorCodes == [nil, nil])
        let bobShared = server.client(TestServer.bob, database: .shared)
        _ = try await bobShared.post("records/accept", ShortGUIDsRequest(shortGUIDs: [try #require(share.shortGUID)]))
        return bobShared
    }

    /// One operation's answer with the record name blanked, so answers for two names compare.
    static func answer(_ client: TestClient, _ operation: RecordOperation, name: String) async throws -> String {
        let reply = try await client.post(
            "records/modify", ModifyRecordsRequest(operations: [operation], zoneID: sharedZone, atomic: false))
        return normalized(reply, name: name)
    }

    static func normalized(_ reply: TestClient.Answer, name: String) -> String {
        guard reply.status == 200, let results = try? reply.decode(RecordsResponse.self).records,
            let first = results.first
        else { return "\(reply.status) \(reply.errorCode ?? "-")" }
        if let error = first.error {
            return "200 \(error.serverErrorCode.rawValue) \(error.reason.replacingOccurrences(of: name, with: "NAME"))"
        }
        return "200 record \(first.record?.fields?.keys.sorted() ?? [])"
    }

    @Test("share bypass by re-parenting: forceUpdate of an unshared record with a shared parent changes nothing")
    func reparentingBypassIsRefused() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let bobShared = try await Self.setUp(server)
            let before = try await alice.post(
                "records/lookup",
                LookupRecordsRequest(
                    records: [.init(recordName: "private-1")], zoneID: RecordZoneID(zoneName: "Sources")))
            let original = try #require(try before.decode(RecordsResponse.self).records.first?.record)

            var attack = Record(recordName: "private-1")
            attack.parent = RecordParent(recordName: "source-1")
            let reply = try await bobShared.modify([RecordOperation(.forceUpdate, attack)], zone: Self.sharedZone)
            #expect(reply.records.isEmpty, "the owner's record leaked: \(reply)")
            #expect(reply.first?.record?.field("note") == nil)

            let after = try await alice.post(
                "records/lookup",
                LookupRecordsRequest(
                    records: [.init(recordName: "private-1")], zoneID: RecordZoneID(zoneName: "Sources")))
            let unchanged = try #require(try after.decode(RecordsResponse.self).records.first?.record)
            #expect(unchanged.recordChangeTag == original.recordChangeTag)
            #expect(unchanged.parent == nil && unchanged.field("note") == "owner only")

            let feed = try #require(try await bobShared.zoneChanges(Self.sharedZone).changes)
            #expect(Set(feed.records.records.compactMap(\.recordName)) == ["source-1", "category-1", "Share-1"])
            let lookup = try await bobShared.post(
                "records/lookup",
                LookupRecordsRequest(records: [.init(recordName: "private-1")], zoneID: Self.sharedZone))
            #expect(try lookup.decode(RecordsResponse.self).records.errorCodes == ["NOT_FOUND"])
        }
    }

    @Test("share bypass by re-parenting: a participant cannot move a shared record under an unshared one")
    func movingOutOfTheHierarchyIsRefused() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let bobShared = try await Self.setUp(server)
            var moved = Record.make("category-1", type: "Category")
            moved.parent = RecordParent(recordName: "private-1")
            var ghost = Record.make("category-1", type: "Category")
            ghost.parent = RecordParent(recordName: "ghost-parent")
            let toHidden = try await Self.answer(bobShared, RecordOperation(.forceUpdate, moved), name: "private-1")
            let toMissing = try await Self.answer(bobShared, RecordOperation(.forceUpdate, ghost), name: "ghost-parent")
            #expect(toHidden.hasPrefix("200 ACCESS_DENIED"))
            #expect(toHidden == toMissing)
            // Moving inside the hierarchy stays allowed.
            var recipe = Record.make("recipe-1", type: "Recipe")
            recipe.parent = RecordParent(recordName: "category-1")
            #expect(
                try await bobShared.modify([RecordOperation(.create, recipe)], zone: Self.sharedZone).errorCodes == [
                    nil
                ])
            var back = Record.make("recipe-1", type: "Recipe")
            back.parent = RecordParent(recordName: "source-1")
            #expect(
                try await bobShared.modify([RecordOperation(.forceUpdate, back)], zone: Self.sharedZone).errorCodes == [
                    nil
                ]
            )
        }
    }

    @Test("share probe equivalence: every operation on an unshared record answers like a missing name")
    func probesLookLikeMissingRecords() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let bobShared = try await Self.setUp(server)
            var probes = 0
            for hidden in ["private-1", "private-2"] {
                let lookup = { (name: String) async throws -> String in
                    let reply = try await bobShared.post(
                        "records/lookup",
                        LookupRecordsRequest(records: [.init(recordName: name)], zoneID: Self.sharedZone))
                    return Self.normalized(reply, name: name)
                }
                #expect(try await lookup(hidden) == lookup("ghost-1"))
                for type in OperationType.all {
                    for parent in [nil, "source-1", "category-1", "private-1", "ghost-parent"] {
                        for recordType in [nil, "Secret"] {
                            for tag in [nil, "x"] {
                                // A missing name would be created here; see the next test.
                                let creates =
                                    [.create, .forceUpdate, .forceReplace].contains(type) && recordType != nil
                                    && (parent == "source-1" || parent == "category-1")
                                if creates { continue }
                                func operation(_ name: String) -> RecordOperation {
                                    var record = Record(recordName: name, recordType: recordType, recordChangeTag: tag)
                                    record.parent = parent.map { RecordParent(recordName: $0) }
                                    return RecordOperation(type, record)
                                }
                                let forHidden = try await Self.answer(bobShared, operation(hidden), name: hidden)
                                let forMissing = try await Self.answer(bobShared, operation("ghost-1"), name: "ghost-1")
                                #expect(
                                    forHidden == forMissing,
                                    "\(type) \(hidden) parent \(parent ?? "-") type \(recordType ?? "-") tag \(tag ?? "-")"
                                )
                                probes += 1
                            }
                        }
                    }
                }
            }
            #expect(probes > 100)
            let alice = server.client()
            let after = try await alice.post(
                "records/lookup",
                LookupRecordsRequest(
                    records: [.init(recordName: "private-1"), .init(recordName: "private-2")],
                    zoneID: RecordZoneID(zoneName: "Sources")))
            let records = try after.decode(RecordsResponse.self).records.records
            #expect(records.map { $0.field("note") } == ["owner only", "child of a secret"])
        }
    }

    @Test("share probe equivalence: creating over an unshared name answers EXISTS, as for a shared name")
    func creatingOverAHiddenNameAnswersExists() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let bobShared = try await Self.setUp(server)
            for type in [OperationType.create, .forceUpdate, .forceReplace] {
                var record = Record.make("private-1", type: "Secret", fields: ["note": .string("Bob's")])
                record.parent = RecordParent(recordName: "source-1")
                let hidden = try await Self.answer(bobShared, RecordOperation(type, record), name: "private-1")
                var visible = Record.make("category-1", type: "Category")
                visible.parent = RecordParent(recordName: "source-1")
                let taken = try await Self.answer(bobShared, RecordOperation(.create, visible), name: "category-1")
                #expect(hidden == taken, "\(type)")
                #expect(hidden.hasPrefix("200 EXISTS"))
            }
            let lookup = try await server.client().post(
                "records/lookup",
                LookupRecordsRequest(
                    records: [.init(recordName: "private-1")], zoneID: RecordZoneID(zoneName: "Sources")))
            #expect(try lookup.decode(RecordsResponse.self).records.first?.record?.field("note") == "owner only")
        }
    }

    @Test("share probe equivalence: a READ_ONLY participant's probes of unshared records answer like missing names")
    func readOnlyProbesLookLikeMissingRecords() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let bobShared = try await Self.setUp(server, permission: .readOnly)
            for type in OperationType.all {
                for parent in [nil, "source-1"] {
                    func operation(_ name: String) -> RecordOperation {
                        var record = Record(recordName: name, recordType: "Secret")
                        record.parent = parent.map { RecordParent(recordName: $0) }
                        return RecordOperation(type, record)
                    }
                    let forHidden = try await Self.answer(bobShared, operation("private-1"), name: "private-1")
                    let forMissing = try await Self.answer(bobShared, operation("ghost-1"), name: "ghost-1")
                    #expect(forHidden == forMissing, "\(type) parent \(parent ?? "-")")
                }
            }
        }
    }
}
