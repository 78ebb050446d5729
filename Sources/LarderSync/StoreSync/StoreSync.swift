import Foundation
import LarderCloudKit
public import LarderCore
import LarderFormats
import LarderRegistry
public import LarderStore

/// Syncs one device's Larder store with a CloudKit zone, both ways, through the store's sync
/// state (``SyncState``: pending changes, cloud acknowledgements, minimal tombstones, devices).
///
/// ``run(progress:)`` does, in order:
/// 1. **pull**: fetches the zone's changes since the token saved in the store (all of them the
///    first time, or after `CHANGE_TOKEN_EXPIRED`) and applies them with the seed-003 rules:
///    a remote tombstone deletes a cloud-enabled record and never a local-only one, a remote
///    update never touches a local-only record, a local delete or cloud re-enable not yet
///    uploaded wins, a remote edit or tombstone wins over a local edit not yet uploaded. Other
///    devices' registry records update the devices table (their watermarks).
/// 2. **push**: uploads the pending changes (records, minimal tombstones, cloud re-enables, and
///    purges of compacted tombstones when the device registry is unchanged) through the
///    ``Uploader`` and acknowledges each in the store. A conflicting save follows the conflict
///    policy (default: the server's version is applied, the local edit dropped); a tombstone or
///    re-enable is written over the server's version.
/// 3. **register**: advances this device's watermark (the cloud time it has fetched up to,
///    which tombstone compaction waits for) and publishes it as the device's registry record.
///
/// Everything is resumable: each applied change and each acknowledgement is its own
/// transaction, the sync token is saved after each page, and an upload whose answer was lost
/// is recognised by its content on the next run.
public struct StoreSync: Sendable {
    /// The store.
    public let store: Store
    /// The client (target zone, transport, credentials).
    public let client: CloudKitClient
    /// Batching, pacing, retries.
    public var configuration = UploadConfiguration()
    /// How a conflicting local edit (a pending save) is settled: `server-wins` applies the
    /// server's version (seed 003); `client-wins`, `merge` write over it.
    public var conflictPolicy: ConflictPolicy = .serverWins
    /// Clock and sleeper.
    public var clock: LarderClock = .system
    /// This device's id (default: the store's own device, else the host name).
    public var deviceID: String?
    /// This device's name for the registry.
    public var deviceName: String?

    /// The record type of device registry records.
    public static let deviceRecordType = "larderDevice"

    let syncState: SyncState

    /// Creates a sync of `store` with the client's zone.
    public init(store: Store, client: CloudKitClient) {
        self.store = store
        self.client = client
        syncState = SyncState(store: store)
    }

    /// What a sync did.
    public struct Report: Sendable, Hashable, Codable {
        /// The device that synced.
        public var device: String
        /// Pull: pages fetched, changes applied by outcome, whether it was a full fetch.
        public var pages = 0
        public var remoteChanges = 0
        public var applied: [String: Int] = [:]
        public var fullFetch = false
        public var tokenExpired = false
        public var devicesSeen = 0
        /// Pull: image files written beside the store.
        public var imagesWritten = 0
        /// Push: the upload report of the pending changes.
        public var push: UploadReport
        /// Purges not sent because the device registry changed since compaction decided.
        public var purgesRefused = 0
        /// The watermark published (ms since 1970).
        public var watermark: Int64?
        /// Requests sent in all.
        public var requests = 0
        public var seconds = 0.0

        /// A few lines for the terminal.
        public func text() -> String {
            var lines = ["larder sync: device \(device) ↔ \(push.target)"]
            let outcomes = applied.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append(
                "  pulled      \(remoteChanges) change\(remoteChanges == 1 ? "" : "s") in \(pages) page\(pages == 1 ? "" : "s")"
                    + (fullFetch ? " (full fetch\(tokenExpired ? ": the token had expired" : ""))" : "")
                    + (outcomes.isEmpty ? "" : ": \(outcomes)"))
            lines.append(
                "  pushed      \(push.uploaded) of \(push.read) pending change\(push.read == 1 ? "" : "s")"
                    + (push.unchanged > 0 ? ", \(push.unchanged) already there" : "")
                    + (push.conflicts > 0 ? ", \(push.conflicts) conflict\(push.conflicts == 1 ? "" : "s")" : "")
                    + (push.deadLetters > 0 ? ", \(push.deadLetters) failed (kept pending)" : "")
                    + (purgesRefused > 0 ? ", \(purgesRefused) purge\(purgesRefused == 1 ? "" : "s") refused" : ""))
            lines.append(
                "  devices     \(devicesSeen) known; watermark \(watermark.map { Timestamp.format(Date(timeIntervalSince1970: Double($0) / 1000)) } ?? "none")"
            )
            lines.append(String(format: "  requests    %d in %.2f s", requests, seconds))
            return lines.joined(separator: "\n")
        }
    }

    // MARK: Whole sync

    /// Pull, push, register (see the type's documentation).
    /// - Throws: ``UploadStopped`` when the server cannot be reached or refuses; ``LarderError``
    ///   for store problems.
    public func run(progress: (@Sendable (UploadProgress) -> Void)? = nil) async throws -> Report {
        let started = clock.monotonicSeconds()
        let device = try resolvedDeviceID()
        _ = try await retrying("creating the zone") { () async throws(CloudKitFailure) in try await client.ensureZone()
        }
        var report = Report(device: device, push: UploadReport(target: client.target.identity))
        let maxModified = try await pull(into: &report)
        report.push = try await push(progress: progress, refusedPurges: &report.purgesRefused)
        let now = Date(timeIntervalSince1970: Double(clock.milliseconds) / 1000)
        let previous = try syncState.devices().first { $0.id == device }?.watermark
        let watermark = maxModified.map { Date(timeIntervalSince1970: Double($0 - 1) / 1000) }
        _ = try syncState.recordDeviceSync(
            id: device, name: deviceName, watermark: watermark, seenAt: now, isSelf: true)
        let current = try syncState.devices().first { $0.id == device }
        // A watermark edited to Int64.max milliseconds is 2^63 once a Double: held at the bound, not trapping.
        report.watermark = (current?.watermark ?? previous).map { Int64(saturating: $0.timeIntervalSince1970 * 1000) }
        try await publishDevice(current ?? Device(id: device, name: deviceName ?? device, lastSeen: now, isSelf: true))
        report.devicesSeen = try syncState.devices().count
        report.requests = client.requestCount
        report.seconds = clock.monotonicSeconds() - started
        return report
    }

    /// The device id: the option, else the store's own device, else the host name.
    public func resolvedDeviceID() throws -> String {
        if let deviceID { return deviceID }
        if let own = try syncState.devices().first(where: \.isSelf) { return own.id }
        return ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "device"
    }

    // MARK: Pull

    func savedToken() throws -> String? {
        try syncState.changeToken(target: client.target.identity)
    }

    func saveToken(_ token: String?) throws {
        try syncState.setChangeToken(token, target: client.target.identity)
    }

    /// Fetches and applies the zone's changes since the saved token.
    /// - Returns: the latest modification time seen (ms), for the watermark.
    func pull(into report: inout Report) async throws -> Int64? {
        let mapping = RecordMapping()
        var token = try savedToken()
        report.fullFetch = token == nil
        var maxModified: Int64?
        let selfDevice = try resolvedDeviceID()
        // Images land in the `images` folder beside the store, under names Larder makes; a record
        // naming another path is stored pointing at the file written.
        let images = ImageDownload(
            client: client, folder: PathParts.directory(of: store.path), retry: configuration.retry, clock: clock)
        while true {
            let page: ZoneChanges
            do {
                let current = token
                page = try await retrying("changes/zone") { () async throws(CloudKitFailure) in
                    try await client.zoneChanges(syncToken: current, resultsLimit: 200)
                }
            } catch let stopped as UploadStopped where stopped.failure.code == .changeTokenExpired && token != nil {
                token = nil
                report.fullFetch = true
                report.tokenExpired = true
                try saveToken(nil)
                continue
            }
            report.pages += 1
            for result in page.records {
                guard let record = result.record, let name = record.recordName else { continue }
                report.remoteChanges += 1
                if let modified = record.modified?.timestamp { maxModified = max(maxModified ?? modified, modified) }
                // Mapped once: the images are saved from this value and it is what the store gets.
                var value = try larderValue(of: record, mapping: mapping)
                if let mapped = value, let field = record.fields?[ImageFiles.field] {
                    let (saved, written) = try await images.save(mapped, recordName: name, assets: field)
                    value = saved
                    report.imagesWritten += written
                }
                let outcome = try apply(record, name: name, mapping: mapping, selfDevice: selfDevice, value: value)
                report.applied[outcome, default: 0] += 1
            }
            if page.moreComing, page.syncToken == token { throw ZoneDownloader.noProgress(token: token) }
            token = page.syncToken
            try saveToken(token)
            if !page.moreComing { break }
        }
        try syncState.setRegistryTag(try Self.registryTag(devices: syncState.devices()))
        return maxModified
    }

    /// Applies one remote change.
    /// - Parameters:
    ///   - record: the change as the server sent it.
    ///   - name: its record name.
    ///   - mapping: how CloudKit fields map to a Larder record.
    ///   - selfDevice: this device's id (its own device record is skipped).
    ///   - value: the record already mapped (with its image paths pointing at the files written).
    /// - Returns: the outcome's name, for the report.
    /// - Throws: ``LarderError`` when the record does not map or the store cannot be written.
    func apply(
        _ record: LarderCloudKit.Record, name: String, mapping: RecordMapping, selfDevice: String, value: Value? = nil
    ) throws -> String {
        let modified = Date(
            timeIntervalSince1970: Double(record.modified?.timestamp ?? clock.milliseconds) / 1000)
        if record.deleted == true {
            guard let stored = try syncState.record(named: name), !stored.isDeleted else { return "ignoredDelete" }
            return try syncState.applyRemoteTombstone(
                type: stored.type, id: stored.id, recordName: name, changeTag: "", at: modified
            ).rawValue
        }
        let type = record.recordType ?? ""
        if type == Self.deviceRecordType {
            let value = try mapped(record, mapping: mapping)
            guard let id = value["deviceID"]?.stringValue, id != selfDevice else { return "ownDevice" }
            let watermark = value["watermark"]?.stringValue.flatMap(Timestamp.parse)
            let seen = value["lastSeen"]?.stringValue.flatMap(Timestamp.parse) ?? modified
            let epoch: Int = if case .int(let number)? = value["epoch"] { Int(number) } else { 0 }
            _ = try syncState.recordDeviceSync(
                id: id, name: value["name"]?.stringValue, watermark: watermark, seenAt: seen, epoch: epoch)
            return "device"
        }
        guard let tag = record.recordChangeTag else { return "ignored" }
        // A share (`cloudkit.share`) or another app's type is no Larder record: the store leaves it.
        guard RecordType(rawValue: type) != nil else { return "otherType" }
        return try syncState.applyRemote(
            try value ?? mapped(record, mapping: mapping), type: type, changeTag: tag, at: modified
        )
        .rawValue
    }

    /// The Larder record a remote change carries, mapped once; nil for a deletion, a change
    /// ``apply(_:name:mapping:selfDevice:value:)`` ignores, or another app's type (or a device record).
    /// - Throws: ``LarderError`` `malformed-record` when a Larder record does not map.
    private func larderValue(of record: LarderCloudKit.Record, mapping: RecordMapping) throws -> Value? {
        guard record.deleted != true, record.recordChangeTag != nil,
            let type = record.recordType, RecordType(rawValue: type) != nil
        else { return nil }
        return try mapped(record, mapping: mapping)
    }

    private func mapped(_ record: LarderCloudKit.Record, mapping: RecordMapping) throws -> Value {
        do {
            return try mapping.value(of: record)
        } catch {
            throw LarderError(.malformedRecord, "remote record \(record.recordName ?? "?"): \(error.description)")
        }
    }

    /// A tag of the device registry's membership (ids and epochs): it changes when a device
    /// joins, resets or expires, which is what a pending purge must not miss.
    static func registryTag(devices: [Device]) -> String {
        let text = devices.map { "\($0.id)#\($0.epoch)#\($0.isExpired)" }.sorted().joined(separator: "\n")
        return AssetDigest.sha256(Data(text.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: Push

    /// Uploads the store's pending changes and acknowledges them in the store.
    /// - Returns: the upload report (dead letters are changes that failed and stay pending).
    public func push(progress: (@Sendable (UploadProgress) -> Void)? = nil) async throws -> UploadReport {
        var refused = 0
        return try await push(progress: progress, refusedPurges: &refused)
    }

    func push(progress: (@Sendable (UploadProgress) -> Void)?, refusedPurges: inout Int) async throws -> UploadReport {
        let started = clock.monotonicSeconds()
        let requestsBefore = client.requestCount
        let bytesBefore = client.bodyBytesSent
        var report = UploadReport(target: client.target.identity)
        let changes = try syncState.pendingChanges()
        report.read = changes.count
        let registryTag = try syncState.registryTag()
        var items: [UploadItem] = []
        var bySeq: [Int64: PendingChange] = [:]
        var failures: [String] = []
        let mapping = RecordMapping()
        let images = ImageTable(folders: [PathParts.directory(of: store.path)])
        var imagesOf: [Int64: [ImageTable.File]] = [:]
        for change in changes {
            if change.kind == .purge {
                guard change.registryTag == registryTag else {
                    try syncState.discardPending(seq: change.seq)
                    refusedPurges += 1
                    continue
                }
                bySeq[change.seq] = change
                items.append(
                    UploadItem(
                        recordName: change.recordName, recordType: change.type, fields: [:], baseTag: change.baseTag,
                        action: .delete, context: change.seq))
                continue
            }
            guard let payload = change.payload else { continue }
            do throws(MappingError) {
                let fields = try mapping.fields(of: payload, type: RecordType(rawValue: change.type))
                let files = images.files(of: payload)
                images.note(files)
                if !files.isEmpty { imagesOf[change.seq] = files }
                bySeq[change.seq] = change
                items.append(
                    UploadItem(
                        recordName: change.recordName, recordType: change.type, fields: fields, baseTag: change.baseTag,
                        record: payload,
                        origin: "\(change.type) \(change.id)", context: change.seq))
            } catch {
                failures.append("\(change.type) \(change.id): \(error.description)")
            }
        }
        // An image file that is there but cannot be read goes up without it, and says so.
        report.warnings += images.unreadableWarnings
        if !items.isEmpty {
            _ = try await retrying("creating the zone") { () async throws(CloudKitFailure) in
                try await client.ensureZone()
            }
        }
        if !imagesOf.isEmpty {
            let upload = ImageUpload(
                client: client, journal: try AssetJournal(path: store.path + ".assets-journal"),
                retry: configuration.retry, clock: clock)
            let (receipts, uploaded) = try await upload.run(images)
            report.imagesUploaded = uploaded
            items = try attachImages(items, imagesOf: imagesOf, receipts: receipts, failures: &failures)
        }
        let delegate = StoreDelegate(syncState: syncState, changes: bySeq, policy: conflictPolicy, clock: clock)
        let total = items.count
        let clock = self.clock
        var onBatch: (@Sendable (UploadStatistics) -> Void)?
        if let progress {
            onBatch = { statistics in
                progress(
                    UploadProgress(
                        total: total, done: statistics.settled, elapsed: clock.monotonicSeconds() - started,
                        retryWait: statistics.retryWait))
            }
        }
        let uploader = Uploader(
            client: client, configuration: configuration, delegate: delegate, clock: clock, progress: onBatch)
        var remaining = items[...]
        let statistics = try await uploader.run {
            guard let item = remaining.first else { return nil }
            remaining = remaining.dropFirst()
            return item
        }
        report.add(statistics)
        report.deadLetters = statistics.rejected + failures.count
        if report.deadLetters > 0 {
            report.deadLettersByStage = ["upload": statistics.rejected, "map": failures.count].filter { $0.value > 0 }
        }
        report.requests = client.requestCount - requestsBefore
        report.bytesSent = client.bodyBytesSent - bytesBefore
        report.seconds = clock.monotonicSeconds() - started
        report.recordsPerSecond = report.seconds > 0 ? Double(statistics.settled) / report.seconds : 0
        return report
    }

    /// Puts each item's image receipts in ``ImageFiles/field``; an item whose images did not all
    /// upload stays pending (counted as a failure).
    private func attachImages(
        _ items: [UploadItem], imagesOf: [Int64: [ImageTable.File]], receipts: [String: Asset],
        failures: inout [String]
    ) throws -> [UploadItem] {
        var result: [UploadItem] = []
        for var item in items {
            guard let files = imagesOf[item.context] else {
                result.append(item)
                continue
            }
            let assets = files.compactMap { receipts[$0.sha256] }
            guard assets.count == files.count else {
                failures.append("\(item.origin ?? item.recordName): an image was not uploaded")
                continue
            }
            item.fields[ImageFiles.field] = .list(elementType: .assetID, assets.map { .asset($0.jsonValue) })
            item.digest = FieldsDigest.make(recordType: item.recordType, fields: item.fields)
            result.append(item)
        }
        return result
    }

    // MARK: Register

    /// Publishes this device's registry record (watermark, epoch, last seen).
    func publishDevice(_ device: Device) async throws {
        var fields: [String: FieldValue] = [
            "deviceID": .string(device.id), "name": .string(device.name), "epoch": .int64(Int64(device.epoch)),
            "lastSeen": .timestamp((device.lastSeen.timeIntervalSince1970 * 1000).rounded()),
        ]
        if let watermark = device.watermark {
            fields["watermark"] = .timestamp((watermark.timeIntervalSince1970 * 1000).rounded())
        }
        let item = UploadItem(
            recordName: "\(Self.deviceRecordType)-\(device.id)", recordType: Self.deviceRecordType, fields: fields,
            isForced: true)
        let uploader = Uploader(client: client, configuration: configuration, delegate: DeviceDelegate(), clock: clock)
        var pending: UploadItem? = item
        _ = try await uploader.run {
            defer { pending = nil }
            return pending
        }
    }

    /// Runs one request with the retry policy (throttling, transport failures).
    func retrying<T>(_ context: String, _ body: () async throws(CloudKitFailure) -> T) async throws -> T {
        try await configuration.retry.perform(context, clock: clock, body)
    }
}

/// Acknowledges pushed changes in the store and settles conflicts by the seed-003 rules.
struct StoreDelegate: UploadDelegate {
    let syncState: SyncState
    let changes: [Int64: PendingChange]
    let policy: ConflictPolicy
    let clock: LarderClock

    func willSend(_ items: [UploadItem]) async throws {}

    func resolveConflict(_ item: UploadItem, ours: [String: FieldValue], server: LarderCloudKit.Record) async throws
        -> ConflictResolution
    {
        guard let change = changes[item.context] else { return .keepServer }
        switch change.kind {
        case .tombstone, .enableCloud:
            return .write(ours)  // a local delete or cloud re-enable wins over remote edits
        default:
            return policy == .fail ? .keepServer : policy.resolve(ours: ours, server: server)
        }
    }

    func didFinish(_ results: [(item: UploadItem, outcome: UploadOutcome)]) async throws {
        for (item, outcome) in results {
            guard let change = changes[item.context] else { continue }
            switch outcome {
            case .written(let tag, let modified, _), .alreadyThere(let tag, let modified):
                _ = try syncState.acknowledge(change, changeTag: tag ?? "", at: date(modified))
            case .deleted:
                _ = try syncState.acknowledge(change, changeTag: "", at: date(nil))
            case .keptServer(let server):
                guard let tag = server.recordChangeTag else { continue }
                let value: Value
                do {
                    value = try RecordMapping().value(of: server, type: RecordType(rawValue: change.type))
                } catch {
                    throw LarderError(.malformedRecord, "server record \(item.recordName): \(error.description)")
                }
                _ = try syncState.applyRemote(
                    value, type: change.type, changeTag: tag, at: date(server.modified?.timestamp))
            case .rejected:
                continue  // stays pending: the next sync tries again
            }
        }
    }

    private func date(_ milliseconds: Int64?) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds ?? clock.milliseconds) / 1000)
    }
}

/// The device record needs no bookkeeping.
struct DeviceDelegate: UploadDelegate {
    func willSend(_ items: [UploadItem]) async throws {}
    func resolveConflict(_ item: UploadItem, ours: [String: FieldValue], server: LarderCloudKit.Record) async throws
        -> ConflictResolution
    { .write(ours) }
    func didFinish(_ results: [(item: UploadItem, outcome: UploadOutcome)]) async throws {
        for (item, outcome) in results {
            if case .rejected(let reason, _) = outcome {
                throw LarderError(.network, "cannot publish the device record \(item.recordName): \(reason)")
            }
        }
    }
}
