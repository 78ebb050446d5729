/// The similarity of two records, component by component.
public struct MatchScore: Sendable, Hashable, Codable {
    /// Title similarity, 0...1: the mean of word overlap and character-trigram overlap (Dice)
    /// of the normalized titles with filler words removed.
    public var title: Double
    /// Ingredient overlap, 0...1 (Dice over ingredient words); `nil` when either record has no ingredients.
    public var ingredients: Double?
    /// Agreement of prep time, cook time and servings, 0...1; `nil` when no number is present in both.
    public var agreement: Double?
    /// The weighted score, 0...1, over the components that are present.
    public var total: Double

    /// Creates a score.
    public init(title: Double, ingredients: Double?, agreement: Double?, total: Double) {
        self.title = title
        self.ingredients = ingredients
        self.agreement = agreement
        self.total = total
    }
}

/// Scores a pair of records for the fuzzy stage, and decides whether a pair passes.
///
/// `total = (0.45·title + 0.45·ingredients + 0.10·agreement) / (weights present)`.
/// A pair passes when `total ≥ threshold` **and** both gates hold: title ≥ 0.5 (so the same
/// ingredients under another dish's name stay apart) and ingredients ≥ 0.5 (so two different
/// dishes that share a title, "Pancakes" and "Pancakes", stay apart). A record without
/// ingredients never matches fuzzily: its title alone does not identify the dish.
public struct PairScorer: Sendable, Hashable {
    /// The minimum total for a fuzzy match.
    public var threshold: Double
    /// Weight of title similarity.
    public var titleWeight = 0.45
    /// Weight of ingredient overlap.
    public var ingredientWeight = 0.45
    /// Weight of time and servings agreement.
    public var agreementWeight = 0.10
    /// The minimum title similarity.
    public var titleGate = 0.5
    /// The minimum ingredient overlap.
    public var ingredientGate = 0.5

    /// The default threshold.
    public static let defaultThreshold = 0.85

    /// Creates a scorer.
    public init(threshold: Double = PairScorer.defaultThreshold) {
        self.threshold = threshold
    }

    /// Why a scored pair does or does not pass.
    public enum Verdict: String, Sendable, Hashable, Codable {
        case passes
        case belowThreshold = "below-threshold"
        case titleGate = "title-gate"
        case ingredientGate = "ingredient-gate"
        case noIngredients = "no-ingredients"
    }

    /// The verdict for a score.
    public func verdict(_ score: MatchScore) -> Verdict {
        guard let ingredients = score.ingredients else { return .noIngredients }
        if ingredients < ingredientGate { return .ingredientGate }
        if score.title < titleGate { return .titleGate }
        return score.total >= threshold ? .passes : .belowThreshold
    }

    /// Whether a score passes.
    public func passes(_ score: MatchScore) -> Bool { verdict(score) == .passes }

    /// Scores records `a` and `b` of `table`.
    package func score(_ a: Int, _ b: Int, in table: FeatureTable) -> MatchScore {
        let title = Self.titleSimilarity(a, b, in: table)
        var ingredients: Double?
        if table.hasIngredients(a) && table.hasIngredients(b) {
            ingredients = table.tokenOverlap(a, b)
        }
        var sum = 0.0
        var present = 0
        func agree(_ x: Int32, _ y: Int32) {
            guard x >= 0 && y >= 0 else { return }
            let high = Double(max(x, y, 1))
            sum += 1 - min(1, Double(abs(x - y)) / high)
            present += 1
        }
        agree(table.prepTime[a], table.prepTime[b])
        agree(table.cookTime[a], table.cookTime[b])
        agree(table.servings[a], table.servings[b])
        let agreement = present > 0 ? sum / Double(present) : nil
        var weighted = titleWeight * title
        var weights = titleWeight
        if let ingredients {
            weighted += ingredientWeight * ingredients
            weights += ingredientWeight
        }
        if let agreement {
            weighted += agreementWeight * agreement
            weights += agreementWeight
        }
        return MatchScore(title: title, ingredients: ingredients, agreement: agreement, total: weighted / weights)
    }

    /// Whether a pair cannot pass the fuzzy stage, judged on the cheap part alone (ingredient
    /// overlap, and the best total it allows): lets blocking discard most candidates before the
    /// title is compared.
    package func cannotPass(_ a: Int, _ b: Int, in table: FeatureTable) -> Bool {
        guard table.hasIngredients(a) && table.hasIngredients(b) else { return true }
        let ingredients = table.tokenOverlap(a, b)
        if ingredients < ingredientGate { return true }
        // With a perfect title and agreement the total is at most this: below the threshold, no match.
        let best =
            (titleWeight + ingredientWeight * ingredients + agreementWeight)
            / (titleWeight + ingredientWeight + agreementWeight)
        return best < threshold
    }

    /// Dice overlap of two sorted, unique arrays.
    @inline(__always)
    package static func dice<T: FixedWidthInteger>(_ x: UnsafeBufferPointer<T>, _ y: UnsafeBufferPointer<T>) -> Double {
        let total = x.count + y.count
        guard total > 0 else { return 1 }
        return Double(2 * intersectionCount(x, y)) / Double(total)
    }

    @inline(__always)
    private static func intersectionCount<T: FixedWidthInteger>(
        _ x: UnsafeBufferPointer<T>, _ y: UnsafeBufferPointer<T>
    ) -> Int {
        var i = 0
        var j = 0
        var common = 0
        // Branch-free steps: which side advances is data, not a jump the CPU must predict.
        while i < x.count && j < y.count {
            let u = x[i]
            let v = y[j]
            common &+= u == v ? 1 : 0
            i &+= u <= v ? 1 : 0
            j &+= v <= u ? 1 : 0
        }
        return common
    }

    /// Mean of word Dice and character-trigram Dice of two title keys; 1 when equal.
    package static func titleSimilarity(_ a: Int, _ b: Int, in table: FeatureTable) -> Double {
        table.withTitle(a) { x in
            table.withTitle(b) { y in
                if x.count == y.count && x.elementsEqual(y) { return 1 }
                return titleSimilarity(x, y)
            }
        }
    }

    /// Mean of word Dice and character-trigram Dice of two title keys.
    package static func titleSimilarity(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Double {
        let capacity = x.count + y.count + 4
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * capacity) { scratch in
            guard let base = scratch.baseAddress else { return 0 }  // never: the capacity is at least 8
            let xWords = words(x, into: base)
            let yWords = words(y, into: base + xWords)
            let wordDice = dice(
                UnsafeBufferPointer(start: base, count: xWords),
                UnsafeBufferPointer(start: base + xWords, count: yWords))
            let xGrams = trigrams(x, into: base)
            let yGrams = trigrams(y, into: base + xGrams)
            let gramDice = dice(
                UnsafeBufferPointer(start: base, count: xGrams),
                UnsafeBufferPointer(start: base + xGrams, count: yGrams))
            return (wordDice + gramDice) / 2
        }
    }

    /// Writes the sorted unique word hashes of a title key; returns how many.
    private static func words(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt32>) -> Int {
        var n = 0
        var hash: UInt32 = 2_166_136_261
        var length = 0
        for byte in text {
            if byte == 0x20 {
                if length > 0 {
                    out[n] = hash
                    n += 1
                }
                hash = 2_166_136_261
                length = 0
            } else {
                hash = (hash ^ UInt32(byte)) &* 16_777_619
                length += 1
            }
        }
        if length > 0 {
            out[n] = hash
            n += 1
        }
        return sortUnique(out, n)
    }

    /// Writes the sorted unique character trigrams of ` text `; returns how many.
    private static func trigrams(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt32>) -> Int {
        guard !text.isEmpty else { return 0 }
        var count = 0
        var before: UInt32 = 0x20
        var previous: UInt32 = 0x20
        for byte in text {
            let current = UInt32(byte)
            out[count] = before << 16 | previous << 8 | current
            count += 1
            before = previous
            previous = current
        }
        out[count] = before << 16 | previous << 8 | 0x20
        count += 1
        return sortUnique(out, count)
    }

    /// Sorts a short buffer in place (insertion sort: titles have a few dozen items) and removes repeats.
    private static func sortUnique(_ base: UnsafeMutablePointer<UInt32>, _ n: Int) -> Int {
        guard n > 1 else { return n }
        for i in 1..<n {
            let value = base[i]
            var j = i - 1
            while j >= 0 && base[j] > value {
                base[j + 1] = base[j]
                j -= 1
            }
            base[j + 1] = value
        }
        var kept = 1
        for i in 1..<n where base[kept - 1] != base[i] {
            base[kept] = base[i]
            kept += 1
        }
        return kept
    }
}
