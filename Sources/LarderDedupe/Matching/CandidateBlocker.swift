/// How candidate pairs are found without comparing every record with every other.
public struct BlockingPlan: Sendable, Hashable {
    /// MinHash bands over ingredient words.
    public var ingredientBands = 8
    /// MinHash values per ingredient band (more rows: fewer, closer candidates).
    public var ingredientRows = 3
    /// MinHash bands over title character trigrams.
    public var titleBands = 2
    /// MinHash values per title band.
    public var titleRows = 5
    /// Buckets up to this size compare all pairs; larger ones use a sorted window.
    public var smallBucket = 48
    /// The window of the sorted-neighbourhood comparison in large buckets.
    public var window = 16
    /// Ingredient words in more than this fraction of records (and more than `commonMinimum`)
    /// are left out of the ingredient MinHash, like stop words: salt, oil, water.
    public var commonFraction = 0.02
    /// See ``commonFraction``.
    public var commonMinimum = 1000

    /// The default plan.
    public init() {}

    /// The number of bands: one for the title words, then ingredient bands, then title bands.
    public var bandCount: Int { 1 + ingredientBands + titleBands }
}

/// Produces candidate pairs by blocking: records that share a band key are compared.
///
/// Band 0 is the title's words (filler removed, singular, sorted): every title that differs
/// only in case, punctuation, spacing or word order lands in the same bucket. The next
/// bands are MinHash/LSH over ingredient words (common words left out); the last are
/// MinHash/LSH over title trigrams. Buckets up to ``BlockingPlan/smallBucket`` records
/// compare all pairs; larger ones are sorted by a second key and each record is compared
/// with the next ``BlockingPlan/window`` records, so the work stays linear in the number
/// of records however skewed the data.
package struct CandidateBlocker: Sendable {
    package let plan: BlockingPlan
    private let commonTokens: Set<UInt32>

    /// Prepares blocking over `table`: counts how common each ingredient word is.
    package init(table: FeatureTable, plan: BlockingPlan) {
        self.plan = plan
        let limit = max(plan.commonMinimum, Int(plan.commonFraction * Double(table.count)))
        var frequency: [UInt32: Int32] = [:]
        if table.count > limit {
            for i in 0..<table.count {
                table.withTokens(i) { tokens in
                    for token in tokens { frequency[token, default: 0] += 1 }
                }
            }
        }
        commonTokens = Set(frequency.lazy.filter { $0.value > Int32(limit) }.map(\.key))
    }

    /// The number of words treated as common.
    package var commonTokenCount: Int { commonTokens.count }

    /// The key of record `i` in `band`, or `nil` when the record has nothing to block on there.
    package func key(_ i: Int, band: Int, in table: FeatureTable) -> UInt64? {
        if band == 0 { return titleWordsKey(i, in: table) }
        if band <= plan.ingredientBands {
            return table.withTokens(i) { all -> UInt64? in
                var kept = all.filter { !commonTokens.contains($0) }
                if kept.count < 2 { kept = Array(all) }
                guard !kept.isEmpty else { return nil }
                return kept.withUnsafeBufferPointer { minHashBand($0, band: band, rows: plan.ingredientRows, seed: 0x696E) }
            }
        }
        return table.withTitle(i) { title -> UInt64? in
            guard title.count >= 3 else { return nil }
            var grams: [UInt32] = []
            grams.reserveCapacity(title.count)
            var previous: UInt32 = 0x20
            var before: UInt32 = 0x20
            for byte in title {
                let current = UInt32(byte)
                grams.append(before << 16 | previous << 8 | current)
                before = previous
                previous = current
            }
            grams.append(before << 16 | previous << 8 | 0x20)
            return grams.withUnsafeBufferPointer { minHashBand($0, band: band, rows: plan.titleRows, seed: 0x7469) }
        }
    }

    /// The hash of the sorted title words.
    package func titleWordsKey(_ i: Int, in table: FeatureTable) -> UInt64 {
        table.withTitle(i) { title in
            var words: [UInt64] = []
            for word in title.split(separator: 0x20) {
                words.append(StableHasher.hash(UnsafeBufferPointer(rebasing: word), seed: 0x7477))
            }
            words.sort()
            var hasher = StableHasher(seed: 0x746B)
            for word in words { hasher.combine(word) }
            return hasher.finalize()
        }
    }

    private func minHashBand(_ items: UnsafeBufferPointer<UInt32>, band: Int, rows: Int, seed: UInt64) -> UInt64 {
        var hasher = StableHasher(seed: seed &+ UInt64(band))
        for row in 0..<rows {
            let rowSeed = seed &* 0x9E37_79B9 &+ UInt64(band * 64 + row)
            var minimum = UInt64.max
            for item in items {
                let h = StableHasher.scramble(UInt64(item), seed: rowSeed)
                if h < minimum { minimum = h }
            }
            hasher.combine(minimum)
        }
        return hasher.finalize()
    }

    /// Whether records `i` and `j` share any band key (they were compared).
    package func areCandidates(_ i: Int, _ j: Int, in table: FeatureTable) -> Bool {
        for band in 0..<plan.bandCount {
            if let a = key(i, band: band, in: table), a == key(j, band: band, in: table) { return true }
        }
        return false
    }

    /// Calls `body` with every candidate pair of `band` (a pair may come again from another band).
    package func forEachPair(band: Int, in table: FeatureTable, secondary: [UInt64], _ body: (Int, Int) -> Void) {
        var entries: [(key: UInt64, record: UInt32)] = []
        entries.reserveCapacity(table.count)
        for i in 0..<table.count {
            if let k = key(i, band: band, in: table) { entries.append((k, UInt32(i))) }
        }
        entries.sort { $0.key != $1.key ? $0.key < $1.key : table.key[Int($0.record)] < table.key[Int($1.record)] }
        var start = 0
        var bucket: [UInt32] = []
        while start < entries.count {
            var end = start + 1
            while end < entries.count && entries[end].key == entries[start].key { end += 1 }
            let size = end - start
            if size > 1 && size <= plan.smallBucket {
                for x in start..<end {
                    for y in (x + 1)..<end { body(Int(entries[x].record), Int(entries[y].record)) }
                }
            } else if size > plan.smallBucket {
                bucket.removeAll(keepingCapacity: true)
                for x in start..<end { bucket.append(entries[x].record) }
                bucket.sort {
                    secondary[Int($0)] != secondary[Int($1)]
                        ? secondary[Int($0)] < secondary[Int($1)] : table.key[Int($0)] < table.key[Int($1)]
                }
                for x in 0..<bucket.count {
                    for y in (x + 1)..<min(bucket.count, x + 1 + plan.window) { body(Int(bucket[x]), Int(bucket[y])) }
                }
            }
            start = end
        }
    }

    /// The second sort key of each record inside large buckets: the title words (for
    /// ingredient bands) or the first ingredient MinHash (for title bands).
    package func secondaryKeys(titleWords: Bool, in table: FeatureTable) -> [UInt64] {
        var keys = [UInt64](repeating: 0, count: table.count)
        for i in 0..<table.count {
            keys[i] = titleWords ? titleWordsKey(i, in: table) : (key(i, band: 1, in: table) ?? 0)
        }
        return keys
    }

    /// Whether `band` uses title-word secondary keys in large buckets.
    package func usesTitleWordSecondary(_ band: Int) -> Bool { band >= 1 && band <= plan.ingredientBands }
}
