public import LarderCore
public import LarderFormats

/// One merged cluster as the merge log records it.
public struct MergeLogCluster: Sendable {
    /// One record of the cluster.
    public struct Member: Sendable, Hashable {
        /// `created[4]`: input role and 0-based record index in that input.
        public var ref: String
        /// The record's id.
        public var id: String
        /// The input file it came from.
        public var input: String
        /// Its title as written.
        public var title: String
        /// Its `updatedAt`, as written.
        public var updatedAt: String?
        /// Whether it is the survivor.
        public var isSurvivor: Bool
        /// The whole record as it was, when the log keeps records (dedupe of a store, which
        /// replaces the losers by tombstones).
        public var record: Value?
    }

    /// A pair of members that matched, with the stage and scores.
    public struct Match: Sendable, Hashable {
        /// One member.
        public var a: String
        /// The other.
        public var b: String
        /// The stage that matched them.
        public var rule: MatchRule
        /// The fuzzy score components (for every stage, for information).
        public var score: MatchScore
    }

    /// 1-based, in output order.
    public var number: Int
    /// The merged record's id.
    public var outputID: String
    /// The merged record's title.
    public var title: String
    /// The members, survivor first.
    public var members: [Member]
    /// The matches that merged the members.
    public var matches: [Match]
    /// Each field's chosen source.
    public var fields: [FieldChoice]
    /// The losers' differing ingredient lines and steps.
    public var alternatives: [Alternative]

    /// The cluster as a log value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("cluster", number)
        b.set("id", outputID)
        b.set("title", title)
        b.set(
            "members",
            value: .array(
                members.map { m in
                    var mb = ValueBuilder()
                    mb.set("ref", m.ref)
                    mb.set("id", m.id)
                    mb.set("input", m.input)
                    mb.set("title", m.title)
                    mb.set("updatedAt", m.updatedAt)
                    mb.set("survivor", m.isSurvivor)
                    if let record = m.record { mb.set("record", value: record) }
                    return mb.value
                }))
        b.set(
            "matches",
            value: .array(
                matches.map { m in
                    var mb = ValueBuilder()
                    mb.set("a", m.a)
                    mb.set("b", m.b)
                    mb.set("rule", m.rule.rawValue)
                    mb.set("score", value: m.score.logValue)
                    return mb.value
                }))
        var fieldsValue = Fields()
        for choice in fields {
            var fb = ValueBuilder()
            fb.set("rule", choice.rule.rawValue)
            if choice.rule == .union || choice.rule == .any || choice.rule == .merged {
                fb.set("from", choice.from)
            } else {
                fb.set("from", choice.from.first)
            }
            fieldsValue.append(key: choice.field, value: fb.value)
        }
        b.set("fields", value: .object(fieldsValue))
        b.set(
            "alternatives",
            value: .array(
                alternatives.map { a in
                    var ab = ValueBuilder()
                    ab.set("from", a.from)
                    ab.set("field", a.field)
                    ab.set("value", value: a.value)
                    return ab.value
                }))
        return b.value
    }
}

extension MatchScore {
    /// The score with components rounded to 3 decimals, absent ones left out.
    public var logValue: Value {
        func round(_ x: Double) -> Value { .double((x * 1000).rounded() / 1000) }
        var fields = Fields()
        fields.append(key: "total", value: round(total))
        fields.append(key: "title", value: round(title))
        if let ingredients { fields.append(key: "ingredients", value: round(ingredients)) }
        if let agreement { fields.append(key: "agreement", value: round(agreement)) }
        return .object(fields)
    }

    /// `0.912 (title 1.000, ingredients 0.840, agreement 0.833)`.
    public var text: String {
        var parts = ["title \(Self.format(title))"]
        if let ingredients {
            parts.append("ingredients \(Self.format(ingredients))")
        } else {
            parts.append("no ingredients")
        }
        if let agreement { parts.append("agreement \(Self.format(agreement))") }
        return "\(Self.format(total)) (\(parts.joined(separator: ", ")))"
    }

    /// Three decimals.
    public static func format(_ x: Double) -> String {
        let scaled = Int((x * 1000).rounded())
        let fraction = String(scaled % 1000)
        return "\(scaled / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

/// Streams the merge log, a JSON document:
/// `{"tool": "larder dedupe", "threshold": 0.85, "inputs": [...], "clusters": [...], "summary": {...}}`.
///
/// Clusters are written one at a time as the output is written, so the log never holds
/// more than one cluster in memory; the summary comes last, when its counts are final.
public final class MergeLogWriter {
    private let sink: any ByteSink
    private var out: [UInt8] = []
    private var count = 0

    /// Starts a log on `sink` (written atomically by a ``FileByteSink``).
    public init(sink: any ByteSink, threshold: Double, inputs: [(name: String, role: String)]) throws {
        self.sink = sink
        out.append(contentsOf: "{\"tool\":\"larder dedupe\",\"version\":1,\"threshold\":".utf8)
        try JSONWriter.append(.double(threshold), to: &out)
        out.append(contentsOf: ",\"inputs\":".utf8)
        try JSONWriter.append(.array(inputs.map { ["name": .string($0.name), "role": .string($0.role)] }), to: &out)
        out.append(contentsOf: ",\"clusters\":[".utf8)
    }

    /// Appends one cluster.
    public func append(_ cluster: MergeLogCluster) throws {
        var entry: [UInt8] = []
        try JSONWriter.append(cluster.value, to: &entry)
        try append(encoded: entry)
    }

    /// Appends one cluster already serialized as JSON.
    package func append(encoded entry: [UInt8]) throws {
        out.append(contentsOf: (count == 0 ? "\n" : ",\n").utf8)
        out.append(contentsOf: entry)
        count += 1
        if out.count >= 1 << 16 {
            try sink.write(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the summary, closes the document and the sink.
    public func finish(summary: DedupeSummary) throws {
        out.append(contentsOf: "\n],\"summary\":".utf8)
        try JSONWriter.append(summary.value, to: &out)
        out.append(contentsOf: "}\n".utf8)
        try sink.write(out)
        out.removeAll()
        try sink.close()
    }
}
