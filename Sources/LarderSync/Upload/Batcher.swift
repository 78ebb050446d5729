/// Groups items into `records/modify` batches: at most ``maxOperations`` operations and
/// ``maxBytes`` of body each, one operation per record, and never a record that another
/// batch still has in flight (such an item waits until that batch is settled).
///
/// Synchronous, driven by the uploader's main loop; `next` pulls from the source only as far
/// as the batch needs, so memory holds the batches in flight and the items waiting, never
/// the whole input.
struct Batcher {
    let maxOperations: Int
    let maxBytes: Int
    /// Names of records in batches not yet settled.
    private(set) var inFlight = Set<String>()
    /// Items whose record was in flight when they were read, in input order.
    private var waiting: [Batched] = []
    /// How many waiting items each record has.
    private var waitingNames: [String: Int] = [:]
    private var isSourceDone = false

    struct Batched {
        var item: UploadItem
        var operation: [UInt8]
    }

    init(maxOperations: Int, maxBytes: Int) {
        self.maxOperations = max(1, maxOperations)
        self.maxBytes = max(1024, maxBytes)
    }

    /// Whether nothing is left to read or waiting.
    var isDrained: Bool { isSourceDone && waiting.isEmpty }

    /// Items waiting for a record in flight.
    var waitingCount: Int { waiting.count }

    /// The next batch, marked in flight; `nil` when nothing can be sent now (all remaining
    /// items wait for batches in flight, or everything is read).
    ///
    /// Items of one record keep their input order.
    mutating func next(from pull: () async throws -> Batched?) async throws -> [Batched]? {
        var batch: [Batched] = []
        var names = Set<String>()
        var bytes = 64
        func fits(_ entry: Batched) -> Bool {
            batch.isEmpty || (batch.count < maxOperations && bytes + entry.operation.count + 1 <= maxBytes)
        }
        var blocked = Set<String>()
        var kept: [Batched] = []
        for entry in waiting {
            let name = entry.item.recordName
            if batch.count < maxOperations, !inFlight.contains(name), !names.contains(name), !blocked.contains(name),
                fits(entry)
            {
                batch.append(entry)
                names.insert(name)
                bytes += entry.operation.count + 1
                waitingNames[name, default: 1] -= 1
                if waitingNames[name] == 0 { waitingNames[name] = nil }
            } else {
                blocked.insert(name)
                kept.append(entry)
            }
        }
        waiting = kept
        while !isSourceDone, batch.count < maxOperations {
            guard let entry = try await pull() else {
                isSourceDone = true
                break
            }
            let name = entry.item.recordName
            if inFlight.contains(name) || names.contains(name) || waitingNames[name] != nil || !fits(entry) {
                waiting.append(entry)
                waitingNames[name, default: 0] += 1
                if !fits(entry) { break }
                continue
            }
            batch.append(entry)
            names.insert(name)
            bytes += entry.operation.count + 1
        }
        guard !batch.isEmpty else { return nil }
        inFlight.formUnion(names)
        return batch
    }

    /// Releases the records of a settled batch.
    ///
    /// Waiting items of those records are now based on the server's change tag the batch ended with (`reencode` makes
    /// their operation).
    mutating func settled(_ records: [Uploader.Settled], reencode: (UploadItem, String) -> [UInt8]) {
        var tags: [String: String] = [:]
        for record in records {
            inFlight.remove(record.recordName)
            if let tag = record.changeTag, waitingNames[record.recordName] != nil { tags[record.recordName] = tag }
        }
        guard !tags.isEmpty else { return }
        for index in waiting.indices {
            let item = waiting[index].item
            guard let tag = tags[item.recordName], item.action == .save, !item.isForced else { continue }
            waiting[index].item.baseTag = tag
            waiting[index].operation = reencode(item, tag)
            tags[item.recordName] = nil  // only the first waiting item follows this batch
        }
    }
}
