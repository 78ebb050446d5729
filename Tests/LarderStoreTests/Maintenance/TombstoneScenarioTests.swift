import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderRegistry
@testable import LarderStore

/// Seed 003's six scenarios and seven test cases, with devices A, B and C as three stores that
/// exchange changes through a fake cloud.
@Suite struct TombstoneScenarioTests {
    /// A world where A created `r1` and every device has it.
    private func sharedRecord() throws -> SyncWorld {
        let world = try SyncWorld()
        try world["A"].create("r1", title: "Grandma's Lasagne", at: world.now)
        try world.sync("A", "B", "C")
        for id in ["A", "B", "C"] { #expect(try world[id].title("r1") == "Grandma's Lasagne") }
        return world
    }

    private func cloudRecord(_ world: SyncWorld, _ id: String = "r1") -> FakeCloud.Record? {
        world.cloud.records["recipe-\(id)"]
    }

    private func keys(_ value: Value?) -> Set<String> { Set(value?.objectValue?.keys ?? []) }

    // MARK: The seven test cases (Phase 5)

    @Test("test case 1: deleting a record on A writes a minimal tombstone, locally and in the cloud")
    func deleteCreatesTombstone() throws {
        let world = try sharedRecord()
        world.advance(minutes: 5)
        try world["A"].sync.delete(type: "recipe", id: "r1", at: world.now)
        let local = try #require(try world["A"].record("r1"))
        #expect(local["isDeleted"] == .bool(true))
        #expect(
            keys(local).isSubset(of: Tombstone.localFieldNames),
            "local tombstone keeps only identity and dates: \(keys(local))")
        let pending = try world["A"].sync.pendingChanges()
        #expect(pending.map(\.kind) == [.tombstone])
        #expect(keys(pending.first?.payload) == Tombstone.cloudFieldNames)
        try world.sync("A")
        let cloud = try #require(cloudRecord(world))
        #expect(cloud.isTombstone)
        #expect(keys(cloud.body).isSubset(of: Tombstone.cloudFieldNames))
        #expect(cloud.body["title"] == nil && cloud.body["ingredients"] == nil && cloud.body["ownerID"] == nil)
        #expect(cloud.body["schemaVersion"] == .int(3), "the cloud tombstone keeps the schema version")
        let version = try world["A"].store.storedRecord(type: "recipe", id: "r1")?.version
        #expect(version == 3, "the local tombstone keeps it in the version column")
        #expect(try world["A"].sync.pendingCount() == 0, "the cloud acknowledged the tombstone")
    }

    @Test("test case 2: B syncs and deletes its copy")
    func otherDeviceDeletes() throws {
        let world = try sharedRecord()
        try world["A"].sync.delete(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B")
        #expect(try !world["B"].isLive("r1"))
        #expect(try world["B"].record("r1")?["isDeleted"] == .bool(true))
        #expect(try world["C"].isLive("r1"), "C has not synced yet")
    }

    @Test("test case 3: C syncs three weeks later and still deletes the record")
    func lateDeviceDeletes() throws {
        let world = try sharedRecord()
        try world["A"].sync.delete(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B")
        world.advance(days: 21)
        try world.sync("A", "B")
        // Compaction on A keeps the tombstone: C has not synced past it, and three weeks is within the horizon.
        let summary = try world["A"].compact(at: world.now, horizon: 90 * 86_400)
        #expect(summary.dropped == 0 && summary.keptByDevice == 1 && summary.blockingDevices == ["C": 1])
        try world.sync("A")
        #expect(cloudRecord(world)?.isTombstone == true, "the tombstone persists in the cloud")
        try world.sync("C")
        #expect(try !world["C"].isLive("r1"))
    }

    @Test("test case 4: setting local on A writes a tombstone, and B and C delete their copies")
    func setLocalCreatesTombstone() throws {
        let world = try sharedRecord()
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world.sync("A")
        let cloud = try #require(cloudRecord(world))
        #expect(cloud.isTombstone && keys(cloud.body).isSubset(of: Tombstone.cloudFieldNames))
        try world.sync("B", "C")
        #expect(try !world["B"].isLive("r1") && !world["C"].isLive("r1"))
        #expect(
            try world["A"].isLocalOnly("r1") && world["A"].title("r1") == "Grandma's Lasagne",
            "A keeps all its data locally")
    }

    @Test("test case 5: with the record local on A, B deletes it and A keeps its local copy")
    func localCopySurvivesRemoteDelete() throws {
        let world = try sharedRecord()
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        world.advance(minutes: 1)
        try world["B"].sync.delete(type: "recipe", id: "r1", at: world.now)
        try world.sync("B", "A", "C")
        #expect(try world["A"].isLocalOnly("r1") && world["A"].title("r1") == "Grandma's Lasagne")
        #expect(try !world["C"].isLive("r1"))
        #expect(try world["A"].sync.pendingCount() == 0, "A's tombstone upload was moot: the cloud already had one")
    }

    @Test("test case 6: re-enabling cloud on A overwrites the tombstone with the full record")
    func reenableOverwritesTombstone() throws {
        let world = try sharedRecord()
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B", "C")
        world.advance(days: 2)
        try world["A"].sync.enableCloud(type: "recipe", id: "r1", at: world.now)
        #expect(try world["A"].sync.pendingChanges().map(\.kind) == [.enableCloud])
        try world.sync("A")
        let cloud = try #require(cloudRecord(world))
        #expect(
            !cloud.isTombstone && cloud.body["title"] == .string("Grandma's Lasagne")
                && cloud.body["ingredients"] != nil)
    }

    @Test("test case 7: B and C see the full record restored")
    func othersSeeRestoredRecord() throws {
        let world = try sharedRecord()
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B", "C")
        try world["A"].sync.enableCloud(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B", "C")
        for id in ["A", "B", "C"] {
            #expect(
                try world[id].title("r1") == "Grandma's Lasagne" && !world[id].isLocalOnly("r1"),
                "\(id) has the full record back")
        }
    }

    // MARK: The six scenarios

    @Test("scenario 1: set local on A removes the record from B and C, and A keeps it local-only")
    func scenario1SetLocalOnA() throws {
        let world = try sharedRecord()
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B", "C", "A")
        #expect(try world["A"].isLocalOnly("r1"), "the old bug deleted it everywhere, A included")
        #expect(try !world["B"].isLive("r1") && !world["C"].isLive("r1"))
    }

    @Test("scenario 2a: local on A, deleted on B: A keeps its local copy, C deletes")
    func scenario2aLocalOnADeletedOnB() throws {
        let world = try sharedRecord()
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world.sync("A")
        // B deletes before it has seen A's tombstone.
        try world["B"].sync.delete(type: "recipe", id: "r1", at: world.now)
        try world.sync("B", "A", "C")
        #expect(try world["A"].isLocalOnly("r1") && world["A"].title("r1") == "Grandma's Lasagne")
        #expect(try !world["B"].isLive("r1") && !world["C"].isLive("r1"))
        // A remote tombstone applied directly to the local-only record is refused too.
        let outcome = try world["A"].sync.applyRemoteTombstone(
            type: "recipe", id: "r1", changeTag: "tag-x", at: world.now)
        #expect(try outcome == .protectedLocalOnly && world["A"].isLocalOnly("r1"))
    }

    @Test("scenario 2b: local on A, changed on B: the update never touches A's local-only record")
    func scenario2bLocalOnAChangedOnB() throws {
        let world = try sharedRecord()
        // A goes local while offline; B edits and syncs first.
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        world.advance(minutes: 1)
        try world["B"].edit("r1", title: "Lasagne (B's edit)", at: world.now)
        try world.sync("B")
        #expect(cloudRecord(world)?.body["title"] == .string("Lasagne (B's edit)"))
        try world.sync("A")
        #expect(
            try world["A"].title("r1") == "Grandma's Lasagne" && world["A"].isLocalOnly("r1"),
            "A's local setting and data are preserved")
        #expect(try world["A"].record("r1")?["isCloudEnabled"] == .bool(false))
        // A's tombstone wins over B's edit: B and C remove the record.
        #expect(cloudRecord(world)?.isTombstone == true)
        try world.sync("B", "C")
        #expect(try !world["B"].isLive("r1") && !world["C"].isLive("r1"))
        // A remote update applied directly is refused as well.
        var update = try #require(try world["A"].record("r1"))
        update.setMember("title", .string("Overwritten"))
        update.setMember("isCloudEnabled", .bool(true))
        #expect(
            try world["A"].sync.applyRemote(update, type: "recipe", changeTag: "tag-y", at: world.now)
                == .protectedLocalOnly)
        #expect(try world["A"].title("r1") == "Grandma's Lasagne")
    }

    @Test("scenario 3: local re-enabled on A: the tombstone is overwritten and B and C get A's version")
    func scenario3ReenableOnA() throws {
        let world = try sharedRecord()
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B", "C")
        try world["A"].edit("r1", title: "Lasagne, A's private tweak", at: world.now)
        #expect(try world["A"].sync.pendingCount() == 0, "a local-only edit never leaves the device")
        try world["A"].sync.enableCloud(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B", "C")
        for id in ["A", "B", "C"] { #expect(try world[id].title("r1") == "Lasagne, A's private tweak") }
        #expect(cloudRecord(world)?.isTombstone == false)
    }

    @Test("scenario 4: A and C set local: A and C keep local copies, B's copy is removed")
    func scenario4AAndCSetLocal() throws {
        let world = try sharedRecord()
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world["C"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "C", "B")
        #expect(try world["A"].isLocalOnly("r1") && world["C"].isLocalOnly("r1"))
        #expect(try !world["B"].isLive("r1"))
        #expect(cloudRecord(world)?.isTombstone == true)
        #expect(try world["C"].sync.pendingCount() == 0, "C saw the existing tombstone: its own upload was a no-op")
    }

    @Test("scenario 5: C syncs three weeks later and the tombstone is still there")
    func scenario5LateDevice() throws {
        let world = try sharedRecord()
        try world["A"].sync.delete(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B")
        for _ in 0..<3 {
            world.advance(days: 7)
            try world.sync("A", "B")
            let summary = try world["A"].compact(at: world.now, horizon: 90 * 86_400)
            #expect(
                summary.dropped == 0 && summary.blockingDevices["C"] == 1, "C blocks the compaction while it is away")
            try world.sync("A")
        }
        #expect(cloudRecord(world)?.isTombstone == true)
        try world.sync("C")
        #expect(try !world["C"].isLive("r1"))
        // Once C's watermark is past the tombstone, compaction drops it and purges the cloud copy.
        try world.sync("A")
        let summary = try world["A"].compact(at: world.now, horizon: 90 * 86_400)
        #expect(summary.dropped == 1 && summary.purgesQueued == 1)
        try world.sync("A")
        #expect(cloudRecord(world) == nil && world.cloud.purged == ["recipe-r1"])
    }

    @Test("scenario 6: setting local behaves like a deletion for every other device")
    func scenario6SetLocalIsDeletionElsewhere() throws {
        let world = try SyncWorld()
        try world["A"].create("r1", title: "Set local", at: world.now)
        try world["A"].create("r2", title: "Deleted", at: world.now)
        try world.sync("A", "B", "C")
        try world["A"].sync.setLocalOnly(type: "recipe", id: "r1", at: world.now)
        try world["A"].sync.delete(type: "recipe", id: "r2", at: world.now)
        try world.sync("A", "B", "C")
        for id in ["B", "C"] {
            #expect(try !world[id].isLive("r1") && !world[id].isLive("r2"))
            #expect(
                try keys(world[id].record("r1")) == keys(world[id].record("r2")),
                "\(id) holds the same kind of tombstone for both")
        }
        #expect(keys(cloudRecord(world, "r1")?.body) == keys(cloudRecord(world, "r2")?.body))
        #expect(try world["A"].isLocalOnly("r1") && !world["A"].isLive("r2"), "only A differs: it keeps the local one")
    }
}
