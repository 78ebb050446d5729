import Foundation
import LarderCore
import LarderTestSupport

@testable import LarderRegistry
@testable import LarderStore

/// A device of the sync group in tests: its own store, synced with a ``FakeCloud`` through the
/// store's primitives the way sync (issue 7) will drive them: reset when expired, pull, push
/// expiry marks, push pending changes, then report to and read the device registry.
final class SimulatedDevice {
    let id: String
    let store: Store
    let sync: SyncState
    private(set) var epoch = 0
    private(set) var watermark: Int64?
    /// Notes of what happened, for failure messages.
    private(set) var notes: [String] = []
    /// Statuses the registry pull reported (`mustReset` for devices that came back expired).
    private(set) var deviceStatuses: [String: DeviceStatus] = [:]
    /// How many times this device reset.
    private(set) var resets = 0

    init(id: String, directory: TemporaryDirectory, cloud: FakeCloud) throws {
        self.id = id
        store = try Store(path: directory.path("\(id).db"), create: true)
        sync = SyncState(store: store)
        // A simulation needs no durability: skip the fsync per transaction.
        try store.executeRaw("PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY")
        try store.write { transaction in
            try transaction.setSchemaState(SchemaState(type: "recipe", version: 3, stepsDone: 0), at: cloud.date)
        }
        _ = try sync.recordDeviceSync(id: id, name: id, watermark: nil, seenAt: cloud.date, isSelf: true)
    }

    // MARK: Local changes

    func create(_ id: String, title: String, at date: Date, localOnly: Bool = false) throws {
        var recipe = Recipe.make(id: id, title: title, createdAt: date)
        recipe.sync.isCloudEnabled = !localOnly
        try sync.save(recipe.value, type: "recipe", at: date)
    }

    func edit(_ id: String, title: String, at date: Date) throws {
        guard var value = try record(id), value["isDeleted"] != .bool(true) else { return }
        value.setMember("title", .string(title))
        try sync.save(value, type: "recipe", at: date)
    }

    func record(_ id: String) throws -> Value? {
        try store.storedRecord(type: "recipe", id: id)?.value()
    }

    /// Live (not deleted) records by id, with whether each is cloud-enabled.
    func liveRecords() throws -> [String: (value: Value, isCloudEnabled: Bool)] {
        var result: [String: (value: Value, isCloudEnabled: Bool)] = [:]
        try store.forEachStoredRecord { record in
            if !record.isDeleted { result[record.id] = (try record.value(), record.isCloudEnabled) }
        }
        return result
    }

    func isLive(_ id: String) throws -> Bool { try liveRecords()[id] != nil }
    func isLocalOnly(_ id: String) throws -> Bool { try liveRecords()[id]?.isCloudEnabled == false }
    func title(_ id: String) throws -> String? { try liveRecords()[id]?.value["title"]?.stringValue }

    // MARK: Sync

    /// One sync round with the cloud.
    func sync(with cloud: FakeCloud) throws {
        if cloud.mustReset(deviceID: id, epoch: epoch) {
            let report = try sync.resetForResync(deviceID: id, at: cloud.date)
            epoch += 1
            watermark = nil
            resets += 1
            notes.append("reset: removed \(report.removedRecords), discarded edits \(report.discardedEdits)")
            cloud.reportDevice(id: id, name: id, watermark: nil, epoch: epoch)
        }
        let fetched = try cloud.fetchChanges(since: watermark, deviceID: id, epoch: epoch)
        for record in fetched.records {
            let at = Date(timeIntervalSince1970: Double(record.modifiedAt) / 1000)
            let outcome = try sync.applyRemote(record.body, type: record.type, changeTag: record.changeTag, at: at)
            notes.append("pulled \(record.recordName) \(record.changeTag): \(outcome)")
        }
        watermark = fetched.watermark
        for device in try sync.devices() where device.isExpired && !device.isSelf {
            cloud.markExpired(deviceID: device.id, epoch: device.epoch)
        }
        for change in try sync.pendingChanges() {
            try push(change, to: cloud)
        }
        cloud.reportDevice(id: id, name: id, watermark: watermark, epoch: epoch)
        for (deviceID, entry) in cloud.registry.sorted(by: { $0.key < $1.key }) {
            let status = try sync.recordDeviceSync(
                id: deviceID, name: entry.name,
                watermark: entry.watermark.map { Date(timeIntervalSince1970: Double($0) / 1000) },
                seenAt: Date(timeIntervalSince1970: Double(entry.lastSeen) / 1000), epoch: entry.epoch,
                isSelf: deviceID == id)
            deviceStatuses[deviceID] = status
        }
        try sync.setRegistryTag(cloud.registryTag)
    }

    private func push(_ change: PendingChange, to cloud: FakeCloud) throws {
        if change.kind == .purge {
            let refusal = cloud.purge(
                recordName: change.recordName, tag: change.baseTag, registryTag: change.registryTag)
            notes.append("purge \(change.recordName): \(refusal ?? "done")")
            try sync.discardPending(seq: change.seq)
            return
        }
        guard let payload = change.payload, let kind = FakeCloud.SaveKind(rawValue: change.kind.rawValue) else {
            return
        }
        switch cloud.save(
            kind: kind, type: change.type, id: change.id, recordName: change.recordName, body: payload,
            baseTag: change.baseTag)
        {
        case .saved(let tag, let at):
            _ = try sync.acknowledge(change, changeTag: tag, at: Date(timeIntervalSince1970: Double(at) / 1000))
            notes.append("pushed \(change.kind) \(change.recordName) → \(tag)")
        case .conflict(let server):
            let at = Date(timeIntervalSince1970: Double(server.modifiedAt) / 1000)
            let outcome = try sync.applyRemote(server.body, type: server.type, changeTag: server.changeTag, at: at)
            notes.append("conflict on \(change.kind) \(change.recordName): took \(server.changeTag) (\(outcome))")
            try sync.discardPending(seq: change.seq)
        }
    }

    /// Compacts this device's tombstones.
    @discardableResult
    func compact(at date: Date, horizon: TimeInterval) throws -> TombstoneCompaction.Summary {
        var compaction = TombstoneCompaction(store: store)
        compaction.clock = .fixed(date)
        compaction.horizon = horizon
        return try compaction.run()
    }
}

/// A, B, C (or more) devices sharing one fake cloud.
struct SyncWorld {
    let directory: TemporaryDirectory
    let cloud: FakeCloud
    var devices: [String: SimulatedDevice] = [:]

    init(_ ids: [String] = ["A", "B", "C"], start: Date = fixtureDate) throws {
        directory = try TemporaryDirectory()
        cloud = FakeCloud(start: start)
        for id in ids { devices[id] = try SimulatedDevice(id: id, directory: directory, cloud: cloud) }
    }

    subscript(id: String) -> SimulatedDevice {
        guard let device = devices[id] else { preconditionFailure("no device \(id) in this world") }
        return device
    }

    var now: Date { cloud.date }

    func advance(minutes: Double = 0, days: Double = 0) {
        cloud.advance(by: minutes * 60 + days * 86_400)
    }

    /// Syncs the given devices in order (each once).
    func sync(_ ids: String...) throws {
        for id in ids { try self[id].sync(with: cloud) }
    }
}
