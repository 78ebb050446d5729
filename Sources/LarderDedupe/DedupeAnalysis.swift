import Foundation
public import LarderCore
public import LarderFormats

/// The clusters a ``DedupePass`` found, ready to be written (``write(to:log:rejects:)``) or
/// explained (``explain(_:)``).
///
/// Holds the compact features of every record and the scratch files the records wait in;
/// the scratch files disappear when the analysis is released.
public final class DedupeAnalysis {
    let inputs: [(name: String, role: DedupeInput.Role)]
    let roles: [DedupeInput.Role]
    let spills: [SpillFile]
    let table: FeatureTable
    let clustering: Clustering
    let scorer: PairScorer
    let blocker: CandidateBlocker
    let keepGoing: Bool
    /// The envelope header of each input, when it had one.
    public let headers: [EnvelopeHeader?]
    /// Counts so far (complete after ``write(to:log:rejects:)``).
    public private(set) var summary: DedupeSummary
    /// How long each phase took: read, match, cluster (and write, once written).
    public private(set) var timings: [(phase: String, duration: Duration)]
    private var scratch: [UInt8] = []
    private lazy var clusterOfRoot: [Int32: Int] = {
        var map: [Int32: Int] = [:]
        for (index, members) in clustering.clusters.enumerated() { map[clustering.root[Int(members[0])]] = index }
        return map
    }()

    init(
        inputs: [(String, DedupeInput.Role)], roles: [DedupeInput.Role], spills: [SpillFile], headers: [EnvelopeHeader?],
        table: FeatureTable, clustering: Clustering, scorer: PairScorer, blocker: CandidateBlocker, summary: DedupeSummary,
        keepGoing: Bool, timings: [(String, Duration)]
    ) {
        self.inputs = inputs.map { (name: $0.0, role: $0.1) }
        self.roles = roles
        self.spills = spills
        self.headers = headers
        self.table = table
        self.clustering = clustering
        self.scorer = scorer
        self.blocker = blocker
        var summary = summary
        summary.clusters = clustering.clusters.count
        summary.mergedRecords = clustering.clusters.reduce(0) { $0 + $1.count }
        for links in clustering.links {
            for link in links { summary.matchesByRule[link.rule, default: 0] += 1 }
        }
        self.summary = summary
        self.keepGoing = keepGoing
        self.timings = timings.map { (phase: $0.0, duration: $0.1) }
    }

    /// The number of records read and accepted.
    public var recordCount: Int { table.count }

    /// The clusters of two or more records, each as `(input index, record index)` pairs,
    /// survivor first; for evaluating against labelled data.
    public var clusters: [[(input: Int, index: Int)]] {
        clustering.clusters.map { members in members.map { (Int(table.input[Int($0)]), Int(table.inputIndex[Int($0)])) } }
    }

    /// Bytes held by the matching features.
    public var featureBytes: Int { table.byteCount }

    /// How the merge log names record `i`: `created[4]`.
    func ref(_ i: Int) -> String {
        let input = Int(table.input[i])
        let role = roles[input]
        let unique = roles.filter { $0 == role }.count == 1
        return "\(unique ? role.rawValue : "input\(input + 1)")[\(table.inputIndex[i])]"
    }

    /// Reads record `i` back from its scratch file.
    func value(_ i: Int) throws -> Value {
        try spills[Int(table.input[i])].read(offset: table.spillOffset[i], length: table.spillLength[i], scratch: &scratch)
    }

    func member(_ i: Int) throws -> MergeMember {
        let role = roles[Int(table.input[i])]
        return MergeMember(
            value: try value(i), ref: ref(i), updatedAt: table.updatedAt[i], inSavedSet: role == .saved,
            inCreatedSet: role == .created)
    }

    /// The cluster index of record `i`, when it merged with others.
    func cluster(of i: Int) -> Int? { clusterOfRoot[clustering.root[i]] }

    /// One record per cluster in output order: sorted by the survivor's id, then content key.
    func outputOrder() -> [Int32] {
        var survivors: [Int32] = []
        survivors.reserveCapacity(table.count - summaryRemoved)
        for i in 0..<table.count {
            if let c = cluster(of: i) {
                if clustering.clusters[c][0] == Int32(i) { survivors.append(Int32(i)) }
            } else {
                survivors.append(Int32(i))
            }
        }
        survivors.sort { table.idPrecedes(Int($0), Int($1)) }
        return survivors
    }

    private var summaryRemoved: Int { clustering.clusters.reduce(0) { $0 + $1.count - 1 } }

    /// Merges cluster `c`.
    func merge(cluster c: Int) throws -> (MergeResult, [MergeMember]) {
        let members = try clustering.clusters[c].map { try member(Int($0)) }
        return (Survivorship.merge(members), members)
    }

    /// The log entry of cluster `c`, numbered `number`.
    func logCluster(_ c: Int, number: Int, result: MergeResult, members: [MergeMember]) -> MergeLogCluster {
        let indices = clustering.clusters[c]
        let logMembers = zip(indices, members).enumerated().map { position, pair in
            MergeLogCluster.Member(
                ref: pair.1.ref, id: table.id(Int(pair.0)), input: inputs[Int(table.input[Int(pair.0)])].name,
                title: pair.1.value["title"]?.stringValue ?? "", updatedAt: pair.1.value["updatedAt"]?.stringValue,
                isSurvivor: position == 0)
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

    /// Writes one record per cluster to `writer` (and finishes it), and the merge log.
    ///
    /// Records come back from the scratch files one cluster at a time, so memory holds one
    /// cluster. The output order is by id, then content key: the same records in any input
    /// order give byte-identical output.
    /// - Parameters:
    ///   - writer: the output; finished (closed) on success.
    ///   - log: the merge log; finished with the summary on success.
    ///   - rejects: where records the output format cannot hold go (with `keepGoing`).
    /// - Returns: the complete summary.
    /// - Throws: ``LarderError`` from the writer (`io-error`; `unrepresentable` without
    ///   keep-going) or when a scratch file is damaged.
    @discardableResult
    public func write(to writer: any RecordWriter, log: MergeLogWriter? = nil, rejects: (any ByteSink)? = nil) throws -> DedupeSummary {
        let started = ContinuousClock.now
        let rejectsWriter = rejects.map { RejectsWriter(sink: NonClosingSink($0)) }
        var summary = self.summary
        var number = 0
        for survivor in outputOrder() {
            let i = Int(survivor)
            let record: Value
            if let c = cluster(of: i) {
                number += 1
                let (result, members) = try merge(cluster: c)
                record = result.value
                for choice in result.fields where choice.rule == .newest || choice.rule == .earliest {
                    if choice.from.first != members[0].ref { summary.fieldsFromOthers[choice.field, default: 0] += 1 }
                }
                for alternative in result.alternatives { summary.alternatives[alternative.field, default: 0] += 1 }
                try log?.append(logCluster(c, number: number, result: result, members: members))
            } else if let json = writer as? JSONWriter, spills[Int(table.input[i])].encoding == .json(pretty: json.isPretty) {
                // Already serialized in pass 1, membership flag included: copy it through.
                let count = Int(table.spillLength[i])
                try spills[Int(table.input[i])].readRaw(offset: table.spillOffset[i], count: count, into: &scratch)
                try scratch.withUnsafeBytes { try json.write(encoded: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                summary.written += 1
                continue
            } else {
                record = try value(i)
            }
            do {
                try writer.write(record)
                summary.written += 1
            } catch let error as LarderError where error.code == .unrepresentable {
                guard keepGoing, let rejectsWriter else { throw error }
                var location = SourceLocation(file: inputs[Int(table.input[i])].name, recordIndex: Int(table.inputIndex[i]))
                location.fieldPath = error.location?.fieldPath
                try rejectsWriter.reject(record, error.locatedAt(location).diagnostic)
                summary.inputs[Int(table.input[i])].rejected += 1
            }
        }
        try writer.finish()
        try log?.finish(summary: summary)
        self.summary = summary
        timings.append((phase: "write", duration: ContinuousClock.now - started))
        return summary
    }
}
