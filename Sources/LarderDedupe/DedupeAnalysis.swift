import Foundation
import LarderCore
public import LarderFormats

/// The clusters a ``DedupePass`` found, ready to be written (``write(to:log:rejects:)``) or
/// explained (``explain(_:)``).
///
/// Holds the compact features of every record and the scratch files the records wait in;
/// the scratch files disappear when the analysis is released.
public final class DedupeAnalysis {
    let context: ClusterContext
    let inputs: [(name: String, role: DedupeInput.Role)]
    let blocker: CandidateBlocker
    let keepGoing: Bool
    /// The envelope header of each input, when it had one.
    public let headers: [EnvelopeHeader?]
    /// Counts so far (complete after ``write(to:log:rejects:)``).
    public internal(set) var summary: DedupeSummary
    /// How long each phase took: read, match, cluster (and write, once written).
    public internal(set) var timings: [PhaseTiming]
    private var scratch: [UInt8] = []

    init(
        inputs: [(String, DedupeInput.Role)], spills: [SpillFile], headers: [EnvelopeHeader?],
        table: FeatureTable, clustering: Clustering, scorer: PairScorer, blocker: CandidateBlocker,
        summary: DedupeSummary,
        keepGoing: Bool, timings: [PhaseTiming]
    ) {
        self.inputs = inputs.map { (name: $0.0, role: $0.1) }
        context = ClusterContext(
            inputNames: inputs.map(\.0), roles: inputs.map(\.1), spills: spills, table: table, clustering: clustering,
            scorer: scorer)
        self.headers = headers
        self.blocker = blocker
        var summary = summary
        summary.clusters = clustering.clusters.count
        summary.mergedRecords = clustering.clusters.reduce(0) { $0 + $1.count }
        for links in clustering.links {
            for link in links { summary.matchesByRule[link.rule, default: 0] += 1 }
        }
        self.summary = summary
        self.keepGoing = keepGoing
        self.timings = timings
    }

    var table: FeatureTable { context.table }
    var clustering: Clustering { context.clustering }
    var scorer: PairScorer { context.scorer }

    /// The number of records read and accepted.
    public var recordCount: Int { table.count }

    /// The clusters of two or more records, each as `(input index, record index)` pairs,
    /// survivor first; for evaluating against labelled data.
    public var clusters: [[(input: Int, index: Int)]] {
        clustering.clusters.map { members in members.map { (Int(table.input[Int($0)]), Int(table.inputIndex[Int($0)])) }
        }
    }

    /// Bytes held by the matching features.
    public var featureBytes: Int { table.byteCount }

    func ref(_ i: Int) -> String { context.ref(i) }
    func value(_ i: Int) throws -> Value { try context.value(i, scratch: &scratch) }
    func cluster(of i: Int) -> Int? { context.cluster(of: i) }
    func merge(cluster c: Int) throws -> (MergeResult, [MergeMember]) {
        try context.merge(cluster: c, scratch: &scratch)
    }

    /// Output records prepared per batch, and batches in flight at once.
    static let batchSize = 1024
    static let batchesInFlight = 3

    /// Writes one record per cluster to `writer` (and finishes it), and the merge log.
    ///
    /// Output is prepared in batches of 1,024 records by up to three tasks at once (records
    /// fetched back from the scratch files, clusters merged and serialized) and written in
    /// order by the caller's task, so memory holds a few batches. The output order is by id,
    /// then content key: the same records in any input order give byte-identical output.
    /// - Parameters:
    ///   - writer: the output; finished (closed) on success.
    ///   - log: the merge log; finished with the summary on success.
    ///   - rejects: where records the output format cannot hold go (with `keepGoing`).
    /// - Returns: the complete summary.
    /// - Throws: ``LarderError`` from the writer (`io-error`; `unrepresentable` without
    ///   keep-going) or when a scratch file is damaged.
    @discardableResult
    public func write(to writer: any RecordWriter, log: MergeLogWriter? = nil, rejects: (any DiagnosticSink)? = nil)
        async throws -> DedupeSummary
    {
        var clock = PhaseClock()
        var summary = self.summary
        let context = self.context
        let order = context.outputOrder()
        let json = writer as? JSONWriter
        let spillIsJSON = context.spills.allSatisfy { $0.encoding == .json(pretty: json?.isPretty ?? false) }
        let encodeAs: Bool? = json != nil && spillIsJSON ? json?.isPretty : nil
        let withLog = log != nil
        // The merge-log number of each batch's first cluster.
        var firstNumbers: [Int] = []
        var clustersSoFar = 1
        for start in stride(from: 0, to: order.count, by: Self.batchSize) {
            firstNumbers.append(clustersSoFar)
            for position in start..<min(order.count, start + Self.batchSize)
            where context.cluster(of: Int(order[position])) != nil {
                clustersSoFar += 1
            }
        }
        let batchCount = firstNumbers.count
        try await withThrowingTaskGroup(of: (Int, OutputBatch).self) { group in
            var submitted = 0
            // The byte buffers of written batches, filled again by later ones: a batch's bytes
            // (megabytes, so mmapped) would otherwise be fresh pages, faulted in and zeroed every time.
            var spare: [[UInt8]] = []
            func submit() {
                let index = submitted
                let range = (index * Self.batchSize)..<min(order.count, (index + 1) * Self.batchSize)
                let first = firstNumbers[index]
                // Handed over in a box the task empties: an array the task's closure captured
                // directly would stay referenced by it, and emptying a shared array "keeping
                // capacity" allocates a new one (fresh pages again).
                let bytes = BufferHandoff(spare.popLast() ?? [])
                group.addTask {
                    (
                        index,
                        try OutputBatch.prepare(
                            context, order: order, range: range, encodeAs: encodeAs, withLog: withLog,
                            firstNumber: first, reusing: bytes.take())
                    )
                }
                submitted += 1
            }
            while submitted < min(batchCount, Self.batchesInFlight) { submit() }
            var ready: [Int: OutputBatch] = [:]
            var next = 0
            while next < batchCount, let (index, batch) = try await group.next() {
                ready[index] = batch
                while var batch = ready.removeValue(forKey: next) {
                    try self.emit(batch, to: writer, json: json, log: log, rejects: rejects, summary: &summary)
                    batch.records = []
                    spare.append(batch.takeBytes())
                    next += 1
                    if submitted < batchCount { submit() }
                }
            }
        }
        try writer.finish()
        try log?.finish(summary: summary)
        self.summary = summary
        timings.append(clock.lap("write"))
        return summary
    }

    private func emit(
        _ batch: OutputBatch, to writer: any RecordWriter, json: JSONWriter?, log: MergeLogWriter?,
        rejects: (any DiagnosticSink)?,
        summary: inout DedupeSummary
    ) throws {
        for entry in batch.logEntries { try log?.append(encoded: entry) }
        for (field, n) in batch.fieldsFromOthers { summary.fieldsFromOthers[field, default: 0] += n }
        for (field, n) in batch.alternatives { summary.alternatives[field, default: 0] += n }
        try batch.bytes.withUnsafeBytes { bytes in
            for (position, record) in batch.records.enumerated() {
                switch record {
                case .encoded(let range):
                    guard let json else { continue }
                    try json.write(encoded: UnsafeRawBufferPointer(rebasing: bytes[range]))
                    summary.written += 1
                case .value(let value):
                    do {
                        try writer.write(value)
                        summary.written += 1
                    } catch let error as LarderError where error.code == .unrepresentable {
                        let i = Int(batch.sources[position])
                        guard keepGoing, let rejects else { throw error }
                        var location = SourceLocation(
                            file: inputs[Int(table.input[i])].name, recordIndex: Int(table.inputIndex[i]))
                        location.fieldPath = error.location?.fieldPath
                        try rejects.reject(value, error.locatedAt(location))
                        summary.inputs[Int(table.input[i])].rejected += 1
                    }
                }
            }
        }
    }
}
