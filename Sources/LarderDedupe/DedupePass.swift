import Foundation
import LarderCore
public import LarderFormats

/// Merges a user's saved and created recipe sets (or any recipe sets) into one set without
/// duplicates: the first half of `larder dedupe`.
///
/// The pass runs in two halves.
/// 1. ``analyze(rejects:)`` reads every input once, in parallel (one task per input):
///    each record is upgraded to the current schema, decoded as a ``Recipe``, reduced to
///    compact matching features (`FeatureTable`) and spilled in a binary encoding to an
///    anonymous scratch file. Then the matching stages run (same id / record name, same
///    normalized source URL, same content fingerprint, fuzzy score over blocked candidate
///    pairs) and records are clustered without chaining.
/// 2. ``DedupeAnalysis/write(to:log:rejects:)`` writes one record per cluster in a stable
///    order (by id), merging clusters by the survivorship rules, fetching records back from
///    the scratch files, and streams the merge log.
///
/// Memory holds the features (a few hundred bytes per record: title key, ingredient word
/// hashes, fingerprint and URL hashes, id, numbers, scratch offsets), never the records.
///
/// ```swift
/// let pass = DedupePass(inputs: [.file("saved.json", role: .saved), .file("created.json", role: .created)])
/// let analysis = try await pass.analyze()
/// let writer = try RecordIO.openWriter(path: "merged.json", format: .json)
/// let summary = try analysis.write(to: writer)
/// ```
public struct DedupePass: Sendable {
    /// The inputs, in order.
    public var inputs: [DedupeInput]
    /// How to match and merge.
    public var configuration: DedupeConfiguration

    /// Creates a pass.
    public init(inputs: [DedupeInput], configuration: DedupeConfiguration = DedupeConfiguration()) {
        self.inputs = inputs
        self.configuration = configuration
    }

    /// Reads every input and finds the clusters.
    /// - Parameter rejects: where rejected records go, with their diagnostics, in input order
    ///   (each input's wait in a scratch file while the inputs are read in parallel).
    /// - Returns: the analysis, ready to write or explain.
    /// - Throws: ``LarderError``: `io-error` when an input or scratch file fails; without
    ///   ``DedupeConfiguration/keepGoing``, the first malformed record's error (with file,
    ///   line:column, record index and field path); `usage-error` when an input holds records
    ///   that are not recipes.
    public func analyze(rejects: (any DiagnosticSink)? = nil) async throws -> DedupeAnalysis {
        guard !inputs.isEmpty else { throw LarderError(.usage, "dedupe needs at least one input") }
        var clock = PhaseClock()
        var timings: [PhaseTiming] = []
        let configuration = configuration
        var scans = try await withThrowingTaskGroup(of: (Int, InputScan).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask {
                    (index, try InputScanner(input: input, index: index, configuration: configuration).scan())
                }
            }
            var results: [(Int, InputScan)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
        if let rejects {
            for scan in scans { try scan.rejects.replay(into: rejects) }
        }
        timings.append(clock.lap("read"))
        // Take the first input's table over (no copy) and append the others, releasing each as it goes.
        var table = scans[0].table
        scans[0].table = FeatureTable()
        for index in scans.indices.dropFirst() { try table.absorb(&scans[index].table) }
        timings.append(clock.lap("merge"))

        let scorer = PairScorer(threshold: configuration.threshold)
        let blocker = CandidateBlocker(plan: configuration.blocking)
        let (candidates, scored) = await Self.findCandidates(table: table, blocker: blocker, scorer: scorer)
        timings.append(clock.lap("match"))

        let clustering = Clusterer(table: table, scorer: scorer).cluster(candidates: consume candidates)
        timings.append(clock.lap("cluster"))

        var summary = DedupeSummary()
        summary.inputs = scans.map(\.counts)
        summary.candidatePairs = scored.reduce(0, +)
        summary.candidatePairsByBand = scored
        summary.keptApartByChaining = clustering.blockedByChaining
        return DedupeAnalysis(
            inputs: inputs.map { ($0.name, $0.role) }, spills: scans.map(\.spill), headers: scans.map(\.header),
            table: table, clustering: clustering, scorer: scorer, blocker: blocker, summary: summary,
            keepGoing: configuration.keepGoing, timings: timings)
    }

    /// Candidate links from every stage after the first: URL and fingerprint groups, and the
    /// fuzzy stage over blocked pairs.
    ///
    /// The work is split into items (each band, each exact-hash column) taken by two tasks, the
    /// costliest first; the order links are found in does not matter, as ``Clusterer`` sorts them.
    /// A pair found in several bands is kept once: the tasks collect pairs as 8-byte numbers, and
    /// only the distinct ones become links (a link takes 24 bytes).
    static func findCandidates(table: FeatureTable, blocker: CandidateBlocker, scorer: PairScorer) async -> (
        [MatchLink], [Int]
    ) {
        let clusterer = Clusterer(table: table, scorer: scorer)
        let bandCount = blocker.plan.bandCount
        // Band 0 (whole titles) yields few pairs, so it goes after the combined bands.
        let items = Array(1..<bandCount) + [0, -1, -2]
        let workers = 2
        var pairs: [UInt64] = []
        var scored = [Int](repeating: 0, count: bandCount)
        await withTaskGroup(of: (band: Int, pairs: [UInt64], count: Int).self) { group in
            var next = 0
            func submit() {
                let item = items[next]
                next += 1
                group.addTask {
                    guard item >= 0 else {
                        let hashes = item == -1 ? table.sourceURL : table.fingerprint
                        let links = exactGroupLinks(hashes: hashes, table: table, clusterer: clusterer)
                        return (item, links.map(pair), 0)
                    }
                    var found: [UInt64] = []
                    var count = 0
                    blocker.forEachPair(band: item, in: table) { x, y in
                        if table.hasSameID(x, y) || table.recordNameHash[x] == table.recordNameHash[y] { return }
                        count += 1
                        if let link = Self.link(x, y, table: table, clusterer: clusterer) { found.append(pair(link)) }
                    }
                    return (item, found, count)
                }
            }
            while next < min(workers, items.count) { submit() }
            for await result in group {
                pairs.append(contentsOf: result.pairs)
                if result.band >= 0 { scored[result.band] = result.count }
                if next < items.count { submit() }
            }
        }
        pairs.sort()
        var links: [MatchLink] = []
        for (k, pair) in pairs.enumerated() where k == 0 || pairs[k - 1] != pair {
            let (a, b) = (Int(pair >> 32), Int(pair & 0xFFFF_FFFF))
            if let link = Self.link(a, b, table: table, clusterer: clusterer) { links.append(link) }
        }
        return (links, scored)
    }

    /// A link's records as one number, `a` in the high half.
    private static func pair(_ link: MatchLink) -> UInt64 {
        UInt64(UInt32(bitPattern: link.a)) << 32 | UInt64(UInt32(bitPattern: link.b))
    }

    /// The link between two records under stages 2-4, oriented by content key, or `nil`.
    static func link(_ x: Int, _ y: Int, table: FeatureTable, clusterer: Clusterer) -> MatchLink? {
        let exact =
            (table.sourceURL[x] != 0 && table.sourceURL[x] == table.sourceURL[y])
            || (table.fingerprint[x] != 0 && table.fingerprint[x] == table.fingerprint[y])
        if !exact && clusterer.scorer.cannotPass(x, y, in: table) { return nil }
        guard let (rule, score) = clusterer.relation(x, y), rule != .sameID, rule != .sameRecordName else { return nil }
        let (a, b) = table.key[x] < table.key[y] ? (x, y) : (y, x)
        return MatchLink(a: Int32(a), b: Int32(b), rule: rule, total: score.total)
    }

    /// Links within groups of equal `hashes` (source URL or fingerprint; 0 is none): all pairs
    /// in groups up to 48 records, consecutive pairs (by content key) in larger ones.
    static func exactGroupLinks(hashes: [UInt64], table: FeatureTable, clusterer: Clusterer) -> [MatchLink] {
        var links: [MatchLink] = []
        var order = (0..<Int32(table.count)).filter { hashes[Int($0)] != 0 }
        order.sort {
            let (x, y) = (Int($0), Int($1))
            return hashes[x] != hashes[y] ? hashes[x] < hashes[y] : table.key[x] < table.key[y]
        }
        var i = 0
        while i < order.count {
            var j = i + 1
            while j < order.count && hashes[Int(order[j])] == hashes[Int(order[i])] { j += 1 }
            if j - i <= 48 {
                for x in i..<j {
                    for y in (x + 1)..<j {
                        if let l = link(Int(order[x]), Int(order[y]), table: table, clusterer: clusterer) {
                            links.append(l)
                        }
                    }
                }
            } else {
                for x in i..<(j - 1) {
                    if let l = link(Int(order[x]), Int(order[x + 1]), table: table, clusterer: clusterer) {
                        links.append(l)
                    }
                }
            }
            i = j
        }
        return links
    }
}

/// What reading one input produced.
struct InputScan: Sendable {
    var table: FeatureTable
    var spill: SpillFile
    var rejects: RejectSpool
    var counts: DedupeSummary.InputCounts
    var header: EnvelopeHeader?
}

/// Reads one input: upgrade, decode, features, spill.
struct InputScanner {
    let input: DedupeInput
    let index: Int
    let configuration: DedupeConfiguration

    /// The record at the current version, its digest, and whether the upgrade hook changed it.
    ///
    /// The hook runs for records whose input declares an older version, and for records of
    /// undeclared version that do not decode as the current model; when the hook cannot help
    /// either, the model's own error stands.
    func decode(_ record: Value, declaredVersion: Int?) throws -> (Value, RecipeDigest, upgraded: Bool) {
        let upgrade = configuration.upgrade
        let current = RecordType.recipe.currentVersion
        if !upgrade.isIdentity, let declaredVersion, declaredVersion != current {
            let value = try upgrade.upgrade(record, .recipe, declaredVersion)
            return (value, try RecipeDigest(value: value), true)
        }
        do {
            return (record, try RecipeDigest(value: record), false)
        } catch let error as LarderError where !upgrade.isIdentity && declaredVersion == nil {
            guard let value = try? upgrade.upgrade(record, .recipe, nil), value != record else { throw error }
            return (value, try RecipeDigest(value: value), true)
        }
    }

    func scan() throws -> InputScan {
        let reader = try input.makeReader()
        let spill = try SpillFile(directory: configuration.scratchDirectory, encoding: configuration.spillEncoding)
        let rejects = try RejectSpool(directory: configuration.scratchDirectory)
        var table = FeatureTable()
        var counts = DedupeSummary.InputCounts(name: input.name, role: input.role.rawValue)
        func reject(_ record: Value?, _ error: LarderError) throws {
            guard configuration.keepGoing else { throw error }
            try rejects.reject(record, error)
            counts.rejected += 1
        }
        var recordIndex = 0
        let canCopyText = configuration.spillEncoding == .json(pretty: false)
        if canCopyText, let path = input.path, reader is JSONReader { spill.useInputFile(path) }
        while true {
            let item: RecordItem?
            do {
                item = try reader.next()
            } catch let error as LarderError where error.code != .io {
                counts.read += 1
                try reject(nil, error.locatedAt(SourceLocation(file: reader.name)))
                if reader.canRecover { continue }
                break
            }
            guard let item else { break }
            counts.read += 1
            recordIndex = item.index
            if let type = reader.header?.recordType, type != .recipe {
                throw LarderError(
                    .usage, "dedupe merges recipes, but this input holds \(type.rawValue) records",
                    location: SourceLocation(file: reader.name))
            }
            let accepted: (RecordFeatures, RecordIdentity)
            do {
                let (value, recipe, upgraded) = try decode(item.value, declaredVersion: reader.header?.version)
                // Spilled with its input set's membership flag set, ready to write if it merges with nothing:
                // as the input's own JSON text when that is already the record to write, else serialized.
                let inSaved = input.role == .saved
                let inCreated = input.role == .created
                var spilled: (offset: UInt64, length: UInt32, key: StableKey)?
                if canCopyText, !upgraded, let json = reader as? JSONReader,
                    !Survivorship.lacksMembership(value, inSavedSet: inSaved, inCreatedSet: inCreated)
                {
                    spilled = try json.withLastRecordText { text, offset in
                        // A one-line record in a plain file is fetched from the file itself when written.
                        if spill.readsInputFile && !SpillFile.hasLineBreak(text) {
                            return spill.reference(inputOffset: offset, text: text)
                        }
                        return try spill.append(jsonText: text)
                    }
                }
                let (offset, length, key) =
                    try spilled
                    ?? spill.append(Survivorship.withMembership(value, inSavedSet: inSaved, inCreatedSet: inCreated))
                let identity = RecordIdentity(
                    id: recipe.id, recordNameHash: StableHasher.hash(recipe.recordName, seed: 0x726E),
                    key: key, updatedAt: Int64((recipe.updatedAt.timeIntervalSince1970 * 1000).rounded()),
                    // The input's role decides which copy is the created one; flags only where the
                    // input mixes both sets (a store).
                    isCreated: input.role == .mixed ? recipe.isCreated : input.role == .created,
                    isSaved: input.role == .mixed ? recipe.isSaved : input.role == .saved,
                    isDeleted: recipe.isDeleted, input: index, inputIndex: recordIndex,
                    spillOffset: offset, spillLength: length)
                accepted = (RecordFeatures(digest: recipe), identity)
            } catch let error as LarderError where error.code != .io {
                // The record is out of the table, so nothing else refers to the bytes it may have spilled.
                let path = error.location?.fieldPath ?? .root
                var location = reader.location(of: path) ?? item.location
                location.recordIndex = item.index
                location.fieldPath = path
                if location.file == nil { location.file = reader.name }
                try reject(item.value, error.locatedAt(location))
                continue
            }
            try table.append(accepted.0, accepted.1)
        }
        try spill.flush()
        return InputScan(table: table, spill: spill, rejects: rejects, counts: counts, header: reader.header)
    }
}
