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

    /// Builds the clusters from candidate links (which may repeat).
    package func cluster(candidates: [MatchLink]) -> Clustering {
        let n = table.count
        var parent = [Int32](0..<Int32(n))
        var next = [Int32](0..<Int32(n))  // circular member lists
        var size = [Int32](repeating: 1, count: n)
        var accepted: [MatchLink] = []

        func find(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x {
                parent[Int(x)] = parent[Int(parent[Int(x)])]
                x = parent[Int(x)]
            }
            return x
        }
        func union(_ a: Int32, _ b: Int32) {
            var ra = find(a)
            var rb = find(b)
            guard ra != rb else { return }
            if size[Int(ra)] < size[Int(rb)]
                || (size[Int(ra)] == size[Int(rb)] && table.key[Int(rb)] < table.key[Int(ra)])
            {
                swap(&ra, &rb)
            }
            parent[Int(rb)] = ra
            size[Int(ra)] += size[Int(rb)]
            let t = next[Int(ra)]
            next[Int(ra)] = next[Int(rb)]
            next[Int(rb)] = t
        }
        func members(_ root: Int32) -> [Int32] {
            var result = [root]
            var x = next[Int(root)]
            while x != root {
                result.append(x)
                x = next[Int(x)]
            }
            return result
        }

        // Stage 1: the same record fetched twice (same id, or same record name).
        for (hashes, rule) in [(table.idHash, MatchRule.sameID), (table.recordNameHash, MatchRule.sameRecordName)] {
            var order = Array(0..<Int32(n))
            order.sort {
                hashes[Int($0)] != hashes[Int($1)]
                    ? hashes[Int($0)] < hashes[Int($1)] : table.key[Int($0)] < table.key[Int($1)]
            }
            var i = 0
            while i < order.count {
                var j = i + 1
                while j < order.count && hashes[Int(order[j])] == hashes[Int(order[i])] { j += 1 }
                if j - i > 1 {
                    // Within equal hashes, group by the actual id (hash collisions never merge).
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
                    for group in groups where group.count > 1 {
                        for k in 1..<group.count where find(group[0]) != find(group[k]) {
                            union(group[0], group[k])
                            accepted.append(MatchLink(a: group[0], b: group[k], rule: rule, total: 1))
                        }
                    }
                }
                i = j
            }
        }

        // Stages 2-4 by strength: stage, then score, then content keys.
        var links = candidates
        links.sort { x, y in
            if x.rule != y.rule { return x.rule < y.rule }
            if x.total != y.total { return x.total > y.total }
            if table.key[Int(x.a)] != table.key[Int(y.a)] { return table.key[Int(x.a)] < table.key[Int(y.a)] }
            return table.key[Int(x.b)] < table.key[Int(y.b)]
        }
        var blocked = 0
        var previous: MatchLink?
        for link in links {
            if let previous, previous.a == link.a && previous.b == link.b { continue }
            previous = link
            let ra = find(link.a)
            let rb = find(link.b)
            if ra == rb { continue }
            let left = members(ra)
            let right = members(rb)
            var allMatch = true
            outer: for x in left {
                for y in right where relation(Int(x), Int(y)) == nil {
                    allMatch = false
                    break outer
                }
            }
            if allMatch {
                union(ra, rb)
                accepted.append(link)
            } else {
                blocked += 1
            }
        }

        // Collect multi-record clusters, members in precedence order.
        var root = [Int32](repeating: 0, count: n)
        for i in 0..<Int32(n) { root[Int(i)] = find(i) }
        var clusterIndex: [Int32: Int] = [:]
        var clusters: [[Int32]] = []
        for i in 0..<Int32(n) where size[Int(root[Int(i)])] > 1 && root[Int(i)] == i {
            clusterIndex[i] = clusters.count
            clusters.append(members(i).sorted { table.precedes(Int($0), Int($1)) })
        }
        var clusterLinks = [[MatchLink]](repeating: [], count: clusters.count)
        for link in accepted {
            if let c = clusterIndex[root[Int(link.a)]] { clusterLinks[c].append(link) }
        }
        return Clustering(root: root, clusters: clusters, links: clusterLinks, blockedByChaining: blocked)
    }
}
