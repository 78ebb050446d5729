import Foundation
import LarderCloudKit
public import LarderCore

/// How the uploader batches, paces and retries.
public struct UploadConfiguration: Sendable {
    /// Operations per `records/modify` request (CloudKit: 200).
    public var maxOperationsPerRequest = 200
    /// Bytes of one request body (native CloudKit's guidance: 2 MB).
    public var maxRequestBytes = 2 << 20
    /// Bytes of one record's fields (CloudKit: 1 MB); bigger records are dead letters at once.
    public var maxRecordBytes = 1 << 20
    /// Requests in flight at most; halved on throttling, grown back by one after a run of successes.
    public var concurrency = 4
    /// Back-off and attempts.
    public var retry = RetryPolicy()
    /// Conflict rounds per record before it is given up (the server's version kept changing).
    public var maxConflictRounds = 5

    /// The defaults.
    public init() {}
}

/// Counters of one upload, updated as batches settle.
public struct UploadStatistics: Sendable, Hashable, Codable {
    /// Items handed to the uploader.
    public var items = 0
    /// Written (created, replaced or deleted).
    public var written = 0
    /// The server already held them.
    public var alreadyThere = 0
    /// Conflicts met (settled by keeping the server's version, writing ours, merging, or rejected).
    public var conflicts = 0
    /// Conflicts settled, by how (`kept-server`, `client-wins`, `merge`, `failed`).
    public var conflictResolutions: [String: Int] = [:]
    /// Items given up.
    public var rejected = 0
    /// Requests repeated after a retryable failure (whole requests and items).
    public var retries = 0
    /// Throttling answers (THROTTLED, TRY_AGAIN_LATER, ZONE_BUSY).
    public var throttles = 0
    /// Batches split in two after a limit error.
    public var splits = 0
    /// Batches sent (not counting retries).
    public var batches = 0
    /// Seconds spent waiting before retries.
    public var secondsWaiting = 0.0
    /// While a retry waits: the seconds left and why (`THROTTLED`, `no answer`); `nil` otherwise.
    public var retryWait: RetryWait?

    /// Creates zeroed counters.
    public init() {}

    /// Items settled so far.
    public var settled: Int { written + alreadyThere + rejected + (conflictResolutions["kept-server"] ?? 0) }
}

/// A failure that stops the whole upload (bad credentials, quota, the server unreachable after
/// every retry).
///
/// What was acknowledged stays acknowledged; a re-run resumes.
public struct UploadStopped: Error, Sendable, CustomStringConvertible {
    /// The failure.
    public var failure: CloudKitFailure
    /// What was being done.
    public var context: String

    public var description: String { "\(context): \(failure)" }

    /// The same as a ``LarderError``: `network-error` (exit 3) for transport and server failures,
    /// `usage-error` (exit 2) for rejected credentials.
    public var larderError: LarderError {
        let code = failure.code
        if code == .authenticationFailed || code == .authenticationRequired {
            return LarderError(
                .usage, "\(context): \(failure) (check --api-token / --web-auth-token or --key-id / --key)")
        }
        return LarderError(.network, description + "; what was acknowledged is kept, run again to resume")
    }
}

/// Uploads items to one CloudKit zone: batches of at most 200 operations, several in flight,
/// retries with back-off, splits on limit errors, conflicts settled by the delegate.
///
/// - THROTTLED, TRY_AGAIN_LATER, ZONE_BUSY (and INTERNAL_ERROR, no answer at all) wait at
///   least the server's `retryAfter`, with exponential back-off and jitter
///   (``RetryPolicy``); a throttled request also pauses every worker and halves the requests
///   in flight (grown back one at a time after a run of successes).
/// - A limit error (LIMIT_EXCEEDED, a body or count too large) splits the batch in two; a
///   record that is too big alone is rejected.
/// - In a partial failure only the failed items are sent again.
/// - A record never has two writes in flight: a later item of a record waits until the batch
///   holding the earlier one is settled.
/// - EXISTS / CONFLICT: the server's record is fetched; equal content means an earlier write
///   arrived (``UploadOutcome/alreadyThere(changeTag:modified:)``), otherwise the delegate
///   decides, and a write goes out with the server's change tag.
///
/// ```swift
/// let uploader = Uploader(client: client, delegate: journalDelegate)
/// let statistics = try await uploader.run { try source.next() }
/// ```
public final class Uploader: Sendable {
    /// The client (target, transport, credentials).
    public let client: CloudKitClient
    /// Batching and retries.
    public let configuration: UploadConfiguration
    let delegate: any UploadDelegate
    let clock: LarderClock
    let monitor: UploadMonitor

    /// Creates an uploader.
    /// - Parameters:
    ///   - client: The CloudKit client of the target container and database.
    ///   - configuration: Batch sizes, concurrency, retries and the conflict policy.
    ///   - delegate: Hears of each settled, conflicting or failed record.
    ///   - clock: Times the run and the back-off sleeps.
    ///   - progress: called after each settled batch with the counters so far.
    public init(
        client: CloudKitClient, configuration: UploadConfiguration = UploadConfiguration(),
        delegate: any UploadDelegate,
        clock: LarderClock = .system, progress: (@Sendable (UploadStatistics) -> Void)? = nil
    ) {
        self.client = client
        self.configuration = configuration
        self.delegate = delegate
        self.clock = clock
        monitor = UploadMonitor(concurrency: configuration.concurrency, clock: clock, progress: progress)
    }

    /// The counters so far.
    public var statistics: UploadStatistics {
        get async { await monitor.statistics }
    }

    /// Uploads every item `next` returns (until it returns nil).
    ///
    /// `next` runs on the caller's task, one item at a time, as batches need them; batches
    /// already sent go on while it waits.
    /// - Throws: ``UploadStopped`` when the upload cannot go on; errors thrown by `next` or the
    ///   delegate. Items settled before are reported to the delegate.
    public func run(next: () async throws -> UploadItem?) async throws -> UploadStatistics {
        var batcher = Batcher(
            maxOperations: configuration.maxOperationsPerRequest, maxBytes: configuration.maxRequestBytes)
        let maxRecordBytes = configuration.maxRecordBytes
        var oversized: [(item: UploadItem, outcome: UploadOutcome)] = []
        func pull() async throws -> Batcher.Batched? {
            while let item = try await next() {
                let work = Work(item: item)
                if work.operation.count > maxRecordBytes + 512 {
                    oversized.append(
                        (
                            item,
                            .rejected(
                                reason:
                                    "the record is \(work.operation.count) bytes; CloudKit takes at most \(maxRecordBytes) per record",
                                code: "LIMIT_EXCEEDED")
                        ))
                    continue
                }
                return Batcher.Batched(item: item, operation: work.operation)
            }
            return nil
        }
        try await withThrowingTaskGroup(of: [Settled].self) { group in
            var running = 0
            while true {
                var limit = await monitor.limit
                while running < limit, let batch = try await batcher.next(from: pull) {
                    await monitor.count(items: batch.count)
                    if !oversized.isEmpty {
                        let rejected = oversized
                        oversized.removeAll()
                        await monitor.record(rejected)
                        try await delegate.didFinish(rejected)
                    }
                    try await delegate.willSend(batch.map(\.item))
                    let works = batch.map { Work(item: $0.item, operation: $0.operation) }
                    group.addTask { try await self.send(works) }
                    running += 1
                    limit = await monitor.limit
                }
                if !oversized.isEmpty {
                    let rejected = oversized
                    oversized.removeAll()
                    await monitor.count(items: rejected.count)
                    await monitor.record(rejected)
                    try await delegate.didFinish(rejected)
                }
                guard running > 0, let settled = try await group.next() else { break }
                running -= 1
                batcher.settled(settled) { item, tag in Work(item: item, baseTag: tag).operation }
                await monitor.report()
            }
        }
        return await monitor.statistics
    }

    // MARK: One batch

    /// One item on its way: what is sent now (which may differ from the item after a conflict).
    struct Work: Sendable {
        var item: UploadItem
        var operationType: OperationType
        var changeTag: String?
        /// The fields a settled conflict writes instead of the item's.
        var rewrittenFields: [String: FieldValue]?
        var operation: [UInt8]
        var attempts = 0
        var conflictRounds = 0
        var conflict: ConflictPolicy?

        init(item: UploadItem, operation: [UInt8]? = nil, baseTag: String? = nil) {
            var item = item
            if let baseTag, item.action == .save { item.baseTag = baseTag }
            self.item = item
            switch item.action {
            case .delete:
                operationType = item.baseTag == nil ? .forceDelete : .delete
                changeTag = item.baseTag
            case .save:
                if item.isForced {
                    operationType = .forceReplace
                } else {
                    operationType = item.baseTag == nil ? .create : .replace
                    changeTag = item.baseTag
                }
            }
            self.operation = operation ?? Work.encode(operationType, item: item, tag: changeTag, fields: nil)
        }

        /// The fields this work writes: the item's, or those a conflict settled on.
        var fields: [String: FieldValue] { rewrittenFields ?? item.fields }

        /// The operation's bytes; `fields` nil writes the item's (spliced when the item holds them encoded).
        static func encode(_ type: OperationType, item: UploadItem, tag: String?, fields: [String: FieldValue]?)
            -> [UInt8]
        {
            if type.isDelete {
                return ModifyBody.operation(
                    type, recordName: item.recordName, recordType: nil, changeTag: tag, fields: nil)
            }
            if fields == nil, let encoded = item.encodedFields {
                return ModifyBody.operation(
                    type, recordName: item.recordName, recordType: item.recordType, changeTag: tag,
                    encodedFields: encoded)
            }
            return ModifyBody.operation(
                type, recordName: item.recordName, recordType: item.recordType, changeTag: tag,
                fields: fields ?? item.fields)
        }

        mutating func rewrite(_ type: OperationType, tag: String?, fields newFields: [String: FieldValue]? = nil) {
            operationType = type
            changeTag = tag
            if let newFields { rewrittenFields = newFields }
            operation = Work.encode(type, item: item, tag: tag, fields: rewrittenFields)
        }

        var writeDigest: String { FieldsDigest.make(recordType: item.recordType, fields: fields) }
    }

    /// A record of a settled batch, and the server's change tag for it when one is known.
    struct Settled: Sendable {
        var recordName: String
        var changeTag: String?
    }

    /// Sends a batch until every item is settled.
    func send(_ initial: [Work]) async throws -> [Settled] {
        await monitor.countBatch()
        var tags: [String: String] = [:]
        try await settle(initial, tags: &tags)
        return initial.map { Settled(recordName: $0.item.recordName, changeTag: tags[$0.item.recordName]) }
    }

    /// Sends `initial` as one records/modify request, and what comes back again, until every work
    /// is settled: whole-request failures go to ``recover(from:works:attempts:createdZone:tags:)``,
    /// per-record results to ``triage(_:of:createdZone:)``.
    private func settle(_ initial: [Work], tags: inout [String: String]) async throws {
        var works = initial
        var requestAttempts = 0
        var createdZone = false
        while !works.isEmpty {
            try await monitor.waitForGate()
            let body = ModifyBody.request(operations: works.map(\.operation), zoneID: client.target.zoneID)
            let results: [RecordResult]
            do throws(CloudKitFailure) {
                results = try await client.modify(body: body)
                guard results.count == works.count else {
                    throw CloudKitFailure.transport(
                        "records/modify answered \(results.count) results for \(works.count) operations")
                }
            } catch {
                requestAttempts += 1
                switch try await recover(
                    from: error, works: works, attempts: requestAttempts, createdZone: &createdZone, tags: &tags)
                {
                case .send(let next): works = next
                case .done: return
                }
                continue
            }
            let triage = try await triage(results, of: works, createdZone: &createdZone)
            try await finish(triage.settled, tags: &tags)
            var again = triage.again
            if !triage.conflicted.isEmpty {
                again.append(contentsOf: try await resolveConflicts(triage.conflicted, tags: &tags))
            }
            if let retryAfter = triage.retryAfter, !again.isEmpty {
                let attempt = again.map(\.attempts).max() ?? 1
                try await backOff(after: retryAfter, attempt: attempt, items: again.count)
            }
            works = again
        }
    }

    /// What ``settle(_:tags:)`` does after a whole request failed: send these works (again), or stop.
    private enum Recovery {
        case send([Work])
        case done
    }

    /// Handles a failure of the whole records/modify request by its disposition: retry after a
    /// back-off (up to the attempt limit), split the batch in halves, create the zone once,
    /// resolve conflicts, or settle every work as rejected.
    ///
    /// - Parameters:
    ///   - error: the request's failure.
    ///   - works: the batch the request carried.
    ///   - attempts: how many times the request has failed so far, this one included.
    ///   - createdZone: whether this batch already created its zone (set when it does).
    ///   - tags: the change tags learned so far, by record name.
    /// - Returns: the works to send next, or ``Recovery/done`` when the batch is settled.
    /// - Throws: ``UploadStopped`` when the upload cannot go on; errors of the journal.
    private func recover(
        from error: CloudKitFailure, works: [Work], attempts: Int, createdZone: inout Bool,
        tags: inout [String: String]
    ) async throws -> Recovery {
        switch RetryPolicy.disposition(of: error, isWholeRequest: true) {
        case .retry:
            guard attempts < configuration.retry.maxAttempts else {
                if error.isTransport { throw UploadStopped(failure: error, context: "records/modify") }
                let reason = "gave up after \(attempts) attempts: \(error)"
                try await finish(works.map { ($0, UploadOutcome.rejected(reason: reason, code: error.code?.rawValue)) })
                return .done
            }
            try await backOff(after: error, attempt: attempts, items: 1)
            return .send(works)
        case .split:
            guard works.count > 1 else {
                try await finish([(works[0], .rejected(reason: error.reason, code: error.code?.rawValue))])
                return .done
            }
            await monitor.countSplit()
            let half = works.count / 2
            try await settle(Array(works[..<half]), tags: &tags)
            try await settle(Array(works[half...]), tags: &tags)
            return .done
        case .createZone:
            guard !createdZone else {
                throw UploadStopped(failure: error, context: "records/modify after creating the zone")
            }
            createdZone = true
            _ = try await ensureZone()
            return .send(works)
        case .conflict:
            return .send(try await resolveConflicts(works, tags: &tags))
        case .recreate, .reject:
            try await finish(
                works.map { ($0, UploadOutcome.rejected(reason: error.reason, code: error.code?.rawValue)) })
            return .done
        case .stop:
            throw UploadStopped(failure: error, context: "records/modify")
        }
    }

    /// A batch's per-record results sorted by what happens next.
    private struct Triage {
        /// Works with their final outcome.
        var settled: [(Work, UploadOutcome)] = []
        /// Works to send again (retryable, recreated, or after creating the zone).
        var again: [Work] = []
        /// Works whose change tag the server refused.
        var conflicted: [Work] = []
        /// The retryable failure with the longest `retryAfter`, to back off by.
        var retryAfter: CloudKitFailure?
    }

    /// Sorts the per-record results of a records/modify answer by their disposition.
    ///
    /// - Parameters:
    ///   - results: the answer's results, one per work, in order.
    ///   - works: the works the request carried.
    ///   - createdZone: whether this batch already created its zone (set when it does).
    /// - Returns: what is settled, what goes again, what conflicted, and the failure to back off by.
    /// - Throws: ``UploadStopped`` when a record's failure stops the upload (after settling
    ///   what was settled before it); errors of the journal.
    private func triage(_ results: [RecordResult], of works: [Work], createdZone: inout Bool) async throws -> Triage {
        var triage = Triage()
        for (index, result) in results.enumerated() {
            var work = works[index]
            let failure: CloudKitFailure
            switch result {
            case .success(let record):
                let outcome: UploadOutcome =
                    work.operationType.isDelete
                    ? .deleted
                    : .written(
                        changeTag: record.recordChangeTag, modified: record.modified?.timestamp, conflict: work.conflict
                    )
                triage.settled.append((work, outcome))
                continue
            case .failure(let recordError):
                failure = CloudKitFailure(recordError)
            }
            switch RetryPolicy.disposition(of: failure, isWholeRequest: false) {
            case .retry:
                work.attempts += 1
                guard work.attempts < configuration.retry.maxAttempts else {
                    let reason = "gave up after \(work.attempts) attempts: \(failure)"
                    triage.settled.append((work, .rejected(reason: reason, code: failure.code?.rawValue)))
                    continue
                }
                triage.again.append(work)
                if triage.retryAfter == nil || (triage.retryAfter?.retryAfter ?? -1) < (failure.retryAfter ?? 0) {
                    triage.retryAfter = failure
                }
            case .conflict:
                triage.conflicted.append(work)
            case .recreate:
                if work.operationType.isDelete {
                    triage.settled.append((work, .deleted))
                } else {
                    work.rewrite(.create, tag: nil)
                    triage.again.append(work)
                }
            case .createZone:
                if !createdZone {
                    createdZone = true
                    _ = try await ensureZone()
                }
                triage.again.append(work)
            case .split, .reject:
                triage.settled.append((work, .rejected(reason: failure.reason, code: failure.code?.rawValue)))
            case .stop:
                try await finish(triage.settled)
                throw UploadStopped(failure: failure, context: "records/modify \(work.item.recordName)")
            }
        }
        return triage
    }

    /// Waits before a retry; throttling pauses all workers.
    private func backOff(after failure: CloudKitFailure, attempt: Int, items: Int) async throws {
        let delay = configuration.retry.delay(attempt: attempt, retryAfter: failure.retryAfter)
        let isThrottle = failure.code == .throttled || failure.code == .tryAgainLater || failure.code == .zoneBusy
        let reason = failure.code?.rawValue ?? "no answer"
        await monitor.retrying(count: items, delay: delay, isThrottle: isThrottle, reason: reason)
        try await monitor.waitForGate()
        if !isThrottle { try await monitor.wait(delay, reason: reason) }
    }

    private func ensureZone() async throws -> Bool {
        do {
            return try await client.ensureZone()
        } catch {
            throw UploadStopped(failure: error, context: "creating zone \(client.target.zoneID.zoneName)")
        }
    }

    private func finish(_ settled: [(Work, UploadOutcome)]) async throws {
        var tags: [String: String] = [:]
        try await finish(settled, tags: &tags)
    }

    private func finish(_ settled: [(Work, UploadOutcome)], tags: inout [String: String]) async throws {
        guard !settled.isEmpty else { return }
        for (work, outcome) in settled {
            switch outcome {
            case .written(let tag?, _, _), .alreadyThere(let tag?, _): tags[work.item.recordName] = tag
            case .keptServer(let record): if let tag = record.recordChangeTag { tags[work.item.recordName] = tag }
            default: continue
            }
        }
        let results = settled.map { (item: $0.0.item, outcome: $0.1) }
        await monitor.record(results)
        try await delegate.didFinish(results)
    }

    /// Fetches the server's versions of conflicted items and settles each: equal content is
    /// acknowledged, a missing record is created, otherwise the delegate decides.
    private func resolveConflicts(_ conflicted: [Work], tags: inout [String: String]) async throws -> [Work] {
        let lookup = try await serverVersions(of: conflicted)
        var settled: [(Work, UploadOutcome)] = []
        var again: [Work] = []
        for (index, work) in conflicted.enumerated() {
            switch try await settleConflict(work, server: index < lookup.count ? lookup[index].record : nil) {
            case .settled(let work, let outcome): settled.append((work, outcome))
            case .again(let work): again.append(work)
            }
        }
        try await finish(settled, tags: &tags)
        return again
    }

    /// The server's versions of `works`' records (records/lookup, retried like any request).
    /// - Throws: ``UploadStopped`` when the lookup cannot be made.
    private func serverVersions(of works: [Work]) async throws -> [RecordResult] {
        var attempts = 0
        while true {
            try await monitor.waitForGate()
            do throws(CloudKitFailure) {
                return try await client.lookup(works.map(\.item.recordName))
            } catch {
                attempts += 1
                guard RetryPolicy.disposition(of: error, isWholeRequest: true) == .retry,
                    attempts < configuration.retry.maxAttempts
                else {
                    throw UploadStopped(failure: error, context: "records/lookup")
                }
                try await backOff(after: error, attempt: attempts, items: 1)
            }
        }
    }

    /// What becomes of one conflicted work.
    private enum ConflictStep {
        case settled(Work, UploadOutcome)
        case again(Work)
    }

    /// Settles one conflicted work against the server's version: gone meanwhile (created again, or
    /// deleted), equal content (acknowledged), too many rounds or a stale delete (rejected), else
    /// the delegate's choice (keep the server's, write merged or our fields, or reject).
    private func settleConflict(_ conflicted: Work, server: Record?) async throws -> ConflictStep {
        var work = conflicted
        guard let server, server.deleted != true, server.recordChangeTag != nil else {
            if work.operationType.isDelete { return .settled(work, .deleted) }
            work.rewrite(.create, tag: nil)  // gone meanwhile: create it
            return .again(work)
        }
        let serverDigest = FieldsDigest.make(
            recordType: server.recordType ?? work.item.recordType, wireFields: server.fields ?? [:])
        let alreadyThere = UploadOutcome.alreadyThere(
            changeTag: server.recordChangeTag, modified: server.modified?.timestamp)
        if !work.operationType.isDelete, serverDigest == work.item.digest || serverDigest == work.writeDigest {
            return .settled(work, alreadyThere)
        }
        work.conflictRounds += 1
        await monitor.countConflict(first: work.conflictRounds == 1)
        guard work.conflictRounds <= configuration.maxConflictRounds else {
            let reason = "conflict: the server's version kept changing (\(work.conflictRounds - 1) rounds)"
            return .settled(work, .rejected(reason: reason, code: "CONFLICT"))
        }
        if work.operationType.isDelete {
            // A delete based on an older version of the record is refused (a purge must not
            // remove a record someone changed since).
            let reason = "conflict: the record changed since (change tag \(server.recordChangeTag ?? "?"))"
            return .settled(work, .rejected(reason: reason, code: "CONFLICT"))
        }
        switch try await delegate.resolveConflict(work.item, ours: work.fields, server: server) {
        case .keepServer:
            await monitor.resolved("kept-server")
            return .settled(work, .keptServer(server))
        case .write(let fields):
            if FieldsDigest.make(recordType: work.item.recordType, fields: fields) == serverDigest {
                await monitor.resolved("kept-server")
                return .settled(work, alreadyThere)
            }
            work.conflict = fields == work.item.fields ? .clientWins : .merge
            work.rewrite(.replace, tag: server.recordChangeTag, fields: fields)
            return .again(work)
        case .reject(let reason):
            await monitor.resolved("failed")
            return .settled(work, .rejected(reason: reason, code: "CONFLICT"))
        }
    }
}

/// Shared state of one upload: counters, the throttle gate, the in-flight limit, progress.
actor UploadMonitor {
    private(set) var statistics = UploadStatistics()
    private(set) var limit: Int
    private let maxLimit: Int
    private var pausedUntil = 0.0
    /// Why the gate is closed (the throttling code), for the countdown.
    private var gateReason = ""
    private var successStreak = 0
    private let clock: LarderClock
    private let progress: (@Sendable (UploadStatistics) -> Void)?

    init(concurrency: Int, clock: LarderClock, progress: (@Sendable (UploadStatistics) -> Void)?) {
        maxLimit = max(1, concurrency)
        limit = maxLimit
        self.clock = clock
        self.progress = progress
    }

    func count(items: Int) { statistics.items += items }
    func countBatch() { statistics.batches += 1 }
    func countSplit() { statistics.splits += 1 }
    func countConflict(first: Bool) { if first { statistics.conflicts += 1 } }
    func resolved(_ how: String) { statistics.conflictResolutions[how, default: 0] += 1 }
    /// Sleeps `seconds` before a retry; with a progress callback, in steps of a second, reporting
    /// the seconds left each time (the countdown `larder upload` shows).
    func wait(_ seconds: Double, reason: String) async throws {
        statistics.secondsWaiting += seconds
        try await countDown(seconds, reason: reason)
    }

    private func countDown(_ seconds: Double, reason: String) async throws {
        guard progress != nil else {
            try await clock.sleep(seconds)
            return
        }
        var left = seconds
        while left > 0 {
            statistics.retryWait = RetryWait(seconds: left, reason: reason)
            report()
            let step = min(1, left)
            try await clock.sleep(step)
            left -= step
        }
        statistics.retryWait = nil
    }

    func record(_ results: [(item: UploadItem, outcome: UploadOutcome)]) {
        for (_, outcome) in results {
            switch outcome {
            case .written(_, _, let conflict):
                statistics.written += 1
                if let conflict { statistics.conflictResolutions[conflict.rawValue, default: 0] += 1 }
                successStreak += 1
            case .deleted: statistics.written += 1
            case .alreadyThere: statistics.alreadyThere += 1
            case .keptServer: break
            case .rejected: statistics.rejected += 1
            }
        }
        if successStreak >= 10 * limit, limit < maxLimit {
            limit += 1
            successStreak = 0
        }
    }

    /// A retry is coming: count it; a throttle also closes the gate for everyone.
    func retrying(count: Int, delay: Double, isThrottle: Bool, reason: String = "") {
        statistics.retries += count
        guard isThrottle else { return }
        gateReason = reason
        statistics.throttles += 1
        successStreak = 0
        limit = max(1, limit / 2)
        pausedUntil = max(pausedUntil, clock.monotonicSeconds() + delay)
    }

    /// Waits while the gate is closed.
    func waitForGate() async throws {
        while true {
            let remaining = pausedUntil - clock.monotonicSeconds()
            guard remaining > 0 else { return }
            statistics.secondsWaiting += remaining
            try await countDown(remaining, reason: gateReason)
        }
    }

    func report() { progress?(statistics) }
}
