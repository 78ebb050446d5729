/// One pair of records that matched, and by which stage.
package struct MatchLink: Sendable, Hashable {
    /// The record with the smaller content key.
    package var a: Int32
    /// The other record.
    package var b: Int32
    /// The strongest stage that matched them.
    package var rule: MatchRule
    /// The fuzzy score (1 for same id / record name, which are not scored).
    package var total: Double
}

/// The clusters: which records merge, and the links that justified each merge.
package struct Clustering: Sendable {
    /// Each record's cluster representative (union-find root).
    package var root: [Int32]
    /// The multi-record clusters, members in survivor precedence order (survivor first).
    package var clusters: [[Int32]]
    /// The links that merged each cluster, parallel to ``clusters``.
    package var links: [[MatchLink]]
    /// Pairs that passed on their own but were kept apart because another member did not
    /// match (no chaining), per stage.
    package var blockedByChaining: Int
}

/// Clusters records without chaining: complete linkage over the matched pairs.
///
/// Records with the same id or CloudKit record name are one record fetched twice, so they
/// start in one cluster. Then matched pairs are taken strongest first (stage, then score,
/// then content keys, so the order never depends on input order), and two clusters merge
/// only when **every** record of one matches **every** record of the other. A~B and B~C
/// therefore put A, B and C together only when A~C also matches.
package struct Clusterer {
    package let table: FeatureTable
    package let scorer: PairScorer

    package init(table: FeatureTable, scorer: PairScorer) {
        self.table = table
        self.scorer = scorer
    }

    /// The strongest stage under which `x` and `y` match on their own, with the fuzzy score.
    package func relation(_ x: Int, _ y: Int) -> (rule: MatchRule, score: MatchScore)? {
        if table.hasSameID(x, y) { return (.sameID, scorer.score(x, y, in: table)) }
        if table.recordNameHash[x] == table.recordNameHash[y] {
            return (.sameRecordName, scorer.score(x, y, in: table))
        }
        let score = scorer.score(x, y, in: table)
        if table.sourceURL[x] != 0 && table.sourceURL[x] == table.sourceURL[y] && urlContentAgrees(score) {
            return (.sameSourceURL, score)
        }
        if table.fingerprint[x] != 0 && table.fingerprint[x] == table.fingerprint[y] {
            return (.sameFingerprint, score)
        }
        if scorer.passes(score) { return (.fuzzy, score) }
        return nil
    }

    /// A shared URL merges unless both the titles and the ingredients say these are different dishes.
    package func urlContentAgrees(_ score: MatchScore) -> Bool {
        score.title >= 0.5 || (score.ingredients ?? 0) >= 0.5
    }

    /// Builds the clusters from candidate links (which may repeat): the same record fetched
    /// twice first, then the links by strength with complete linkage, then the clusters with
    /// their members in precedence order.
    package func cluster(candidates: consuming [MatchLink]) -> Clustering {
        // The links are sorted in place first (the caller hands its array over), so their sort
        // buffer and the sets below are not held at the same time.
        var links = consume candidates
        links.sort { x, y in
            if x.rule != y.rule { return x.rule < y.rule }
            if x.total != y.total { return x.total > y.total }
            if table.key[Int(x.a)] != table.key[Int(y.a)] { return table.key[Int(x.a)] < table.key[Int(y.a)] }
            return table.key[Int(x.b)] < table.key[Int(y.b)]
        }
        // The id hashes are computed here rather than stored (8 bytes a record the table need not
        // keep), and the groups found before the sets are allocated, so the two are not held at once.
        let sameID = sameRecordGroups(hashes: (0..<table.count).map(table.idHash), rule: .sameID)
        var sets = DisjointSets(keys: table.key)
        var accepted: [MatchLink] = []
        merge(sameID, rule: .sameID, into: &sets, accepted: &accepted)
        let sameName = sameRecordGroups(hashes: table.recordNameHash, rule: .sameRecordName)
        merge(sameName, rule: .sameRecordName, into: &sets, accepted: &accepted)
        let blocked = mergeCompleteLinkage(links, into: &sets, accepted: &accepted)
        return collect(&sets, accepted: accepted, blocked: blocked)
    }

    /// Stage 1: records whose id (or record name) is the same are one record fetched twice.
    ///
    /// Records are grouped by hash, then by the actual id, so a hash collision never merges.
    /// - Returns: the groups of two or more, by hash, each in content-key order.
    private func sameRecordGroups(hashes: [UInt64], rule: MatchRule) -> [[Int32]] {
        var found: [[Int32]] = []
        let n = table.count
        var order = Array(0..<Int32(n))
        order.sort {
            hashes[Int($0)] != hashes[Int($1)]
                ? hashes[Int($0)] < hashes[Int($1)] : table.key[Int($0)] < table.key[Int($1)]
        }
        var i = 0
        while i < order.count {
            var j = i + 1
            while j < order.count && hashes[Int(order[j])] == hashes[Int(order[i])] { j += 1 }
            defer { i = j }
            guard j - i > 1 else { continue }
            var groups: [[Int32]] = []
            for x in order[i..<j] {
                if rule == .sameRecordName {
                    if groups.isEmpty { groups.append([]) }
                    groups[0].append(x)
                } else if let g = groups.firstIndex(where: { table.hasSameID(Int($0[0]), Int(x)) }) {
                    groups[g].append(x)
                } else {
                    groups.append([x])
                }
            }
            found.append(contentsOf: groups.lazy.filter { $0.count > 1 })
        }
        return found
    }

    /// Merges each group's first record with the others (unless they are together already).
    private func merge(
        _ groups: [[Int32]], rule: MatchRule, into sets: inout DisjointSets, accepted: inout [MatchLink]
    ) {
        for group in groups {
            for k in 1..<group.count where sets.find(group[0]) != sets.find(group[k]) {
                sets.union(group[0], group[k])
                accepted.append(MatchLink(a: group[0], b: group[k], rule: rule, total: 1))
            }
        }
    }

    /// Stages 2-4 by strength (`links` sorted by stage, then score, then content keys): two
    /// clusters merge only when every member of one matches every member of the other.
    ///
    /// - Returns: how many links were kept apart because another member did not match.
    private func mergeCompleteLinkage(
        _ links: [MatchLink], into sets: inout DisjointSets, accepted: inout [MatchLink]
    ) -> Int {
        var blocked = 0
        var previous: MatchLink?
        for link in links {
            if let previous, previous.a == link.a && previous.b == link.b { continue }
            previous = link
            let ra = sets.find(link.a)
            let rb = sets.find(link.b)
            if ra == rb { continue }
            let right = sets.members(rb)
            let allMatch = sets.members(ra).allSatisfy { x in right.allSatisfy { relation(Int(x), Int($0)) != nil } }
            if allMatch {
                sets.union(ra, rb)
                accepted.append(link)
            } else {
                blocked += 1
            }
        }
        return blocked
    }

    /// The multi-record clusters, members in precedence order, each with the links that merged it.
    private func collect(_ sets: inout DisjointSets, accepted: [MatchLink], blocked: Int) -> Clustering {
        let n = table.count
        var root = [Int32](repeating: 0, count: n)
        for i in 0..<Int32(n) { root[Int(i)] = sets.find(i) }
        var clusterIndex: [Int32: Int] = [:]
        var clusters: [[Int32]] = []
        for i in 0..<Int32(n) where sets.size[Int(root[Int(i)])] > 1 && root[Int(i)] == i {
            clusterIndex[i] = clusters.count
            clusters.append(sets.members(i).sorted { table.precedes(Int($0), Int($1)) })
        }
        var clusterLinks = [[MatchLink]](repeating: [], count: clusters.count)
        for link in accepted {
            if let c = clusterIndex[root[Int(link.a)]] { clusterLinks[c].append(link) }
        }
        return Clustering(root: root, clusters: clusters, links: clusterLinks, blockedByChaining: blocked)
    }
}

/// Union-find over record indexes with path halving, union by size (ties to the smaller content
/// key, so roots never depend on input order), and a circular member list per set.
struct DisjointSets {
    private var parent: [Int32]
    private var next: [Int32]
    private(set) var size: [Int32]
    private let keys: [StableKey]

    init(keys: [StableKey]) {
        let n = keys.count
        parent = [Int32](0..<Int32(n))
        next = [Int32](0..<Int32(n))
        size = [Int32](repeating: 1, count: n)
        self.keys = keys
    }

    /// The representative of `x`'s set.
    mutating func find(_ x: Int32) -> Int32 {
        var x = x
        while parent[Int(x)] != x {
            parent[Int(x)] = parent[Int(parent[Int(x)])]
            x = parent[Int(x)]
        }
        return x
    }

    /// Merges the sets of `a` and `b`.
    mutating func union(_ a: Int32, _ b: Int32) {
        var ra = find(a)
        var rb = find(b)
        guard ra != rb else { return }
        if size[Int(ra)] < size[Int(rb)] || (size[Int(ra)] == size[Int(rb)] && keys[Int(rb)] < keys[Int(ra)]) {
            swap(&ra, &rb)
        }
        parent[Int(rb)] = ra
        size[Int(ra)] += size[Int(rb)]
        let t = next[Int(ra)]
        next[Int(ra)] = next[Int(rb)]
        next[Int(rb)] = t
    }

    /// The members of the set whose root is `root`, root first.
    func members(_ root: Int32) -> [Int32] {
        var result = [root]
        var x = next[Int(root)]
        while x != root {
            result.append(x)
            x = next[Int(x)]
        }
        return result
    }
}
