/// The words matching ignores: filler in titles, and quantities, units and preparation words
/// in ingredient lines (so `2 cups finely chopped onions` and `onion, diced` agree on `onion`).
package enum MatchVocabulary {
    /// Seed of the token hash; tokens are compared by this hash.
    package static let tokenSeed: UInt64 = 0x746F_6B65_6E73

    /// The stable hash of one word.
    @inline(__always)
    package static func tokenHash(_ word: ArraySlice<UInt8>) -> UInt64 {
        StableHasher.hash(word, seed: tokenSeed)
    }

    /// The stable hash of one word.
    @inline(__always)
    package static func tokenHash(_ word: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = StableHasher(seed: tokenSeed)
        hasher.combine(bytes: UnsafeRawBufferPointer(word))
        return hasher.finalize()
    }

    /// Title words that do not name the dish.
    package static let titleFiller = HashSet64(
        hashes(
            """
            a an the and with of in on for to my our your best easy simple quick homemade classic perfect ultimate
            ever recipe favorite favourite style copy version really super amazing delicious yummy tasty famous
            """))

    /// Ingredient words that are units, amounts or preparation, not the ingredient.
    package static let ingredientFiller = HashSet64(
        hashes(
            """
            cup c tbsp tbs tbl tablespoon tsp teaspoon g gr gram kg kilogram mg ml milliliter millilitre l liter litre
            dl cl oz ounce lb pound pinch dash handful can tin jar package pkg packet bag box bunch sprig slice stick
            piece quart qt pint pt gallon inch cm mm heaped heaping level scant generous
            fresh freshly chopped finely roughly coarsely diced minced sliced thinly thickly grated shredded crushed
            ground large small medium extra big whole halved quartered peeled seeded cored trimmed rinsed drained
            softened melted room temperature cold warm divided plus more about approximately approx packed
            to taste optional for serving garnish of and or a an the into cut lightly beaten well at such as needed
            if dried boneless skinless organic raw uncooked sifted unsalted salted good quality store bought
            preferably ripe firm some few x
            """))

    private static func hashes(_ words: String) -> Set<UInt64> {
        var set = Set<UInt64>()
        for word in words.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let bytes = Array(word.utf8)[...]
            set.insert(tokenHash(bytes))
            set.insert(tokenHash(TextNormalizer.singular(bytes)))
        }
        return set
    }
}

/// A fixed set of well-mixed 64-bit hashes with open addressing: a lookup is a multiply-free
/// index and one or two probes, much cheaper than `Set<UInt64>` in the per-word hot loop.
package struct HashSet64: Sendable {
    private let slots: [UInt64]
    private let mask: Int

    package init(_ values: Set<UInt64>) {
        var size = 16
        while size < values.count * 4 { size *= 2 }
        var table = [UInt64](repeating: 0, count: size)
        for value in values where value != 0 {
            var i = Int(truncatingIfNeeded: value) & (size - 1)
            while table[i] != 0 { i = (i + 1) & (size - 1) }
            table[i] = value
        }
        slots = table
        mask = size - 1
    }

    @inline(__always)
    package func contains(_ value: UInt64) -> Bool {
        var i = Int(truncatingIfNeeded: value) & mask
        while true {
            let slot = slots[i]
            if slot == value { return value != 0 }
            if slot == 0 { return false }
            i = (i + 1) & mask
        }
    }
}
