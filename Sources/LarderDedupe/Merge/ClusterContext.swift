import LarderCore
import LarderFormats

/// Everything needed to fetch, merge and describe clusters, shared read-only by the tasks
/// that prepare output batches in parallel.
struct ClusterContext: Sendable {
    let inputNames: [String]
    let roles: [DedupeInput.Role]
    let spills: [SpillFile]
    let table: FeatureTable
    let clustering: Clustering
    let scorer: PairScorer
    let clusterOfRoot: [Int32: Int]

    init(
        inputNames: [String], roles: [DedupeInput.Role], spills: [SpillFile], table: FeatureTable,
        clustering: Clustering, scorer: PairScorer
    ) {
        self.inputNames = inputNames
        self.roles = roles
        self.spills = spills
        self.table = table
        self.clustering = clustering
        self.scorer = scorer
        var map: [Int32: Int] = [:]
        for (index, members) in clustering.clusters.enumerated() { map[clustering.root[Int(members[0])]] = index }
        clusterOfRoot = map
    }

    /// How the merge log names record `i`: `created[4]` (or `input2[4]` when two inputs share a role).
    func ref(_ i: Int) -> String {
        let input = Int(table.input[i])
        let role = roles[input]
        let unique = roles.filter { $0 == role }.count == 1
        return "\(unique ? role.rawValue : "input\(input + 1)")[\(table.inputIndex[i])]"
    }

    /// Reads record `i` back from its scratch file.
    func value(_ i: Int, scratch: inout [UInt8]) throws -> Value {
        try spills[Int(table.input[i])].read(
            offset: table.spillOffset[i], length: table.spillLength[i], scratch: &scratch)
    }

    /// Record `i` as a merge member.
    func member(_ i: Int, scratch: inout [UInt8]) throws -> MergeMember {
        let role = roles[Int(table.input[i])]
        return MergeMember(
            value: try value(i, scratch: &scratch), ref: ref(i), updatedAt: table.updatedAt[i],
            inSavedSet: role == .saved,
            inCreatedSet: role == .created)
    }

    /// The cluster index of record `i`, when it merged with others.
    func cluster(of i: Int) -> Int? { clusterOfRoot[clustering.root[i]] }

    /// One record per cluster in output order: sorted by the survivor's id, then content key.
    func outputOrder() -> [Int32] {
        // Sorted by the first 8 id bytes as an integer, in place on two columns (12 bytes a record);
        // only runs of equal prefixes compare the whole id. Survivors' ids differ (the same id is
        // one cluster), so the order is total.
        let survivorCount = table.count - clustering.clusters.reduce(0) { $0 + $1.count - 1 }
        var records: [Int32] = []
        var prefixes: [UInt64] = []
        records.reserveCapacity(survivorCount)
        prefixes.reserveCapacity(survivorCount)
        for i in 0..<table.count {
            if let c = cluster(of: i), clustering.clusters[c][0] != Int32(i) { continue }
            records.append(Int32(i))
            prefixes.append(table.idPrefix(i))
        }
        prefixes.withUnsafeMutableBufferPointer { p in
            records.withUnsafeMutableBufferPointer { r in
                // The sort moves the record numbers without reading them: any 32-bit payload will do.
                r.withMemoryRebound(to: UInt32.self) { KeyedSort.sort(keys: p, records: $0) }
            }
        }
        var start = 0
        while start < records.count {
            var end = start + 1
            while end < records.count && prefixes[end] == prefixes[start] { end += 1 }
            if end - start > 1 { records[start..<end].sort { table.idPrecedes(Int($0), Int($1)) } }
            start = end
        }
        return records
    }

    /// Merges cluster `c`.
    func merge(cluster c: Int, scratch: inout [UInt8]) throws -> (MergeResult, [MergeMember]) {
        var members: [MergeMember] = []
        for i in clustering.clusters[c] { members.append(try member(Int(i), scratch: &scratch)) }
        return (Survivorship.merge(members), members)
    }

    /// The log entry of cluster `c`, numbered `number`.
    func logCluster(
        _ c: Int, number: Int, result: MergeResult, members: [MergeMember], includeRecords: Bool = false
    ) -> MergeLogCluster {
        let indices = clustering.clusters[c]
        let logMembers = zip(indices, members).enumerated().map { position, pair in
            MergeLogCluster.Member(
                ref: pair.1.ref, id: table.id(Int(pair.0)), input: inputNames[Int(table.input[Int(pair.0)])],
                title: pair.1.value["title"]?.stringValue ?? "", updatedAt: pair.1.value["updatedAt"]?.stringValue,
                isSurvivor: position == 0, record: includeRecords ? pair.1.value : nil)
        }
        let matches = clustering.links[c].map { link in
            MergeLogCluster.Match(
                a: ref(Int(link.a)), b: ref(Int(link.b)), rule: link.rule,
                score: scorer.score(Int(link.a), Int(link.b), in: table))
        }
        return MergeLogCluster(
            number: number, outputID: result.value["id"]?.stringValue ?? table.id(Int(indices[0])),
            title: result.value["title"]?.stringValue ?? "", members: logMembers, matches: matches,
            fields: result.fields, alternatives: result.alternatives)
    }
}

/// A byte buffer passed to one task, which takes it out (``take()``) and so holds the only reference.
// @unchecked Sendable: made by the writing task and taken once by the task it is handed to.
final class BufferHandoff: @unchecked Sendable {
    private var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The buffer, once: the box is left empty.
    func take() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }
}

/// A run of output records prepared off the writing thread.
struct OutputBatch: Sendable {
    /// One output record: serialized JSON (`encoded` range) or a value to write.
    enum Record: Sendable {
        case encoded(Range<Int>)
        case value(Value)
    }

    var records: [Record] = []
    /// The record each output record came from (its survivor), for reject locations.
    var sources: [Int32] = []
    /// The serialized records.
    var bytes: [UInt8] = []
    /// The merge log entries, serialized, one per merged cluster.
    var logEntries: [[UInt8]] = []
    var fieldsFromOthers: [String: Int] = [:]
    var alternatives: [String: Int] = [:]

    /// Takes the serialized bytes out, leaving the batch without them, so the buffer can be
    /// filled again by a later batch without being copied.
    mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    /// Prepares output positions `range` of `order`.
    /// - Parameters:
    ///   - context: the records, their spill files and the clusters they form.
    ///   - order: the output order, one record per cluster (see ``ClusterContext/outputOrder()``).
    ///   - range: the positions of `order` to prepare.
    ///   - pretty: the JSON layout (`encodeAs:`; `true` for indented) when the output is JSON and the spill holds
    ///     JSON; `nil` to hand values over.
    ///   - withLog: whether to serialize a merge log entry for each merged cluster.
    ///   - firstNumber: the merge-log number of the first cluster in the range.
    ///   - bytes: a buffer to serialize into (emptied first, its capacity kept).
    /// - Returns: the batch: each position's record (merged for a cluster), serialized when `pretty` is not `nil`,
    ///   with its source record, the merge log entries and the field counts for the summary.
    /// - Throws: ``LarderError`` `io-error` when a spill file cannot be read or is damaged, `unrepresentable`
    ///   when JSON cannot hold a value (NaN or infinite numbers).
    static func prepare(
        _ context: ClusterContext, order: [Int32], range: Range<Int>, encodeAs pretty: Bool?, withLog: Bool,
        firstNumber: Int, reusing bytes: consuming [UInt8] = []
    ) throws -> OutputBatch {
        var batch = OutputBatch()
        batch.bytes = consume bytes
        batch.bytes.removeAll(keepingCapacity: true)
        var scratch: [UInt8] = []
        var number = firstNumber
        for position in range {
            let i = Int(order[position])
            batch.sources.append(order[position])
            if let c = context.cluster(of: i) {
                let (result, members) = try context.merge(cluster: c, scratch: &scratch)
                for choice in result.fields where choice.rule == .newest || choice.rule == .earliest {
                    if choice.from.first != members[0].ref { batch.fieldsFromOthers[choice.field, default: 0] += 1 }
                }
                for alternative in result.alternatives { batch.alternatives[alternative.field, default: 0] += 1 }
                if withLog {
                    var entry: [UInt8] = []
                    try JSONWriter.append(
                        context.logCluster(c, number: number, result: result, members: members).value, to: &entry)
                    batch.logEntries.append(entry)
                }
                number += 1
                if let pretty {
                    let start = batch.bytes.count
                    try JSONWriter.append(result.value, to: &batch.bytes, pretty: pretty)
                    batch.records.append(.encoded(start..<batch.bytes.count))
                } else {
                    batch.records.append(.value(result.value))
                }
            } else if pretty != nil {
                // Already serialized in pass 1, membership flag included: copy it through.
                let spill = context.spills[Int(context.table.input[i])]
                let count = Int(context.table.spillLength[i])
                try spill.readRaw(offset: context.table.spillOffset[i], count: count, into: &scratch)
                let start = batch.bytes.count
                batch.bytes.append(contentsOf: scratch[0..<count])
                batch.records.append(.encoded(start..<batch.bytes.count))
            } else {
                batch.records.append(.value(try context.value(i, scratch: &scratch)))
            }
        }
        return batch
    }
}
