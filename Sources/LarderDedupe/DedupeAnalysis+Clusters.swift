public import LarderCore

/// One merged cluster, for callers that apply merges themselves (a store).
public struct MergedCluster: Sendable {
    /// The merged record (the survivor's id).
    public var record: Value
    /// The survivor's id.
    public var survivorID: String
    /// Every member's id and record as it was, survivor first.
    public var members: [(id: String, record: Value)]
}

extension DedupeAnalysis {
    /// Calls `apply` with every merged cluster, in output order (by survivor id), and writes
    /// the merge log; records that merge with nothing are not visited.
    ///
    /// For stores, which change the survivors and retire the losers in place instead of writing
    /// a new set. With `logRecords`, the log keeps each member's whole record, so what a store
    /// replaces can be recovered from the log.
    /// - Returns: the complete summary (`written` counts the records that remain).
    /// - Throws: what `apply` throws, ``LarderError`` `io-error` from the scratch files or the log.
    @discardableResult
    public func applyMerges(
        log: MergeLogWriter? = nil, logRecords: Bool = false, _ apply: (MergedCluster) throws -> Void
    ) throws -> DedupeSummary {
        var clock = PhaseClock()
        var summary = self.summary
        var number = 0
        for survivor in context.outputOrder() {
            guard let c = cluster(of: Int(survivor)) else { continue }
            number += 1
            let (result, members) = try merge(cluster: c)
            for choice in result.fields where choice.rule == .newest || choice.rule == .earliest {
                if choice.from.first != members[0].ref { summary.fieldsFromOthers[choice.field, default: 0] += 1 }
            }
            for alternative in result.alternatives { summary.alternatives[alternative.field, default: 0] += 1 }
            try log?.append(
                context.logCluster(c, number: number, result: result, members: members, includeRecords: logRecords))
            let ids = clustering.clusters[c].map { table.id(Int($0)) }
            try apply(
                MergedCluster(
                    record: result.value, survivorID: result.value["id"]?.stringValue ?? ids[0],
                    members: zip(ids, members).map { (id: $0.0, record: $0.1.value) }))
        }
        summary.written = table.count - summary.removed
        try log?.finish(summary: summary)
        self.summary = summary
        timings.append(clock.lap("apply"))
        return summary
    }
}
