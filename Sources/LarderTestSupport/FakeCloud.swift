public import Foundation
public import LarderCore

/// An in-memory stand-in for a CloudKit zone, for the sync-state tests.
///
/// It holds a record map, an append-only change log, and a device registry. Not the emulator:
/// no HTTP, no auth, one thread.
///
/// Its rules are the ones seed 003's option A needs:
/// - a `tombstone` save wins over a live record (a delete beats concurrent edits), and loses to
///   a tombstone already there (nothing more to delete);
/// - an `enableCloud` save always writes (it overwrites the tombstone on purpose);
/// - a plain `save` writes when its base tag is the current one; otherwise the cloud's version
///   wins. A plain save based on a tag for a record the cloud no longer has is written too, but
///   counted in ``resurrections`` when the name was once a tombstone: that is the zombie a
///   premature compaction lets back in;
/// - a purge removes a tombstone only if it still has the acknowledged tag and the device
///   registry is unchanged since the compaction decided;
/// - a device whose epoch was marked expired must reset before it may fetch.
///
/// Cloud times are milliseconds, strictly increasing per change, so "fetched up to T" is exact.
public final class FakeCloud {
    /// A record as the cloud holds it.
    public struct Record: Sendable, Hashable {
        public var recordName: String
        public var type: String
        public var id: String
        public var body: Value
        public var changeTag: String
        /// The cloud time of the change (milliseconds since 1970).
        public var modifiedAt: Int64

        /// Whether the record is a tombstone.
        public var isTombstone: Bool { body["isDeleted"] == .bool(true) }
    }

    /// A device as the registry holds it.
    public struct DeviceEntry: Sendable, Hashable {
        public var name: String
        public var watermark: Int64?
        public var lastSeen: Int64
        public var epoch: Int
        /// The epoch some device marked expired (sticky until the device resets).
        public var expiredEpoch: Int?
    }

    /// What a save asks for.
    public enum SaveKind: String, Sendable {
        case save, tombstone, enableCloud
    }

    /// What a save did.
    public enum SaveResult: Sendable, Hashable {
        case saved(tag: String, at: Int64)
        case conflict(Record)
    }

    /// Thrown by ``fetchChanges(since:deviceID:epoch:)`` for an expired device.
    public struct MustReset: Error, Sendable {}

    /// The records by name.
    public private(set) var records: [String: Record] = [:]
    /// Every change: cloud time and record name, in order.
    public private(set) var log: [(at: Int64, recordName: String)] = []
    /// The registry by device id.
    public private(set) var registry: [String: DeviceEntry] = [:]
    /// Bumped when a device joins or resets (a purge decided under an older one is refused).
    public private(set) var registryVersion = 0
    /// Names that were ever a tombstone.
    public private(set) var everTombstoned: Set<String> = []
    /// Names purged, in order.
    public private(set) var purged: [String] = []
    /// Names brought back by a plain save after their tombstone was purged (must stay empty).
    public private(set) var resurrections: [String] = []
    /// The current cloud time (milliseconds since 1970).
    public private(set) var now: Int64
    private var lastChange: Int64 = 0
    private var tagCounter = 0

    /// A cloud whose clock starts at `start`.
    public init(start: Date) {
        now = Int64((start.timeIntervalSince1970 * 1000).rounded())
    }

    /// The current time as a date.
    public var date: Date { Date(timeIntervalSince1970: Double(now) / 1000) }

    /// The registry's tag.
    public var registryTag: String { "registry-\(registryVersion)" }

    /// Moves the clock on.
    public func advance(by seconds: TimeInterval) {
        now += Int64((seconds * 1000).rounded())
    }

    /// The live (non-tombstone) records.
    public var liveRecords: [String: Record] { records.filter { !$0.value.isTombstone } }

    private func stamp() -> Int64 {
        lastChange = max(now, lastChange + 1)
        now = max(now, lastChange)
        return lastChange
    }

    private func write(_ record: Record) -> SaveResult {
        var record = record
        tagCounter += 1
        record.changeTag = "tag-\(tagCounter)"
        record.modifiedAt = stamp()
        records[record.recordName] = record
        log.append((record.modifiedAt, record.recordName))
        if record.isTombstone { everTombstoned.insert(record.recordName) }
        return .saved(tag: record.changeTag, at: record.modifiedAt)
    }

    /// The latest state of every record changed after `watermark`, oldest change first, and the
    /// new watermark.
    /// - Throws: ``MustReset`` when the device's epoch is marked expired.
    public func fetchChanges(since watermark: Int64?, deviceID: String, epoch: Int) throws -> (
        records: [Record], watermark: Int64?
    ) {
        if mustReset(deviceID: deviceID, epoch: epoch) { throw MustReset() }
        let from = watermark ?? .min
        var seen: Set<String> = []
        var changed: [Record] = []
        for entry in log.reversed() {
            guard entry.at > from else { break }
            guard seen.insert(entry.recordName).inserted, let record = records[entry.recordName] else { continue }
            changed.append(record)
        }
        changed.sort { $0.modifiedAt < $1.modifiedAt }
        return (changed, lastChange > 0 ? max(lastChange, watermark ?? .min) : watermark)
    }

    /// Saves a record under the rules above.
    public func save(kind: SaveKind, type: String, id: String, recordName: String, body: Value, baseTag: String?)
        -> SaveResult
    {
        let new = Record(recordName: recordName, type: type, id: id, body: body, changeTag: "", modifiedAt: 0)
        let current = records[recordName]
        switch kind {
        case .enableCloud:
            return write(new)
        case .tombstone:
            if let current, current.isTombstone, current.changeTag != baseTag { return .conflict(current) }
            return write(new)
        case .save:
            guard let current else {
                if baseTag != nil, everTombstoned.contains(recordName) { resurrections.append(recordName) }
                return write(new)
            }
            return current.changeTag == baseTag ? write(new) : .conflict(current)
        }
    }

    /// Removes a tombstone; refused unless it still has `tag` and the registry is at `registryTag`.
    /// - Returns: `nil` when purged, else why not.
    public func purge(recordName: String, tag: String?, registryTag: String?) -> String? {
        guard registryTag == self.registryTag else {
            return "the device registry changed (\(registryTag ?? "none") → \(self.registryTag))"
        }
        guard let current = records[recordName] else { return "no such record" }
        guard current.isTombstone, current.changeTag == tag else {
            return "the record changed since it was acknowledged"
        }
        records[recordName] = nil
        purged.append(recordName)
        return nil
    }

    /// Records a device's sync in the registry (a new device or a reset bumps the registry).
    public func reportDevice(id: String, name: String, watermark: Int64?, epoch: Int) {
        guard var entry = registry[id] else {
            registry[id] = DeviceEntry(name: name, watermark: watermark, lastSeen: now, epoch: epoch, expiredEpoch: nil)
            registryVersion += 1
            return
        }
        if epoch > entry.epoch {
            registryVersion += 1
            entry.watermark = watermark
            entry.expiredEpoch = nil
        } else {
            entry.watermark = [entry.watermark, watermark].compactMap { $0 }.max()
        }
        entry.epoch = max(entry.epoch, epoch)
        entry.lastSeen = now
        entry.name = name
        registry[id] = entry
    }

    /// Marks a device's epoch expired (sticky until it resets).
    public func markExpired(deviceID: String, epoch: Int) {
        guard var entry = registry[deviceID], entry.epoch == epoch else { return }
        entry.expiredEpoch = epoch
        registry[deviceID] = entry
    }

    /// Whether the device at `epoch` must reset.
    public func mustReset(deviceID: String, epoch: Int) -> Bool {
        registry[deviceID]?.expiredEpoch == epoch
    }
}
