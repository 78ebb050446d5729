public import Foundation
import GRDB
public import LarderCore
import LarderFormats
import LarderRegistry
import LarderSQLite

/// The primitive sync operations on a store (seed 003, option A: persistent minimal tombstones).
///
/// Sync drives these: local changes (save, delete, set local-only, re-enable cloud) update the
/// record and queue one pending change for the cloud; remote changes are applied with the
/// local-only protection; the cloud's confirmations are recorded per record; devices advance
/// their watermarks. Each operation is one transaction.
///
/// The rules:
/// - Deleting a record, or setting it local-only, uploads a minimal tombstone. A deleted record
///   becomes that tombstone locally too; a local-only record keeps all its data locally.
/// - A remote tombstone deletes a cloud-enabled record and never a local-only one.
/// - A remote update never changes a local-only record.
/// - Re-enabling cloud uploads the full record over the cloud's tombstone.
/// - A local delete not yet uploaded wins over remote edits; a remote tombstone wins over a local
///   edit not yet uploaded; a remote edit wins over a local edit not yet uploaded.
///
/// ```swift
/// let sync = SyncState(store: try Store(path: "larder.db"))
/// try sync.setLocalOnly(type: "recipe", id: "r-1", at: Date())
/// for change in try sync.pendingChanges() { /* upload change.payload, then: */
///     _ = try sync.acknowledge(change, changeTag: "tag-2", at: Date())
/// }
/// ```
public struct SyncState: Sendable {
    /// The store.
    public let store: Store

    /// Creates the operations over `store`.
    public init(store: Store) {
        self.store = store
    }

    /// What a local change did.
    public enum LocalOutcome: String, Sendable, Hashable {
        /// The record changed and a pending change was queued (or kept, for a local-only record).
        case changed
        /// Nothing to do (already deleted, already local-only, already cloud-enabled).
        case unchanged
    }

    /// What applying a remote change did.
    public enum RemoteOutcome: String, Sendable, Hashable {
        /// A record the store did not have was added.
        case inserted
        /// A cloud-enabled record took the remote version.
        case updated
        /// A tombstone was overwritten by a full record (cloud re-enabled elsewhere).
        case restored
        /// A cloud-enabled record was replaced by a tombstone.
        case deleted
        /// A tombstone for a record the store did not have was recorded.
        case recordedTombstone
        /// The store already had this version.
        case unchanged
        /// The record is local-only: only the note of what the cloud holds changed.
        case protectedLocalOnly
        /// A local delete or cloud re-enable waiting for upload wins; the remote change was ignored.
        case keptPendingLocalChange
        /// A local edit waiting for upload lost to the remote change and was dropped.
        case replacedPendingEdit
    }

    // MARK: Local changes

    /// Creates or edits a record locally.
    ///
    /// A cloud-enabled record queues a `save`; a local-only record (already stored as one, or given with
    /// `isCloudEnabled: false`) queues nothing.
    /// - Throws: ``LarderError`` `malformed-record` without an id, `usage-error` for a body
    ///   marked deleted (use ``delete(type:id:at:)``).
    public func save(_ record: Value, type: String, at date: Date) throws {
        try store.writeDatabase { db in try Self.save(db, record, type: type, at: date) }
    }

    /// ``save(_:type:at:)`` inside a transaction the caller holds (a dedupe merge writes every
    /// cluster in one).
    static func save(_ db: Database, _ record: Value, type: String, at date: Date) throws {
        guard let id = record["id"]?.stringValue else {
            throw LarderError(.malformedRecord, "a record needs a string id", location: SourceLocation(fieldPath: "id"))
        }
        guard record["isDeleted"] != .bool(true) else {
            throw LarderError(.usage, "\(type) \(id): delete a record with delete, not by saving a tombstone")
        }
        let existing = try StoredRecord.fetch(db, type: type, id: id)
        let isLocalOnly = existing.map { $0.isLocalOnly } ?? (record["isCloudEnabled"] == .bool(false))
        var value = record
        value.setMember("isCloudEnabled", .bool(!isLocalOnly))
        value.setMember("updatedAt", .string(Timestamp.format(date)))
        let version = try existing?.version ?? Store.state(db, type: type)?.version
        try Store.upsert(db, type: type, record: value, version: version)
        guard !isLocalOnly else { return }
        let recordName = Tombstone.recordName(type: type, id: id, explicit: value["recordName"]?.stringValue)
        try PendingChange.enqueue(
            db, type: type, id: id, recordName: recordName, kind: .save, payload: value, baseTag: existing?.cloudTag,
            at: date)
        try setAck(db, type: type, id: id, tag: nil, at: nil)
    }

    /// Deletes a record: it becomes a minimal tombstone, and a cloud-enabled record queues the
    /// tombstone's upload.
    ///
    /// A local-only record's cloud copy is already a tombstone, so nothing new is queued for it.
    /// - Throws: ``LarderError`` `usage-error` when the store has no such record.
    @discardableResult
    public func delete(type: String, id: String, at date: Date) throws -> LocalOutcome {
        try store.writeDatabase { db in try Self.delete(db, type: type, id: id, at: date) }
    }

    /// ``save(_:type:at:)`` inside a transaction the caller holds, unless the store already holds
    /// exactly `record`.
    ///
    /// Returns whether it saved.
    @discardableResult
    static func saveIfChanged(_ db: Database, _ record: Value, type: String, at date: Date) throws -> Bool {
        if let id = record["id"]?.stringValue, let existing = try StoredRecord.fetch(db, type: type, id: id),
            try existing.value() == record
        {
            return false
        }
        try save(db, record, type: type, at: date)
        return true
    }

    /// ``delete(type:id:at:)`` inside a transaction the caller holds.
    @discardableResult
    static func delete(_ db: Database, type: String, id: String, at date: Date) throws -> LocalOutcome {
        let record = try require(db, type: type, id: id)
        if record.isDeleted { return .unchanged }
        let when = Timestamp.format(date)
        if record.isLocalOnly {
            let body = Tombstone.localBody(
                id: id, recordName: record.recordName, deletedAt: when, updatedAt: when, changeTag: record.cloudAckTag)
            try Store.upsert(db, type: type, record: body, version: record.version)
            return .changed
        }
        let body = Tombstone.localBody(
            id: id, recordName: record.recordName, deletedAt: when, updatedAt: when, changeTag: nil)
        try Store.upsert(db, type: type, record: body, version: record.version)
        try queueTombstone(db, for: record, at: date)
        return .changed
    }

    /// Makes a record local-only: it keeps all its data here, and the cloud copy becomes a
    /// minimal tombstone (queued), so every other device removes it (seed 003, scenario 6).
    /// - Throws: ``LarderError`` `usage-error` when there is no such record or it is deleted.
    @discardableResult
    public func setLocalOnly(type: String, id: String, at date: Date) throws -> LocalOutcome {
        try store.writeDatabase { db in
            let record = try Self.require(db, type: type, id: id)
            guard !record.isDeleted else {
                throw LarderError(.usage, "\(type) \(id) is deleted: there is nothing to keep locally")
            }
            if !record.isCloudEnabled { return .unchanged }
            try Self.setCloudEnabled(db, record, false, at: date)
            try Self.queueTombstone(db, for: record, at: date)
            return .changed
        }
    }

    /// Re-enables cloud on a local-only record: the full record is queued to overwrite the cloud's
    /// tombstone, so the other devices get it back (seed 003, scenario 3).
    /// - Throws: ``LarderError`` `usage-error` when there is no such record or it is deleted.
    @discardableResult
    public func enableCloud(type: String, id: String, at date: Date) throws -> LocalOutcome {
        try store.writeDatabase { db in
            let record = try Self.require(db, type: type, id: id)
            guard !record.isDeleted else {
                throw LarderError(.usage, "\(type) \(id) is deleted: its data is gone, there is nothing to upload")
            }
            if record.isCloudEnabled { return .unchanged }
            let value = try Self.setCloudEnabled(db, record, true, at: date)
            try PendingChange.enqueue(
                db, type: type, id: id, recordName: record.recordName, kind: .enableCloud, payload: value,
                baseTag: record.cloudTag, at: date)
            try Self.setAck(db, type: type, id: id, tag: nil, at: nil)
            return .changed
        }
    }

    // MARK: Remote changes

    /// Applies a record the cloud holds (fetched from its change feed).
    ///
    /// A body marked deleted is applied as a tombstone.
    /// - Parameters:
    ///   - record: The record's body as the cloud holds it.
    ///   - type: The record type.
    ///   - changeTag: the cloud's change tag for this version.
    ///   - date: the cloud time it was confirmed (its modification time).
    /// - Returns: What happened to the local record (``RemoteOutcome``).
    /// - Throws: ``LarderError`` `malformed-record` for a body without a string id, `store-error`
    ///   when the database fails.
    @discardableResult
    public func applyRemote(_ record: Value, type: String, changeTag: String, at date: Date) throws -> RemoteOutcome {
        guard let id = record["id"]?.stringValue else {
            throw LarderError(
                .malformedRecord, "a remote record needs a string id", location: SourceLocation(fieldPath: "id"))
        }
        if record["isDeleted"] == .bool(true) {
            return try applyRemoteTombstone(
                type: type, id: id, recordName: record["recordName"]?.stringValue, changeTag: changeTag, at: date,
                deletedAt: record["deletedAt"]?.stringValue, updatedAt: record["updatedAt"]?.stringValue)
        }
        return try store.writeDatabase { db in
            var value = record
            value.setMember("isCloudEnabled", .bool(true))
            value.setMember("changeTag", .string(changeTag))
            value.removeMember("schemaVersion")
            let pending = try PendingChange.fetch(db, type: type, id: id)
            guard let existing = try StoredRecord.fetch(db, type: type, id: id) else {
                try Store.upsert(db, type: type, record: value, version: try Store.state(db, type: type)?.version)
                try Self.setAck(db, type: type, id: id, tag: changeTag, at: date)
                return .inserted
            }
            if existing.isLocalOnly {
                try Self.setAck(db, type: type, id: id, tag: changeTag, at: date)
                return .protectedLocalOnly
            }
            var outcome: RemoteOutcome = existing.isDeleted ? .restored : .updated
            switch pending?.kind {
            case .tombstone?, .enableCloud?: return .keptPendingLocalChange
            case .save?:
                // The version the local edit was based on (an echo of this device's own upload) is
                // no remote edit: the local edit stays queued.
                if let base = pending?.baseTag, base == changeTag { return .keptPendingLocalChange }
                try PendingChange.discard(db, type: type, id: id)
                outcome = .replacedPendingEdit
            default:
                if existing.cloudAckTag == changeTag && !existing.isDeleted { return .unchanged }
            }
            try Store.upsert(db, type: type, record: value, version: existing.version)
            try Self.setAck(db, type: type, id: id, tag: changeTag, at: date)
            return outcome
        }
    }

    /// Applies a tombstone the cloud holds: a cloud-enabled record becomes the tombstone; a
    /// local-only record is never touched (only the note of the cloud's state changes); a record
    /// the store does not have is recorded as a tombstone.
    @discardableResult
    public func applyRemoteTombstone(
        type: String, id: String, recordName: String? = nil, changeTag: String, at date: Date, deletedAt: String? = nil,
        updatedAt: String? = nil
    ) throws -> RemoteOutcome {
        try store.writeDatabase { db in
            let pending = try PendingChange.fetch(db, type: type, id: id)
            let name = Tombstone.recordName(type: type, id: id, explicit: recordName)
            let deleted = deletedAt ?? Timestamp.format(date)
            let tombstone = Tombstone.localBody(
                id: id, recordName: name, deletedAt: deleted, updatedAt: updatedAt ?? deleted, changeTag: changeTag)
            guard let existing = try StoredRecord.fetch(db, type: type, id: id) else {
                try Store.upsert(db, type: type, record: tombstone, version: try Store.state(db, type: type)?.version)
                try Self.setAck(db, type: type, id: id, tag: changeTag, at: date)
                return .recordedTombstone
            }
            if existing.isLocalOnly {
                // The cloud already holds a tombstone: an upload of ours would change nothing.
                if pending?.kind == .tombstone { try PendingChange.discard(db, type: type, id: id) }
                try Self.setAck(db, type: type, id: id, tag: changeTag, at: date)
                return .protectedLocalOnly
            }
            if pending?.kind == .enableCloud { return .keptPendingLocalChange }
            if existing.isDeleted {
                if pending?.kind == .tombstone { try PendingChange.discard(db, type: type, id: id) }
                if existing.cloudAckTag == changeTag { return .unchanged }
                let body = Tombstone.localBody(
                    id: id, recordName: existing.recordName, deletedAt: existing.deletedAt ?? deleted,
                    updatedAt: existing.updatedAt ?? deleted,
                    changeTag: changeTag)
                try Store.upsert(db, type: type, record: body, version: existing.version)
                try Self.setAck(db, type: type, id: id, tag: changeTag, at: date)
                return .unchanged
            }
            if pending != nil { try PendingChange.discard(db, type: type, id: id) }
            try Store.upsert(db, type: type, record: tombstone, version: existing.version)
            try Self.setAck(db, type: type, id: id, tag: changeTag, at: date)
            return .deleted
        }
    }

    // MARK: Pending changes

    /// The queued changes, oldest first.
    /// - Parameter limit: at most this many.
    /// - Returns: The changes in queue order.
    /// - Throws: ``LarderError`` `store-error` when the database fails.
    public func pendingChanges(limit: Int? = nil) throws -> [PendingChange] {
        try store.readDatabase { db in
            try Row.fetchAll(db, sql: "SELECT * FROM pending_changes ORDER BY seq LIMIT ?", arguments: [limit ?? -1])
                .map(PendingChange.init(row:))
        }
    }

    /// The number of queued changes.
    public func pendingCount() throws -> Int {
        try store.readDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM pending_changes") ?? 0 }
    }

    /// Records the cloud's confirmation of `change`: the change leaves the queue, and the record
    /// notes the tag and time (a cloud-enabled record's body takes the tag too).
    ///
    /// When a newer change of the record replaced `change` meanwhile, that one is re-based on the tag.
    public func acknowledge(_ change: PendingChange, changeTag: String, at date: Date) throws -> AcknowledgeOutcome {
        try store.writeDatabase { db in
            guard let current = try PendingChange.fetch(db, type: change.type, id: change.id) else { return .stale }
            guard current.seq == change.seq else {
                try db.execute(
                    sql: "UPDATE pending_changes SET base_tag = ? WHERE seq = ?", arguments: [changeTag, current.seq])
                return .rebased
            }
            try PendingChange.discard(db, type: change.type, id: change.id)
            guard change.kind != .purge, let record = try StoredRecord.fetch(db, type: change.type, id: change.id)
            else { return .acknowledged }
            if !record.isLocalOnly {
                var value = try record.value()
                value.setMember("changeTag", .string(changeTag))
                try Store.upsert(db, type: change.type, record: value, version: record.version)
            }
            try Self.setAck(db, type: change.type, id: change.id, tag: changeTag, at: date)
            return .acknowledged
        }
    }

    /// Drops a queued change (the cloud refused it and sync resolved the conflict).
    /// - Returns: whether it was still queued.
    @discardableResult
    public func discardPending(seq: Int64) throws -> Bool {
        try store.writeDatabase { db in
            try db.execute(sql: "DELETE FROM pending_changes WHERE seq = ?", arguments: [seq])
            return db.changesCount > 0
        }
    }

    // MARK: Devices

    /// Records that a device synced: registers it, or advances its watermark (never backwards)
    /// and last-seen time.
    ///
    /// An expired device stays expired until it comes back with a higher epoch (it reset); until then the result says
    /// it must reset.
    public func recordDeviceSync(
        id: String, name: String? = nil, watermark: Date?, seenAt: Date, epoch: Int = 0, isSelf: Bool = false
    ) throws -> DeviceStatus {
        try store.writeDatabase { db in
            guard let device = try Self.device(db, id: id) else {
                try db.execute(
                    sql:
                        "INSERT INTO devices (id, name, watermark, last_seen, epoch, is_self) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [id, name ?? id, watermark?.milliseconds, seenAt.milliseconds, epoch, isSelf])
                return .registered
            }
            let seen = max(device.lastSeen, seenAt).milliseconds
            if device.isExpired {
                guard epoch > device.epoch else {
                    try db.execute(sql: "UPDATE devices SET last_seen = ? WHERE id = ?", arguments: [seen, id])
                    return .mustReset(expiredAt: device.expiredAt ?? device.lastSeen)
                }
                try db.execute(
                    sql:
                        "UPDATE devices SET name = ?, watermark = ?, last_seen = ?, epoch = ?, is_expired = 0, expired_at = NULL WHERE id = ?",
                    arguments: [name ?? device.name, watermark?.milliseconds, seen, epoch, id])
                return .reactivated
            }
            let mark: Int64?
            if epoch > device.epoch {
                mark = watermark?.milliseconds  // a reset device starts over
            } else {
                mark = [device.watermark?.milliseconds, watermark?.milliseconds].compactMap { $0 }.max()
            }
            try db.execute(
                sql: "UPDATE devices SET name = ?, watermark = ?, last_seen = ?, epoch = ?, is_self = ? WHERE id = ?",
                arguments: [name ?? device.name, mark, seen, max(epoch, device.epoch), isSelf || device.isSelf, id])
            return .active
        }
    }

    /// Every known device, by id.
    public func devices() throws -> [Device] {
        try store.readDatabase { db in try Self.devices(db) }
    }

    static func devices(_ db: Database) throws -> [Device] {
        try Row.fetchAll(db, sql: "SELECT * FROM devices ORDER BY id").map(Self.device(row:))
    }

    static func device(_ db: Database, id: String) throws -> Device? {
        try Row.fetchOne(db, sql: "SELECT * FROM devices WHERE id = ?", arguments: [id]).map(Self.device(row:))
    }

    /// Reads a `SELECT * FROM devices` row.
    /// - Throws: ``StoredValueError`` naming the column whose value is not what it must hold.
    static func device(row: Row) throws -> Device {
        let watermark: Int64? = try row.decode(forColumn: "watermark", in: .devices)
        let expiredAt: Int64? = try row.decode(forColumn: "expired_at", in: .devices)
        return Device(
            id: try row.decode(forColumn: "id", in: .devices), name: try row.decode(forColumn: "name", in: .devices),
            watermark: watermark.map(Date.init(milliseconds:)),
            lastSeen: Date(milliseconds: try row.decode(forColumn: "last_seen", in: .devices)),
            isExpired: try row.decode(forColumn: "is_expired", in: .devices),
            expiredAt: expiredAt.map(Date.init(milliseconds:)), epoch: try row.decode(forColumn: "epoch", in: .devices),
            isSelf: try row.decode(forColumn: "is_self", in: .devices))
    }

    /// The tag of the device registry the devices table reflects (sync sets it when it fetches
    /// the registry; a purge is refused when the registry changed since).
    public func registryTag() throws -> String? {
        try store.readDatabase { db in try Self.registryTag(db) }
    }

    /// Sets the registry tag.
    public func setRegistryTag(_ tag: String?) throws {
        try store.writeDatabase { db in try Self.setMeta(db, key: Self.registryTagKey, tag) }
    }

    static func registryTag(_ db: Database) throws -> String? {
        try meta(db, key: registryTagKey)
    }

    /// The change-feed token saved for a sync target (its identity), from which the next pull
    /// fetches; `nil`: fetch everything.
    public func changeToken(target: String) throws -> String? {
        try store.readDatabase { db in try Self.meta(db, key: Self.changeTokenKey(target: target)) }
    }

    /// Saves (or, with `nil`, forgets) the change-feed token of a sync target.
    public func setChangeToken(_ token: String?, target: String) throws {
        try store.writeDatabase { db in try Self.setMeta(db, key: Self.changeTokenKey(target: target), token) }
    }

    private static let registryTagKey = "device_registry_tag"

    private static func changeTokenKey(target: String) -> String { "cloudkit-sync-token " + target }

    /// A value of `sync_meta`, the store's small key/value facts.
    private static func meta(_ db: Database, key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM sync_meta WHERE key = ?", arguments: [key])
    }

    private static func setMeta(_ db: Database, key: String, _ value: String?) throws {
        if let value {
            try db.execute(sql: "INSERT OR REPLACE INTO sync_meta (key, value) VALUES (?, ?)", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM sync_meta WHERE key = ?", arguments: [key])
        }
    }

    // MARK: Reset

    /// What a reset kept and dropped.
    public struct ResetReport: Sendable, Hashable {
        /// Cloud-enabled records (and tombstones) removed, to be fetched again.
        public var removedRecords = 0
        /// Local-only records kept.
        public var keptLocalOnly = 0
        /// Queued changes kept: new records, deletes, cloud re-enables.
        public var keptChanges = 0
        /// Queued edits of cloud records dropped (their record may be gone from the cloud), by `type id`.
        public var discardedEdits: [String] = []
    }

    /// Resets this store after its device expired: every cloud-enabled record without a kept
    /// pending change is removed (sync then fetches everything again from the start), queued
    /// edits of cloud records and purges are dropped (an edit of a record whose tombstone was
    /// compacted away would bring it back), local-only records and queued new records, deletes
    /// and cloud re-enables are kept.
    ///
    /// This device's watermark is cleared and its epoch advances.
    public func resetForResync(deviceID: String, at date: Date) throws -> ResetReport {
        try store.writeDatabase { db in
            var report = ResetReport()
            for change in try Row.fetchAll(db, sql: "SELECT * FROM pending_changes ORDER BY seq").map(
                PendingChange.init(row:))
            {
                if change.kind == .purge || (change.kind == .save && change.baseTag != nil) {
                    try db.execute(sql: "DELETE FROM pending_changes WHERE seq = ?", arguments: [change.seq])
                    if change.kind == .save { report.discardedEdits.append("\(change.type) \(change.id)") }
                } else {
                    report.keptChanges += 1
                }
            }
            try db.execute(
                sql: """
                    DELETE FROM records WHERE isCloudEnabled = 1
                    AND NOT EXISTS (SELECT 1 FROM pending_changes p WHERE p.type = records.type AND p.id = records.id)
                    """)
            report.removedRecords = db.changesCount
            report.keptLocalOnly =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM records WHERE isCloudEnabled = 0 AND isDeleted = 0")
                ?? 0
            let epoch = try Int.fetchOne(db, sql: "SELECT epoch FROM devices WHERE id = ?", arguments: [deviceID]) ?? 0
            let (nextEpoch, overflows) = epoch.addingReportingOverflow(1)
            if overflows {
                throw LarderError(
                    .store,
                    "\(store.path): table devices, column epoch of device \(deviceID) is \(epoch), the largest integer; the store is damaged or was edited by hand"
                )
            }
            try db.execute(
                sql: """
                    INSERT INTO devices (id, name, watermark, last_seen, epoch, is_self) VALUES (?, ?, NULL, ?, ?, 1)
                    ON CONFLICT(id) DO UPDATE SET watermark = NULL, last_seen = excluded.last_seen, epoch = excluded.epoch,
                    is_expired = 0, expired_at = NULL, is_self = 1
                    """,
                arguments: [deviceID, deviceID, date.milliseconds, nextEpoch])
            return report
        }
    }

    /// The types under which the store holds a record with this id (usually one).
    public func types(ofID id: String) throws -> [String] {
        try store.readDatabase { db in
            try String.fetchAll(db, sql: "SELECT type FROM records WHERE id = ? ORDER BY type", arguments: [id])
        }
    }

    /// The store's record with this cloud name: by its `recordName` column, else by its default
    /// name `TYPE-ID` (``Tombstone/recordName(type:id:explicit:)``); `nil` when there is none.
    public func record(named recordName: String) throws -> StoredRecord? {
        try store.readDatabase { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT \(StoredRecord.columns) FROM records WHERE recordName = ? LIMIT 1",
                arguments: [recordName])
            {
                return try StoredRecord(row: row)
            }
            for type in try String.fetchAll(db, sql: "SELECT DISTINCT type FROM records")
            where recordName.hasPrefix(type + "-") {
                if let record = try StoredRecord.fetch(db, type: type, id: String(recordName.dropFirst(type.count + 1)))
                {
                    return record
                }
            }
            return nil
        }
    }

    // MARK: Helpers

    /// Flips a live record's cloud setting (and its `updatedAt`); returns the new body.
    @discardableResult
    static func setCloudEnabled(_ db: Database, _ record: StoredRecord, _ isEnabled: Bool, at date: Date) throws
        -> Value
    {
        var value = try record.value()
        value.setMember("isCloudEnabled", .bool(isEnabled))
        value.setMember("updatedAt", .string(Timestamp.format(date)))
        try Store.upsert(db, type: record.type, record: value, version: record.version)
        return value
    }

    /// Queues the upload of the record's cloud tombstone (a delete, or a set-local) and clears its
    /// acknowledgement: the cloud does not hold that state yet.
    static func queueTombstone(_ db: Database, for record: StoredRecord, at date: Date) throws {
        let when = Timestamp.format(date)
        let payload = Tombstone.cloudPayload(
            id: record.id, recordName: record.recordName, deletedAt: when, updatedAt: when,
            schemaVersion: record.version)
        try PendingChange.enqueue(
            db, type: record.type, id: record.id, recordName: record.recordName, kind: .tombstone, payload: payload,
            baseTag: record.cloudTag, at: date)
        try setAck(db, type: record.type, id: record.id, tag: nil, at: nil)
    }

    static func require(_ db: Database, type: String, id: String) throws -> StoredRecord {
        guard let record = try StoredRecord.fetch(db, type: type, id: id) else {
            throw LarderError(.usage, "the store has no \(type) record \(id)")
        }
        return record
    }

    static func setAck(_ db: Database, type: String, id: String, tag: String?, at date: Date?) throws {
        try db.execute(
            sql: "UPDATE records SET cloudAckTag = ?, cloudAckAt = ? WHERE type = ? AND id = ?",
            arguments: [tag, date?.milliseconds, type, id])
    }
}

extension Value {
    /// Sets a member of an object value (nothing for other values).
    mutating func setMember(_ key: String, _ member: Value) {
        guard case .object(var fields) = self else { return }
        fields[key] = member
        self = .object(fields)
    }

    /// Removes a member of an object value.
    mutating func removeMember(_ key: String) {
        guard case .object(var fields) = self else { return }
        fields[key] = nil
        self = .object(fields)
    }
}

extension StoreTransaction {
    /// ``SyncState/save(_:type:at:)`` in this transaction.
    public func save(_ record: Value, type: String, at date: Date) throws {
        try SyncState.save(db, record, type: type, at: date)
    }

    /// ``SyncState/save(_:type:at:)`` in this transaction, unless the store already holds exactly
    /// `record`.
    /// - Returns: whether it saved.
    @discardableResult
    public func saveIfChanged(_ record: Value, type: String, at date: Date) throws -> Bool {
        try SyncState.saveIfChanged(db, record, type: type, at: date)
    }

    /// ``SyncState/delete(type:id:at:)`` in this transaction.
    @discardableResult
    public func delete(type: String, id: String, at date: Date) throws -> SyncState.LocalOutcome {
        try SyncState.delete(db, type: type, id: id, at: date)
    }
}
