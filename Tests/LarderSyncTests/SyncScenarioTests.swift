import Foundation
import LarderCloudKit
import LarderCore
import LarderRegistry
import LarderStore
import LarderTestSupport
import Testing

@testable import LarderSync

/// Seed 003: persistent minimal tombstones across three devices A, B and C, each with its
/// own store, syncing through the emulator.
@Suite struct SyncScenarioTests {
    struct Device {
        let name: String
        let store: Store
        let state: SyncState
        let sync: StoreSync

        func record(_ id: String) throws -> Value? {
            try store.records(type: "recipe").first { $0["id"]?.stringValue == id }
        }
    }

    /// Three stores and one zone.
    struct Group {
        let server: UploadTestServer
        let directory: TemporaryDirectory
        let a: Device
        let b: Device
        let c: Device

        static func make(zone: String) async throws -> Group {
            let server = try await UploadTestServer.start()
            let directory = try TemporaryDirectory()
            func device(_ name: String) throws -> Device {
                let store = try Store(path: directory.path("\(name).db"), create: true)
                var sync = StoreSync(store: store, client: server.client(zone: zone))
                sync.deviceID = name
                sync.clock = TestClock().clock
                return Device(name: name, store: store, state: SyncState(store: store), sync: sync)
            }
            return Group(
                server: server, directory: directory, a: try device("A"), b: try device("B"), c: try device("C"))
        }

        /// Cloud copy of a record, as a Larder value (nil when the zone has none).
        func cloud(_ id: String, zone: String) async throws -> Value? {
            let (records, _) = try await server.zoneContents(zone: zone)
            return try records["recipe-\(id)"].map { try RecordMapping().value(of: $0) }
        }
    }

    static func recipe(_ id: String, title: String) -> Value {
        [
            "id": .string(id), "title": .string(title), "ingredients": [], "instructions": [],
            "createdAt": "2024-01-01T10:00:00Z",
        ]
    }

    @discardableResult
    func sync(_ devices: Device...) async throws -> [StoreSync.Report] {
        var reports: [StoreSync.Report] = []
        for device in devices { reports.append(try await device.sync.run()) }
        return reports
    }

    @Test("deleting on A leaves a minimal tombstone; B deletes; C, syncing weeks later, still deletes")
    func deleteReachesEveryDevice() async throws {
        let group = try await Group.make(zone: "delete")
        try await stopping(group.server) { _ in
            let (a, b, c) = (group.a, group.b, group.c)
            try a.state.save(Self.recipe("r1", title: "Shakshuka"), type: "recipe", at: Date())
            try await sync(a, b, c)
            #expect(try b.record("r1")?["title"] == "Shakshuka")
            #expect(try c.record("r1")?["title"] == "Shakshuka")

            try a.state.delete(type: "recipe", id: "r1", at: Date())
            try await sync(a)
            let cloud = try #require(try await group.cloud("r1", zone: "delete"))
            #expect(cloud["isDeleted"] == true)
            #expect(cloud["title"] == nil)  // no personal data in the tombstone
            let keys = Set(cloud.objectValue?.keys ?? [])
            #expect(keys.isSubset(of: Tombstone.cloudFieldNames), "\(keys)")

            try await sync(b)
            #expect(try b.record("r1")?["isDeleted"] == true)
            #expect(try b.record("r1")?["title"] == nil)

            // Weeks of other changes later, C syncs for the first time since.
            for index in 0..<5 {
                try b.state.save(Self.recipe("later-\(index)", title: "Later \(index)"), type: "recipe", at: Date())
            }
            try await sync(b, a)
            try await sync(c)
            #expect(try c.record("r1")?["isDeleted"] == true)
            #expect(try c.record("later-4")?["title"] == "Later 4")
        }
    }

    @Test("set local on A: B and C delete their copies, A keeps its data; re-enabling brings it back everywhere")
    func setLocalThenReEnable() async throws {
        let group = try await Group.make(zone: "local")
        try await stopping(group.server) { _ in
            let (a, b, c) = (group.a, group.b, group.c)
            try a.state.save(Self.recipe("r2", title: "Carbonara"), type: "recipe", at: Date())
            try await sync(a, b, c)

            try a.state.setLocalOnly(type: "recipe", id: "r2", at: Date())
            try await sync(a, b, c)
            #expect(try a.record("r2")?["title"] == "Carbonara")
            #expect(try a.record("r2")?["isCloudEnabled"] == false)
            #expect(try b.record("r2")?["isDeleted"] == true)
            #expect(try c.record("r2")?["isDeleted"] == true)
            #expect(try await group.cloud("r2", zone: "local")?["isDeleted"] == true)

            try a.state.enableCloud(type: "recipe", id: "r2", at: Date())
            try await sync(a)
            let cloud = try #require(try await group.cloud("r2", zone: "local"))
            #expect(cloud["title"] == "Carbonara")  // the tombstone was overwritten with the full record
            try await sync(b, c)
            #expect(try b.record("r2")?["title"] == "Carbonara")
            #expect(try c.record("r2")?["title"] == "Carbonara")
            #expect(try b.record("r2")?["isDeleted"] != true)
        }
    }

    @Test("local on A: a delete or an edit on B never touches A's copy")
    func localOnlyIsProtected() async throws {
        let group = try await Group.make(zone: "protect")
        try await stopping(group.server) { _ in
            let (a, b) = (group.a, group.b)
            try a.state.save(Self.recipe("r3", title: "Dal"), type: "recipe", at: Date())
            try a.state.save(Self.recipe("r4", title: "Pho"), type: "recipe", at: Date())
            try await sync(a, b)

            // A goes local-only on both before it syncs; meanwhile B deletes r3 and edits r4.
            try a.state.setLocalOnly(type: "recipe", id: "r3", at: Date())
            try a.state.setLocalOnly(type: "recipe", id: "r4", at: Date())
            try b.state.delete(type: "recipe", id: "r3", at: Date())
            var edited = try #require(try b.record("r4"))
            edited.setField("title", "Pho (B's edit)")
            try b.state.save(edited, type: "recipe", at: Date())
            try await sync(b)

            let reports = try await sync(a)
            #expect(reports[0].applied["protectedLocalOnly", default: 0] == 2)
            #expect(try a.record("r3")?["title"] == "Dal")
            #expect(try a.record("r4")?["title"] == "Pho")
            #expect(try a.record("r4")?["isCloudEnabled"] == false)
            // A's set-local tombstone wins over B's edit not yet seen: B removes its copy too.
            #expect(try await group.cloud("r4", zone: "protect")?["isDeleted"] == true)
            try await sync(b)
            #expect(try b.record("r4")?["isDeleted"] == true)
        }
    }

    @Test("A and C set local: B removes its copy, A and C keep theirs")
    func twoDevicesSetLocal() async throws {
        let group = try await Group.make(zone: "two")
        try await stopping(group.server) { _ in
            let (a, b, c) = (group.a, group.b, group.c)
            try a.state.save(Self.recipe("r5", title: "Ramen"), type: "recipe", at: Date())
            try await sync(a, b, c)
            try a.state.setLocalOnly(type: "recipe", id: "r5", at: Date())
            try await sync(a)
            try c.state.setLocalOnly(type: "recipe", id: "r5", at: Date())
            try await sync(c, b)
            #expect(try a.record("r5")?["title"] == "Ramen")
            #expect(try c.record("r5")?["title"] == "Ramen")
            #expect(try b.record("r5")?["isDeleted"] == true)
            #expect(try c.state.pendingCount() == 0)
        }
    }

    @Test("a tombstone is compacted and purged only after every device synced past it")
    func compactionWaitsForEveryDevice() async throws {
        let group = try await Group.make(zone: "compact")
        try await stopping(group.server) { _ in
            let (a, b, c) = (group.a, group.b, group.c)
            try a.state.save(Self.recipe("r6", title: "Tacos"), type: "recipe", at: Date())
            try await sync(a, b, c)
            try a.state.delete(type: "recipe", id: "r6", at: Date())
            try await sync(a, b, a)

            var compaction = TombstoneCompaction(store: a.store)
            let early = try compaction.run()
            #expect(early.dropped == 0)
            #expect(early.blockingDevices["C"] == 1)  // C has not synced past the delete

            try await sync(c, b, a)
            #expect(try c.record("r6")?["isDeleted"] == true)
            let devices = try a.state.devices()
            #expect(Set(devices.map(\.id)) == ["A", "B", "C"])
            let later = try compaction.run()
            #expect(later.dropped == 1)
            #expect(later.purgesQueued == 1)
            try await sync(a)
            #expect(try await group.cloud("r6", zone: "compact") == nil)  // the cloud tombstone is purged
            #expect(try a.state.pendingCount() == 0)
        }
    }

    @Test("an edit on B loses to a delete on A that B has not seen")
    func deleteWinsOverUnseenEdit() async throws {
        let group = try await Group.make(zone: "race")
        try await stopping(group.server) { _ in
            let (a, b) = (group.a, group.b)
            try a.state.save(Self.recipe("r7", title: "Paella"), type: "recipe", at: Date())
            try await sync(a, b)
            try a.state.delete(type: "recipe", id: "r7", at: Date())
            try await sync(a)
            var edited = try #require(try b.record("r7"))
            edited.setField("title", "Paella (edited)")
            try b.state.save(edited, type: "recipe", at: Date())
            try await sync(b)
            #expect(try b.record("r7")?["isDeleted"] == true)
            #expect(try await group.cloud("r7", zone: "race")?["isDeleted"] == true)
        }
    }

    @Test("a second sync with nothing new asks the server for changes once and pushes nothing")
    func quietSyncIsCheap() async throws {
        let group = try await Group.make(zone: "quiet")
        try await stopping(group.server) { _ in
            try group.a.state.save(Self.recipe("r8", title: "Soup"), type: "recipe", at: Date())
            try await sync(group.a, group.a)
            try await group.server.clearLog()
            let report = try await sync(group.a)[0]
            #expect(report.push.read == 0)
            #expect(try await group.server.loggedRequests("changes/zone").count == 1)
            #expect(
                report.applied["unchanged", default: 0] + report.applied["ownDevice", default: 0]
                    == report.remoteChanges)
        }
    }
}

extension Value {
    mutating func setField(_ key: String, _ value: Value) {
        guard case .object(var members) = self else { return }
        members[key] = value
        self = .object(members)
    }
}
