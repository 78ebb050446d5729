import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderRegistry
@testable import LarderStore

@Suite struct TombstoneCompactionTests {
    let day: TimeInterval = 86_400

    /// A store with a self device, and a helper to make acknowledged tombstones.
    struct Fixture {
        let directory: TemporaryDirectory
        let store: Store
        let sync: SyncState

        init() throws {
            directory = try TemporaryDirectory()
            store = try Store(path: directory.path("larder.db"), create: true)
            sync = SyncState(store: store)
            _ = try sync.recordDeviceSync(
                id: "self", name: "This Mac", watermark: nil, seenAt: fixtureDate, isSelf: true)
        }

        /// Saves `id`, has the cloud confirm it, deletes it, and has the cloud confirm the tombstone at `ackedAt`.
        func ackedTombstone(_ id: String, ackedAt: Date) throws {
            try sync.save(Recipe.make(id: id).value, type: "recipe", at: ackedAt.addingTimeInterval(-60))
            for change in try sync.pendingChanges() where change.id == id {
                _ = try sync.acknowledge(change, changeTag: "\(id)-live", at: ackedAt.addingTimeInterval(-30))
            }
            try sync.delete(type: "recipe", id: id, at: ackedAt.addingTimeInterval(-10))
            for change in try sync.pendingChanges() where change.id == id {
                #expect(try sync.acknowledge(change, changeTag: "\(id)-dead", at: ackedAt) == .acknowledged)
            }
        }

        func device(_ id: String, watermark: Date?, seen: Date) throws {
            _ = try sync.recordDeviceSync(id: id, name: "\(id)'s iPad", watermark: watermark, seenAt: seen)
        }

        func compact(now: Date, horizon: TimeInterval = 90 * 86_400, dryRun: Bool = false) throws -> (
            TombstoneCompaction.Summary, [TombstoneCompaction.Event]
        ) {
            var compaction = TombstoneCompaction(store: store)
            compaction.clock = .fixed(now)
            compaction.horizon = horizon
            compaction.isDryRun = dryRun
            var events: [TombstoneCompaction.Event] = []
            let summary = try compaction.run { events.append($0) }
            return (summary, events)
        }

        func isStored(_ id: String) throws -> Bool {
            try sync.types(ofID: id).count == 1
        }
    }

    private func keptReasons(_ events: [TombstoneCompaction.Event]) -> [String: TombstoneCompaction.KeepReason] {
        var reasons: [String: TombstoneCompaction.KeepReason] = [:]
        for case .kept(let tombstone, let reason, _) in events { reasons[tombstone.id] = reason }
        return reasons
    }

    @Test("keeps a tombstone the cloud has not acknowledged, and one a pending change refers to")
    func keepsUnacknowledgedAndPending() throws {
        let fixture = try Fixture()
        // Deleted locally, upload pending.
        try fixture.sync.save(Recipe.make(id: "pending").value, type: "recipe", at: fixtureDate)
        try fixture.sync.delete(type: "recipe", id: "pending", at: fixtureDate)
        // An older tombstone that arrived by import: never confirmed by the cloud.
        try fixture.store.write { transaction in
            try transaction.upsert(
                Tombstone.localBody(
                    id: "imported", recordName: "recipe-imported", deletedAt: "2024-01-01T00:00:00Z", updatedAt: nil,
                    changeTag: nil), type: "recipe", version: 3)
        }
        let (summary, events) = try fixture.compact(now: fixtureDate.addingTimeInterval(day))
        #expect(summary.dropped == 0 && summary.keptPending == 1 && summary.keptNotAcknowledged == 1)
        let reasons = keptReasons(events)
        #expect(reasons["imported"] == .notAcknowledged)
        guard case .pending(let kind, _)? = reasons["pending"] else {
            Issue.record("expected a pending reason, got \(String(describing: reasons["pending"]))")
            return
        }
        #expect(kind == .tombstone)
        #expect(try fixture.isStored("pending") && fixture.isStored("imported"))
    }

    @Test("keeps a tombstone until every live device's watermark is past it, naming the device furthest behind")
    func waitsForEveryDevice() throws {
        let fixture = try Fixture()
        let acked = fixtureDate.addingTimeInterval(10 * day)
        try fixture.ackedTombstone("r1", ackedAt: acked)
        try fixture.device("B", watermark: acked.addingTimeInterval(60), seen: acked)
        try fixture.device("C", watermark: acked.addingTimeInterval(-3600), seen: acked)
        try fixture.device("D", watermark: nil, seen: acked)
        var (summary, events) = try fixture.compact(now: acked.addingTimeInterval(day))
        guard case .device(let blocker, let others)? = keptReasons(events)["r1"] else {
            Issue.record("expected a device to block r1")
            return
        }
        #expect(blocker.id == "D" && others == 1, "D never synced: it is furthest behind, and C blocks too")
        #expect(summary.blockingDevices == ["D": 1])
        try fixture.device("D", watermark: acked.addingTimeInterval(120), seen: acked.addingTimeInterval(day))
        (summary, events) = try fixture.compact(now: acked.addingTimeInterval(day))
        #expect(summary.blockingDevices == ["C": 1] && summary.dropped == 0)
        // Exactly at the acknowledgement counts as past it.
        try fixture.device("C", watermark: acked, seen: acked.addingTimeInterval(day))
        (summary, events) = try fixture.compact(now: acked.addingTimeInterval(day))
        #expect(summary.dropped == 1 && summary.purgesQueued == 1)
        #expect(try !fixture.isStored("r1"))
        let purge = try #require(try fixture.sync.pendingChanges().first { $0.id == "r1" })
        #expect(purge.kind == .purge && purge.baseTag == "r1-dead" && purge.recordName == "recipe-r1")
    }

    @Test("a device unseen past the horizon is marked expired, stops blocking, and must reset when it comes back")
    func expiresDevices() throws {
        let fixture = try Fixture()
        let acked = fixtureDate.addingTimeInterval(5 * day)
        try fixture.ackedTombstone("r1", ackedAt: acked)
        try fixture.device("B", watermark: acked.addingTimeInterval(10), seen: acked)
        try fixture.device("C", watermark: fixtureDate, seen: fixtureDate)
        // 89 days after C was last seen: still within the horizon, C blocks.
        var (summary, _) = try fixture.compact(now: fixtureDate.addingTimeInterval(89 * day))
        #expect(summary.newlyExpired.isEmpty && summary.blockingDevices == ["C": 1])
        (summary, _) = try fixture.compact(now: fixtureDate.addingTimeInterval(91 * day))
        #expect(summary.newlyExpired == ["C"] && summary.expired == ["C"] && summary.dropped == 1)
        let c = try #require(try fixture.sync.devices().first { $0.id == "C" })
        #expect(c.isExpired && c.expiredAt == fixtureDate.addingTimeInterval(91 * day))
        // C comes back without resetting: told to reset, and it stays expired.
        let back = try fixture.sync.recordDeviceSync(
            id: "C", watermark: acked, seenAt: fixtureDate.addingTimeInterval(100 * day), epoch: 0)
        #expect(back == .mustReset(expiredAt: fixtureDate.addingTimeInterval(91 * day)))
        #expect(back.message(for: "C").contains("must reset"))
        #expect(try fixture.sync.devices().first { $0.id == "C" }?.isExpired == true)
        // After a reset (a new epoch) it counts again.
        #expect(
            try fixture.sync.recordDeviceSync(
                id: "C", watermark: nil, seenAt: fixtureDate.addingTimeInterval(100 * day), epoch: 1) == .reactivated)
        try fixture.device(
            "B", watermark: acked.addingTimeInterval(10), seen: fixtureDate.addingTimeInterval(100 * day))
        (summary, _) = try fixture.compact(now: fixtureDate.addingTimeInterval(100 * day))
        #expect(summary.expired.isEmpty)
    }

    @Test("strips the data left on fat tombstones and reports the bytes saved")
    func stripsFatTombstones() throws {
        let fixture = try Fixture()
        var fat = Recipe.make(id: "fat", title: "Secret family curry").value
        fat.setMember("isDeleted", .bool(true))
        fat.setMember("deletedAt", .string("2023-05-01T10:00:00Z"))
        let fatText = try JSONWriter.string(fat)
        try fixture.store.write { transaction in try transaction.upsert(fat, type: "recipe", version: 3) }
        let (summary, events) = try fixture.compact(now: fixtureDate)
        let minimal = try #require(try fixture.store.records(type: "recipe").first)
        #expect(
            Tombstone.isMinimal(minimal) && minimal["title"] == nil
                && minimal["deletedAt"] == .string("2023-05-01T10:00:00Z"))
        let minimalText = try JSONWriter.string(minimal)
        #expect(
            summary.stripped == 1 && summary.bytesSaved == fatText.utf8.count - minimalText.utf8.count
                && summary.bytesSaved > 300)
        guard case .kept(_, .notAcknowledged, let saved)? = events.first else {
            Issue.record("expected the fat tombstone kept (not acknowledged)")
            return
        }
        #expect(saved == summary.bytesSaved)
        #expect(try fixture.compact(now: fixtureDate).0.stripped == 0, "a minimal tombstone is left alone")
    }

    @Test("a second run changes nothing and a dry run writes nothing; each real run adds a history row")
    func idempotentAndDryRun() throws {
        let fixture = try Fixture()
        let acked = fixtureDate.addingTimeInterval(day)
        for index in 0..<20 {
            try fixture.ackedTombstone("r\(index)", ackedAt: acked.addingTimeInterval(Double(index) * 3600))
        }
        try fixture.device("B", watermark: acked.addingTimeInterval(10 * 3600), seen: acked.addingTimeInterval(day))
        try fixture.device("C", watermark: fixtureDate, seen: fixtureDate.addingTimeInterval(-100 * day))
        let now = acked.addingTimeInterval(2 * day)
        let before = try fixture.store.contentDigest()
        let (dry, dryEvents) = try fixture.compact(now: now, dryRun: true)
        #expect(try fixture.store.contentDigest() == before, "a dry run writes nothing, not even history")
        let (real, realEvents) = try fixture.compact(now: now)
        #expect(real.dropped == 11 && real.keptByDevice == 9 && real.newlyExpired == ["C"])
        var expected = dry
        expected.isDryRun = false
        #expect(real == expected, "the dry run predicted the run exactly")
        #expect(dryEvents.count == realEvents.count)
        let after = try fixture.store.contentDigest(excluding: ["history"])
        let (second, _) = try fixture.compact(now: now)
        #expect(second.changes == 0 && second.dropped == 0 && second.expired == ["C"])
        #expect(try fixture.store.contentDigest(excluding: ["history"]) == after, "the second run changed nothing")
        let runs = try fixture.store.history().filter { $0.kind == .compaction }
        #expect(runs.count == 2 && runs.map(\.recordsTouched) == [12, 0])
        let details = try #require(runs.first?.details)
        let decoded = try JSONDecoder().decode(TombstoneCompaction.Summary.self, from: Data(details.utf8))
        #expect(decoded == real)
    }

    @Test("a purge decided before a device joined is refused by the cloud, so the newcomer cannot miss the delete")
    func purgeRefusedAfterJoin() throws {
        let world = try SyncWorld(["A", "B"])
        try world["A"].create("r1", title: "Soup", at: world.now)
        try world.sync("A", "B")
        try world["A"].sync.delete(type: "recipe", id: "r1", at: world.now)
        try world.sync("A", "B", "A")
        #expect(try world["A"].compact(at: world.now, horizon: 90 * day).dropped == 1)
        // D registers before A pushes the purge.
        world.cloud.reportDevice(id: "D", name: "D", watermark: nil, epoch: 0)
        try world.sync("A")
        #expect(world.cloud.records["recipe-r1"]?.isTombstone == true && world.cloud.purged.isEmpty)
    }
}
