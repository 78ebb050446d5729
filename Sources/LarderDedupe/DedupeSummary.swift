public import LarderCore

/// What a dedupe pass did: counts per input, clusters, matches by stage, field sources.
public struct DedupeSummary: Sendable, Hashable {
    /// Counts for one input.
    public struct InputCounts: Sendable, Hashable {
        /// The input's name.
        public var name: String
        /// Its role (`saved`, `created`, `mixed`).
        public var role: String
        /// Records read (including malformed ones).
        public var read = 0
        /// Records rejected (malformed, or failed the schema upgrade).
        public var rejected = 0
    }

    /// Per input, in input order.
    public var inputs: [InputCounts] = []
    /// Records written to the output.
    public var written = 0
    /// Clusters of two or more records.
    public var clusters = 0
    /// Records in those clusters.
    public var mergedRecords = 0
    /// Matches that merged clusters, by stage.
    public var matchesByRule: [MatchRule: Int] = [:]
    /// Pairs that matched on their own but were kept apart because another member did not (no chaining).
    public var keptApartByChaining = 0
    /// Candidate pairs the fuzzy stage scored.
    public var candidatePairs = 0
    /// Candidate pairs per blocking band (title words, ingredient bands, title-trigram bands).
    public var candidatePairsByBand: [Int] = []
    /// Fields taken from a member other than the survivor, by field name.
    public var fieldsFromOthers: [String: Int] = [:]
    /// Losers' differing versions kept in the merge log, by field name.
    public var alternatives: [String: Int] = [:]

    /// Creates an empty summary.
    public init() {}

    /// Records read, over all inputs.
    public var read: Int { inputs.reduce(0) { $0 + $1.read } }
    /// Records rejected, over all inputs.
    public var rejected: Int { inputs.reduce(0) { $0 + $1.rejected } }
    /// Records removed as duplicates.
    public var removed: Int { mergedRecords - clusters }

    /// The human summary, one fact per line.
    public var text: String {
        var lines: [String] = []
        let perInput = inputs.map { "\($0.name) \($0.read)" }.joined(separator: ", ")
        lines.append("\(read) records read (\(perInput)), \(rejected) rejected")
        lines.append(
            "\(written) records written: \(mergedRecords) duplicates merged into \(clusters) records, \(removed) removed"
        )
        if !matchesByRule.isEmpty {
            let rules = MatchRule.allCases.compactMap { rule in matchesByRule[rule].map { "\(rule.rawValue) \($0)" } }
            lines.append("matches by stage: " + rules.joined(separator: ", "))
        }
        if keptApartByChaining > 0 {
            lines.append(
                "\(keptApartByChaining) matching pairs kept apart because another member did not match (no chaining)")
        }
        if !fieldsFromOthers.isEmpty {
            let fields = fieldsFromOthers.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            lines.append(
                "fields taken from a newer copy: " + fields.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !alternatives.isEmpty {
            let fields = alternatives.sorted { $0.key < $1.key }
            lines.append(
                "differing versions kept in the merge log: "
                    + fields.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// The summary as a log value.
    public var value: Value {
        var b = ValueBuilder()
        b.set(
            "inputs",
            value: .array(
                inputs.map { i in
                    var ib = ValueBuilder()
                    ib.set("name", i.name)
                    ib.set("role", i.role)
                    ib.set("read", i.read)
                    ib.set("rejected", i.rejected)
                    return ib.value
                }))
        b.set("read", read)
        b.set("rejected", rejected)
        b.set("written", written)
        b.set("clusters", clusters)
        b.set("mergedRecords", mergedRecords)
        b.set("removed", removed)
        var rules = Fields()
        for rule in MatchRule.allCases {
            if let n = matchesByRule[rule] { rules.append(key: rule.rawValue, value: .int(Int64(n))) }
        }
        b.set("matchesByRule", value: .object(rules))
        b.set("keptApartByChaining", keptApartByChaining)
        b.set("candidatePairs", candidatePairs)
        b.set("candidatePairsByBand", value: .array(candidatePairsByBand.map { .int(Int64($0)) }))
        var fields = Fields()
        for (key, n) in fieldsFromOthers.sorted(by: { $0.key < $1.key }) {
            fields.append(key: key, value: .int(Int64(n)))
        }
        b.set("fieldsFromOthers", value: .object(fields))
        var alternativesValue = Fields()
        for (key, n) in alternatives.sorted(by: { $0.key < $1.key }) {
            alternativesValue.append(key: key, value: .int(Int64(n)))
        }
        b.set("alternatives", value: .object(alternativesValue))
        return b.value
    }
}
