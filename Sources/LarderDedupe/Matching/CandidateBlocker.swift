/// How candidate pairs are found without comparing every record with every other.
public struct BlockingPlan: Sendable, Hashable {
    /// Bands that combine MinHash over title trigrams with MinHash over ingredient words.
    public var combinedBands = 5
    /// Title-trigram MinHash values per band.
    public var titleRows = 3
    /// Ingredient-word MinHash values per band.
    public var ingredientRows = 2
    /// Buckets up to this size compare all pairs; larger ones use a sorted window.
    public var smallBucket = 24
    /// The window of the sorted-neighbourhood comparison in large buckets.
    public var window = 8

    /// The default plan.
    public init() {}

    /// The number of bands: one for the title words, then the combined bands.
    public var bandCount: Int { 1 + combinedBands }
}

/// Produces candidate pairs by blocking: records that share a band key are compared.
///
/// Band 0 is the title's words (filler removed, singular, sorted): titles that differ only in
/// case, punctuation, spacing or word order share it. The other bands are LSH over two
/// MinHash signatures at once, title character trigrams ("title shingles") and ingredient
/// words: a pair lands in the same bucket of a band with probability about
/// `Jt^titleRows × Ji^ingredientRows` (the Jaccard similarities), so duplicates (Jt ≈ 1,
/// Ji ≈ 0.8) almost always meet in some band while different recipes of the same dish
/// rarely do. A fuzzy match needs both a similar title and similar ingredients anyway.
///
/// Buckets up to ``BlockingPlan/smallBucket`` records compare all pairs; larger ones (a
/// popular title, a dense dish) are sorted by a second key and each record is compared with
/// the next ``BlockingPlan/window`` records, so the work stays linear in the number of
/// records however skewed the data: at most `records × bands × window` comparisons.
package struct CandidateBlocker: Sendable {
    package let plan: BlockingPlan

    package init(plan: BlockingPlan) {
        self.plan = plan
    }

    /// The key of record `i` in `band`, or `nil` when the record has nothing to block on there.
    package func key(_ i: Int, band: Int, in table: FeatureTable) -> UInt64? {
        if band == 0 { return titleWordsKey(i, in: table) }
        guard table.tokenCount(i) > 0 else { return nil }
        var hasher = StableHasher(seed: 0xB10C &+ UInt64(band))
        let hasTitle = table.withTitle(i) { title -> Bool in
            guard !title.isEmpty else { return false }
            for row in 0..<plan.titleRows {
                hasher.combine(Self.minTrigram(title, seed: UInt64(band * 64 + row)))
            }
            return true
        }
        guard hasTitle else { return nil }
        for row in 0..<plan.ingredientRows {
            hasher.combine(table.minScrambledToken(i, seed: 0x696E_6772 &+ UInt64(band * 64 + row)))
        }
        return hasher.finalize()
    }

    /// The smallest hash over the trigrams of ` title `.
    private static func minTrigram(_ title: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var minimum = UInt64.max
        var before: UInt64 = 0x20
        var previous: UInt64 = 0x20
        for byte in title {
            let current = UInt64(byte)
            let h = StableHasher.scramble(before << 16 | previous << 8 | current, seed: seed)
            if h < minimum { minimum = h }
            before = previous
            previous = current
        }
        let last = StableHasher.scramble(before << 16 | previous << 8 | 0x20, seed: seed)
        return min(minimum, last)
    }

    /// The hash of the sorted title words.
    package func titleWordsKey(_ i: Int, in table: FeatureTable) -> UInt64 {
        table.withTitle(i) { title in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: title.count / 2 + 2) { words in
                var n = 0
                var start = 0
                for k in 0...title.count where k == title.count || title[k] == 0x20 {
                    if k > start {
                        words[n] = StableHasher.hash(UnsafeBufferPointer(rebasing: title[start..<k]), seed: 0x7477)
                        n += 1
                    }
                    start = k + 1
                }
                var used = UnsafeMutableBufferPointer(rebasing: words[0..<n])
                used.sort()
                var hasher = StableHasher(seed: 0x746B)
                for word in used { hasher.combine(word) }
                return hasher.finalize()
            }
        }
    }

    /// Whether records `i` and `j` share any band key (they were compared).
    package func areCandidates(_ i: Int, _ j: Int, in table: FeatureTable) -> Bool {
        for band in 0..<plan.bandCount {
            if let a = key(i, band: band, in: table), a == key(j, band: band, in: table) { return true }
        }
        return false
    }

    /// Calls `body` with every candidate pair of `band` (a pair may come again from another band).
    ///
    /// The band's keys and record numbers are two columns sorted in place (12 bytes a record);
    /// the order inside a bucket does not matter for small buckets (all pairs) and large ones
    /// are sorted by ``secondaryKey(_:forTitleBand:in:)``, then content key, then record.
    package func forEachPair(band: Int, in table: FeatureTable, _ body: (Int, Int) -> Void) {
        var keys: [UInt64] = []
        var records: [UInt32] = []
        keys.reserveCapacity(table.count)
        records.reserveCapacity(table.count)
        for i in 0..<table.count {
            if let k = key(i, band: band, in: table) {
                keys.append(k)
                records.append(UInt32(i))
            }
        }
        keys.withUnsafeMutableBufferPointer { k in
            records.withUnsafeMutableBufferPointer { r in KeyedSort.sort(keys: k, records: r) }
        }
        var start = 0
        var bucket: [(secondary: UInt64, record: UInt32)] = []
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] == keys[start] { end += 1 }
            let size = end - start
            if size > 1 && size <= plan.smallBucket {
                for x in start..<end {
                    for y in (x + 1)..<end { body(Int(records[x]), Int(records[y])) }
                }
            } else if size > plan.smallBucket {
                bucket.removeAll(keepingCapacity: true)
                for x in start..<end {
                    let i = Int(records[x])
                    bucket.append((secondaryKey(i, forTitleBand: band == 0, in: table), records[x]))
                }
                bucket.sort {
                    if $0.secondary != $1.secondary { return $0.secondary < $1.secondary }
                    let (a, b) = (table.key[Int($0.record)], table.key[Int($1.record)])
                    return a != b ? a < b : $0.record < $1.record
                }
                for x in 0..<bucket.count {
                    for y in (x + 1)..<min(bucket.count, x + 1 + plan.window) {
                        body(Int(bucket[x].record), Int(bucket[y].record))
                    }
                }
            }
            start = end
        }
    }

    /// The second sort key of a record inside large buckets.
    ///
    /// For band 0 (one title) the ingredient signature, so similar ingredient lists sit together;
    /// for the other bands the title words, so equal titles sit together. Computed only for the
    /// records of large buckets.
    package func secondaryKey(_ i: Int, forTitleBand: Bool, in table: FeatureTable) -> UInt64 {
        guard forTitleBand else { return titleWordsKey(i, in: table) }
        return table.minScrambledToken(i, seed: 0x5EC0)
    }
}
