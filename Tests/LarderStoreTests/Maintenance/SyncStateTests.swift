import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderRegistry
@testable import LarderStore

/// The primitive operations sync drives, one at a time.
@Suite struct SyncStateTests {
    /// Runs `body` with a store in a temporary directory that lives as long as the body runs.
    private func withSync(_ body: (SyncState) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        try withExtendedLifetime(directory) {
            try body(SyncState(store: try Store(path: directory.path("larder.db"), create: true)))
        }
    }

    private func row(_ sync: SyncState, _ id: String) throws -> StoredRecord? {
        try sync.store.storedRecord(type: "recipe", id: id)
    }

    @Test("a new store gets the maintenance tables as table migration larder-store-2")
    func migration() throws {
        try withSync { sync in
            let applied = try sync.store.tableRevisions()
            #expect(applied.contains("larder-store-1") && applied.contains("larder-store-2"))
        }
    }

    @Test("each sync target keeps its own change token, and nil forgets it")
    func changeTokens() throws {
        try withSync { sync in
            #expect(try sync.changeToken(target: "zone-a") == nil)
            try sync.setChangeToken("token-1", target: "zone-a")
            try sync.setChangeToken("token-9", target: "zone-b")
            try sync.setChangeToken("token-2", target: "zone-a")
            #expect(
                try sync.changeToken(target: "zone-a") == "token-2" && sync.changeToken(target: "zone-b") == "token-9")
            try sync.setChangeToken(nil, target: "zone-a")
            #expect(try sync.changeToken(target: "zone-a") == nil && sync.changeToken(target: "zone-b") == "token-9")
            #expect(try sync.registryTag() == nil, "the registry tag is another fact")
        }
    }

    @Test("a cloud name finds its record by the recordName column, else as TYPE-ID")
    func recordByCloudName() throws {
        try withSync { sync in
            var named = Recipe.make(id: "r1").value
            named.setMember("recordName", .string("custom-name"))
            try sync.save(named, type: "recipe", at: fixtureDate)
            try sync.save(Recipe.make(id: "r2").value, type: "recipe", at: fixtureDate)
            #expect(try sync.record(named: "custom-name")?.id == "r1")
            #expect(try sync.record(named: "recipe-r2")?.id == "r2")
            #expect(try sync.record(named: "recipe-r3") == nil)
        }
    }

    @Test("a local edit queues one save; a second edit replaces it with a new number but keeps its base tag")
    func coalescing() throws {
        try withSync { sync in
            try sync.save(Recipe.make(id: "r1").value, type: "recipe", at: fixtureDate)
            let first = try #require(try sync.pendingChanges().first)
            #expect(try sync.acknowledge(first, changeTag: "t1", at: fixtureDate) == .acknowledged)
            #expect(
                try row(sync, "r1")?.cloudAckTag == "t1"
                    && sync.store.records(type: "recipe").first?["changeTag"] == .string("t1"))
            try sync.save(Recipe.make(id: "r1", title: "Edit 1").value, type: "recipe", at: fixtureDate)
            let edit1 = try #require(try sync.pendingChanges().first)
            try sync.save(Recipe.make(id: "r1", title: "Edit 2").value, type: "recipe", at: fixtureDate)
            let edit2 = try #require(try sync.pendingChanges().first)
            #expect(
                try sync.pendingCount() == 1 && edit2.seq > edit1.seq && edit2.baseTag == "t1"
                    && edit2.payload?["title"] == .string("Edit 2"))
            // The late confirmation of edit 1 re-bases edit 2 instead of confirming it.
            #expect(try sync.acknowledge(edit1, changeTag: "t2", at: fixtureDate) == .rebased)
            #expect(try sync.pendingChanges().first?.baseTag == "t2")
            #expect(try sync.acknowledge(edit2, changeTag: "t3", at: fixtureDate) == .acknowledged)
            #expect(try sync.acknowledge(edit2, changeTag: "t3", at: fixtureDate) == .stale)
        }
    }

    @Test("delete and set-local refuse what they cannot do, and are no-ops when already done")
    func localChangeErrors() throws {
        try withSync { sync in
            #expect(throws: LarderError.self) { try sync.delete(type: "recipe", id: "missing", at: fixtureDate) }
            try sync.save(Recipe.make(id: "r1").value, type: "recipe", at: fixtureDate)
            #expect(try sync.enableCloud(type: "recipe", id: "r1", at: fixtureDate) == .unchanged)
            #expect(try sync.setLocalOnly(type: "recipe", id: "r1", at: fixtureDate) == .changed)
            #expect(try sync.setLocalOnly(type: "recipe", id: "r1", at: fixtureDate) == .unchanged)
            #expect(try sync.delete(type: "recipe", id: "r1", at: fixtureDate) == .changed)
            #expect(try sync.delete(type: "recipe", id: "r1", at: fixtureDate) == .unchanged)
            #expect(throws: LarderError.self) { try sync.setLocalOnly(type: "recipe", id: "r1", at: fixtureDate) }
            #expect(throws: LarderError.self) { try sync.enableCloud(type: "recipe", id: "r1", at: fixtureDate) }
            var tombstone = Recipe.make(id: "r2").value
            tombstone.setMember("isDeleted", .bool(true))
            #expect(throws: LarderError.self) { try sync.save(tombstone, type: "recipe", at: fixtureDate) }
        }
    }

    @Test("a pending local delete wins over a remote edit; a remote tombstone wins over a pending local edit")
    func pendingConflicts() throws {
        try withSync { sync in
            _ = try sync.applyRemote(Recipe.make(id: "r1").value, type: "recipe", changeTag: "t1", at: fixtureDate)
            _ = try sync.applyRemote(Recipe.make(id: "r2").value, type: "recipe", changeTag: "t1", at: fixtureDate)
            try sync.delete(type: "recipe", id: "r1", at: fixtureDate)
            #expect(
                try sync.applyRemote(
                    Recipe.make(id: "r1", title: "Remote edit").value, type: "recipe", changeTag: "t2", at: fixtureDate)
                    == .keptPendingLocalChange)
            #expect(try row(sync, "r1")?.isDeleted == true)
            try sync.save(Recipe.make(id: "r2", title: "Local edit").value, type: "recipe", at: fixtureDate)
            #expect(
                try sync.applyRemoteTombstone(type: "recipe", id: "r2", changeTag: "t3", at: fixtureDate) == .deleted)
            #expect(try sync.pendingChanges().map(\.id) == ["r1"])
            #expect(
                try sync.applyRemoteTombstone(type: "recipe", id: "unknown", changeTag: "t4", at: fixtureDate)
                    == .recordedTombstone)
            #expect(
                try sync.applyRemote(
                    Recipe.make(id: "r2", title: "Restored").value, type: "recipe", changeTag: "t5", at: fixtureDate)
                    == .restored)
        }
    }

    @Test("the echo of the version a pending local edit was based on keeps the edit; a newer remote edit replaces it")
    func echoKeepsPendingEdit() throws {
        try withSync { sync in
            _ = try sync.applyRemote(Recipe.make(id: "r1").value, type: "recipe", changeTag: "t1", at: fixtureDate)
            try sync.save(Recipe.make(id: "r1", title: "Local edit").value, type: "recipe", at: fixtureDate)
            #expect(
                try sync.applyRemote(Recipe.make(id: "r1").value, type: "recipe", changeTag: "t1", at: fixtureDate)
                    == .keptPendingLocalChange)
            #expect(try sync.store.records(type: "recipe").first?["title"] == "Local edit")
            #expect(try sync.pendingChanges().map(\.id) == ["r1"])
            #expect(
                try sync.applyRemote(
                    Recipe.make(id: "r1", title: "Remote edit").value, type: "recipe", changeTag: "t2", at: fixtureDate)
                    == .replacedPendingEdit)
            #expect(try sync.store.records(type: "recipe").first?["title"] == "Remote edit")
            #expect(try sync.pendingChanges().isEmpty)
        }
    }

    @Test(
        "a reset keeps local-only records and queued creates and deletes, and drops cloud data and edits of cloud records"
    )
    func reset() throws {
        try withSync { sync in
            _ = try sync.recordDeviceSync(id: "me", watermark: fixtureDate, seenAt: fixtureDate, isSelf: true)
            for id in ["cloud", "edited", "deleted", "local"] {
                _ = try sync.applyRemote(
                    Recipe.make(id: id).value, type: "recipe", changeTag: "t-\(id)", at: fixtureDate)
            }
            try sync.save(Recipe.make(id: "edited", title: "Offline edit").value, type: "recipe", at: fixtureDate)
            try sync.delete(type: "recipe", id: "deleted", at: fixtureDate)
            try sync.setLocalOnly(type: "recipe", id: "local", at: fixtureDate)
            try sync.save(Recipe.make(id: "new").value, type: "recipe", at: fixtureDate)
            let report = try sync.resetForResync(deviceID: "me", at: fixtureDate)
            #expect(report.discardedEdits == ["recipe edited"] && report.keptLocalOnly == 1 && report.keptChanges == 3)
            let ids = try Set(sync.store.records(type: "recipe").compactMap { $0["id"]?.stringValue })
            #expect(ids == ["deleted", "local", "new"])
            let me = try #require(try sync.devices().first)
            #expect(me.watermark == nil && me.epoch == 1)
        }
    }
}
