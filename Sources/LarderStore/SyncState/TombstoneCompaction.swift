public import Foundation
import GRDB
public import LarderCore
import LarderRegistry
import LarderSQLite

/// Drops the tombstones no device can still need, in one transaction (seed 003 + CouchDB's
/// clustered purge).
///
/// A tombstone is dropped only when all three hold:
/// 1. the cloud acknowledged the delete (the record's cloud acknowledgement is set and no change
///    of it is pending),
/// 2. nothing pending refers to the record,
/// 3. every known live device's watermark is at or past the acknowledgement time.
///
/// A device not seen for longer than ``horizon`` is first marked expired: it stops blocking,
/// and when it comes back it must reset (``SyncState/recordDeviceSync(id:name:watermark:seenAt:epoch:isSelf:)``
/// says so). A dropped tombstone queues a `purge` of its cloud copy, conditioned on the
/// acknowledged tag and on the device registry being unchanged. Kept tombstones that still carry
/// data ("fat" tombstones from older versions) are stripped to the minimal fields.
///
/// Streams: tombstones are read in batches of 1,000 by rowid, and every decision is passed to
/// `onEvent` as it is made (so a caller can spool the report); memory stays flat. A second run
/// changes nothing but adds its own history row.
///
/// ```swift
/// var compaction = TombstoneCompaction(store: store)
/// compaction.clock = .fixed(runDate)
/// let summary = try compaction.run { event in print(event) }
/// ```
public struct TombstoneCompaction: Sendable {
    /// The store.
    public let store: Store
    /// How long a device may stay unseen before it is marked expired (default 90 days).
    public var horizon: TimeInterval = 90 * 86_400
    /// The clock: the run takes its `now` from it (for the horizon and the history).
    public var clock: LarderClock = .system
    /// Decide and report, but write nothing.
    public var isDryRun = false

    /// Creates a compaction of `store` with the defaults.
    public init(store: Store) {
        self.store = store
    }

    /// A tombstone, as the report names it.
    public struct TombstoneReference: Sendable, Hashable {
        public var type: String
        public var id: String
        public var recordName: String
        public var deletedAt: String?
        /// When the cloud confirmed the tombstone.
        public var acknowledgedAt: Date?
    }

    /// Why a tombstone stays.
    public enum KeepReason: Sendable, Hashable {
        /// The cloud has not confirmed the delete yet.
        case notAcknowledged
        /// A change of the record waits for the cloud.
        case pending(kind: PendingChange.Kind, seq: Int64)
        /// A live device has not fetched past it: the one furthest behind, and how many others also block.
        case device(Device, alsoBlocking: Int)

        /// A phrase for reports.
        public var description: String {
            switch self {
            case .notAcknowledged: return "the cloud has not acknowledged the delete"
            case .pending(let kind, let seq): return "pending change #\(seq) (\(kind)) refers to it"
            case .device(let device, let others):
                let mark = device.watermark.map { "watermark \(Timestamp.format($0))" } ?? "never synced"
                return "device \(device.label) has not synced past it (\(mark))"
                    + (others > 0 ? " and \(others) more device\(others == 1 ? "" : "s")" : "")
            }
        }
    }

    /// One decision of the run, in order: expired devices first, then each tombstone.
    public enum Event: Sendable {
        /// A device is expired: marked in this run (`isNew`) or before.
        case deviceExpired(Device, isNew: Bool)
        /// A tombstone stays; `strippedBytes` > 0 when its leftover data was removed.
        case kept(TombstoneReference, KeepReason, strippedBytes: Int)
        /// A tombstone was dropped (its cloud purge queued); `bytes` is the body it held.
        case dropped(TombstoneReference, bytes: Int)
    }

    /// The totals of a run (also the history row's details).
    public struct Summary: Sendable, Hashable, Codable {
        public var now: String
        public var horizonSeconds: Int
        public var isDryRun: Bool
        public var tombstones = 0
        public var dropped = 0
        public var kept = 0
        public var keptNotAcknowledged = 0
        public var keptPending = 0
        public var keptByDevice = 0
        /// Tombstones kept per blocking device id (the device furthest behind).
        public var blockingDevices: [String: Int] = [:]
        /// Fat tombstones stripped to the minimal fields, and the bytes that saved.
        public var stripped = 0
        public var bytesSaved = 0
        /// Bytes of the dropped tombstones' bodies.
        public var bytesFreed = 0
        /// Cloud purges queued (one per dropped tombstone).
        public var purgesQueued = 0
        /// Devices marked expired by this run.
        public var newlyExpired: [String] = []
        /// Every expired device (this run's and earlier ones).
        public var expired: [String] = []

        /// Rows this run changed: dropped, stripped, devices expired.
        public var changes: Int { dropped + stripped + newlyExpired.count }

        /// Counts a kept tombstone under its reason.
        mutating func count(kept reason: KeepReason) {
            kept += 1
            switch reason {
            case .notAcknowledged: keptNotAcknowledged += 1
            case .pending: keptPending += 1
            case .device(let device, _):
                keptByDevice += 1
                blockingDevices[device.id, default: 0] += 1
            }
        }
    }

    private static let batchSize = 1000

    /// Runs the compaction in one transaction (a read transaction for a dry run), recording it in
    /// the history (not for a dry run).
    /// - Parameter onEvent: each decision as it is made; throwing from it rolls everything back.
    /// - Returns: The counts of tombstones dropped and kept, by reason.
    /// - Throws: ``LarderError`` `store-error` when the database fails.
    public func run(onEvent: (Event) throws -> Void = { _ in }) throws -> Summary {
        let now = clock.now()
        let started = clock.monotonicSeconds()
        let body: (Database) throws -> Summary = { db in
            var summary = Summary(
                now: Timestamp.format(now), horizonSeconds: Int(saturating: horizon), isDryRun: isDryRun)
            let live = try expireDevices(db, now: now, summary: &summary, onEvent: onEvent)
            try compactTombstones(db, now: now, live: live, summary: &summary, onEvent: onEvent)
            if !isDryRun {
                try Store.recordHistory(
                    db, kind: .compaction, source: "tombstones compact --horizon \(Int(saturating: horizon))s",
                    appliedAt: now,
                    duration: clock.monotonicSeconds() - started, recordsTouched: summary.changes, success: true,
                    details: try summary.jsonText())
                CrashSwitch.step()
            }
            return summary
        }
        return isDryRun ? try store.readDatabase(body) : try store.writeDatabase(body)
    }

    /// Marks devices unseen past the horizon as expired; returns the live ones, furthest behind first.
    private func expireDevices(_ db: Database, now: Date, summary: inout Summary, onEvent: (Event) throws -> Void)
        throws -> [Device]
    {
        let cutoff = now.addingTimeInterval(-horizon)
        var live: [Device] = []
        for var device in try SyncState.devices(db) where !device.isSelf {
            if device.isExpired {
                summary.expired.append(device.id)
                try onEvent(.deviceExpired(device, isNew: false))
            } else if device.lastSeen < cutoff {
                device.isExpired = true
                device.expiredAt = now
                if !isDryRun {
                    try db.execute(
                        sql: "UPDATE devices SET is_expired = 1, expired_at = ? WHERE id = ?",
                        arguments: [now.milliseconds, device.id])
                    CrashSwitch.step()
                }
                summary.newlyExpired.append(device.id)
                summary.expired.append(device.id)
                try onEvent(.deviceExpired(device, isNew: true))
            } else {
                live.append(device)
            }
        }
        return live.sorted { ($0.watermark?.milliseconds ?? .min, $0.id) < ($1.watermark?.milliseconds ?? .min, $1.id) }
    }

    /// One tombstone as the compaction reads it (the body itself is read only to strip it).
    private struct Candidate {
        var rowID: Int64
        var reference: TombstoneReference
        var updatedAt: String?
        var tag: String?
        var ackAt: Int64?
        var bodyBytes: Int
        var isFat: Bool
        var pendingSeq: Int64?
        var pendingKind: String?

        /// A candidate from a row of the compaction's select (its columns in order).
        /// - Throws: ``StoredValueError`` naming the column whose value is not what it must hold.
        init(row: Row) throws {
            let type: String = try row.decode(atIndex: 1, in: .records)
            let id: String = try row.decode(atIndex: 2, in: .records)
            let ackAt: Int64? = try row.decode(atIndex: 7, in: .records)
            rowID = try row.decode(atIndex: 0, in: .records)
            reference = TombstoneReference(
                type: type, id: id,
                recordName: Tombstone.recordName(
                    type: type, id: id, explicit: try row.decode(atIndex: 3, in: .records)),
                deletedAt: try row.decode(atIndex: 4, in: .records), acknowledgedAt: ackAt.map(Date.init(milliseconds:))
            )
            updatedAt = try row.decode(atIndex: 5, in: .records)
            tag = try row.decode(atIndex: 6, in: .records)
            self.ackAt = ackAt
            bodyBytes = try row.decode(atIndex: 8, in: .records)
            isFat = try row.decode(atIndex: 9, in: .records)
            pendingSeq = try row.decode(atIndex: 10, in: .pendingChanges)
            pendingKind = try row.decode(atIndex: 11, in: .pendingChanges)
        }
    }

    /// Why a tombstone must stay: a pending change still names it, it was never acknowledged by
    /// the cloud, or a live device's watermark is older than the acknowledgement (the first such
    /// device named); `nil` when it can go.
    private static func keepReason(_ candidate: Candidate, marks: [Int64], live: [Device]) -> KeepReason? {
        if let seq = candidate.pendingSeq {
            return .pending(kind: PendingChange.Kind(rawValue: candidate.pendingKind ?? ""), seq: seq)
        }
        guard let ackAt = candidate.ackAt else { return .notAcknowledged }
        let blocking = marks.prefix { $0 < ackAt }.count
        return blocking > 0 ? .device(live[0], alsoBlocking: blocking - 1) : nil
    }

    /// Rewrites a kept tombstone's body to the minimal one (not in a dry run).
    /// - Returns: the bytes saved.
    private func strip(_ candidate: Candidate, with stripRow: Statement, summary: inout Summary) throws -> Int {
        let reference = candidate.reference
        let minimal = try Tombstone.localBodyText(
            id: reference.id, recordName: reference.recordName, deletedAt: reference.deletedAt,
            updatedAt: candidate.updatedAt, changeTag: candidate.tag)
        let saved = candidate.bodyBytes - minimal.utf8.count
        if !isDryRun {
            try stripRow.execute(arguments: [minimal, candidate.rowID])
            CrashSwitch.step()
        }
        summary.stripped += 1
        summary.bytesSaved += saved
        return saved
    }

    private func compactTombstones(
        _ db: Database, now: Date, live: [Device], summary: inout Summary, onEvent: (Event) throws -> Void
    ) throws {
        let marks = live.map { $0.watermark?.milliseconds ?? .min }
        let registryTag = try SyncState.registryTag(db)
        let nowMilliseconds = now.milliseconds
        let minimalKeys = Tombstone.localFieldNames.sorted().map { "'\($0)'" }.joined(separator: ", ")
        // SQLite tells which bodies carry fields beyond the minimal ones (json_each, in C), so only
        // those are read and rewritten.
        let select = try db.makeStatement(
            sql: """
                SELECT r.rowid, r.type, r.id, r.recordName, r.deletedAt, r.updatedAt, coalesce(r.cloudAckTag, r.changeTag), r.cloudAckAt,
                length(CAST(r.body AS BLOB)), EXISTS (SELECT 1 FROM json_each(r.body) WHERE key NOT IN (\(minimalKeys))), p.seq, p.kind
                FROM records r LEFT JOIN pending_changes p ON p.type = r.type AND p.id = r.id
                WHERE r.isDeleted = 1 AND r.rowid > ? ORDER BY r.rowid LIMIT ?
                """)
        let stripRow = try db.makeStatement(sql: "UPDATE records SET body = ? WHERE rowid = ?")
        // A batch's drops go in two set statements: queue the purges, then delete the rows.
        let queuePurges = try db.makeStatement(
            sql: """
                INSERT INTO pending_changes (type, id, record_name, kind, payload, base_tag, registry_tag, created_at)
                SELECT type, id, coalesce(recordName, type || '-' || id), 'purge', NULL, cloudAckTag, ?, ?
                FROM records WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid
                """)
        let deleteRows = try db.makeStatement(
            sql: "DELETE FROM records WHERE rowid IN (SELECT value FROM json_each(?))")
        var lastRowID: Int64 = 0
        var batch: [Candidate] = []
        batch.reserveCapacity(Self.batchSize)
        while true {
            batch.removeAll(keepingCapacity: true)
            let cursor = try Row.fetchCursor(select, arguments: [lastRowID, Self.batchSize])
            while let row = try cursor.next() { batch.append(try Candidate(row: row)) }
            guard let last = batch.last else { break }
            lastRowID = last.rowID
            var dropped: [Int64] = []
            for candidate in batch {
                summary.tombstones += 1
                guard let reason = Self.keepReason(candidate, marks: marks, live: live) else {
                    dropped.append(candidate.rowID)
                    summary.dropped += 1
                    summary.purgesQueued += 1
                    summary.bytesFreed += candidate.bodyBytes
                    try onEvent(.dropped(candidate.reference, bytes: candidate.bodyBytes))
                    continue
                }
                summary.count(kept: reason)
                let saved = candidate.isFat ? try strip(candidate, with: stripRow, summary: &summary) : 0
                try onEvent(.kept(candidate.reference, reason, strippedBytes: saved))
            }
            if !isDryRun && !dropped.isEmpty {
                let list = "[" + dropped.map(String.init).joined(separator: ",") + "]"
                try queuePurges.execute(arguments: [registryTag, nowMilliseconds, list])
                try deleteRows.execute(arguments: [list])
                for _ in dropped { CrashSwitch.step() }
            }
        }
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys, for reports and history details.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
