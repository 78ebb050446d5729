package import LarderCore

/// What matching knows about one recipe.
///
/// The normalized title, ingredient tokens, fingerprint, source URL and the numbers it compares.
/// Built once per record in the first pass.
package struct RecordFeatures: Sendable, Hashable {
    /// The title's words, filler removed and singular, joined by spaces (`spicy garlic chicken stir fry`).
    package var titleKey: [UInt8]
    /// The hashes of the ingredient words (units, amounts and preparation removed), sorted, unique.
    package var ingredientTokens: [UInt32]
    /// How many ingredient lines the recipe has.
    package var ingredientCount: Int
    /// The hash of the normalized title and the multiset of normalized ingredient items; 0 when
    /// the recipe has no ingredients (a title alone does not identify a dish).
    package var fingerprint: UInt64
    /// The hash of the normalized source URL; 0 when absent or when it names a whole site.
    package var sourceURL: UInt64
    /// Minutes; -1 when absent.
    package var prepTime: Int32
    /// Minutes; -1 when absent.
    package var cookTime: Int32
    /// -1 when absent.
    package var servings: Int32

    /// Extracts the features of a recipe.
    package init(recipe: Recipe) {
        self.init(digest: RecipeDigest(recipe: recipe))
    }

    /// Extracts the features of a recipe's digest.
    package init(digest recipe: RecipeDigest) {
        let normalizedTitle = TextNormalizer.normalize(recipe.title)
        titleKey = Self.titleKey(normalizedTitle)
        var tokens: [UInt32] = []
        var itemHashes: [UInt64] = []
        itemHashes.reserveCapacity(recipe.ingredientTexts.count)
        var normalized: [UInt8] = []
        for text in recipe.ingredientTexts {
            TextNormalizer.normalize(text, into: &normalized)
            var item = StableHasher(seed: 0x6974_656D)
            var kept = 0
            normalized.withUnsafeBufferPointer { bytes in
                TextNormalizer.forEachWord(bytes) { word in
                    if TextNormalizer.hasDigit(word) { return }
                    let hash = TextNormalizer.singularHash(word)
                    if MatchVocabulary.ingredientFiller.contains(hash) { return }
                    tokens.append(UInt32(truncatingIfNeeded: hash))
                    item.combine(hash)
                    kept += 1
                }
            }
            if kept == 0 { item.combine(normalized) }
            itemHashes.append(item.finalize())
        }
        tokens.sort()
        ingredientTokens = Self.unique(tokens)
        ingredientCount = recipe.ingredientTexts.count
        if recipe.ingredientTexts.isEmpty {
            fingerprint = 0
        } else {
            itemHashes.sort()
            var hasher = StableHasher(seed: 0x6669_6E67)
            hasher.combine(normalizedTitle)
            for hash in itemHashes { hasher.combine(hash) }
            fingerprint = max(hasher.finalize(), 1)
        }
        if let raw = recipe.sourceURL, let url = SourceURLNormalizer.normalizedBytes(raw),
            !SourceURLNormalizer.isSiteRoot(url)
        {
            sourceURL = max(StableHasher.hash(url, seed: 0x7572_6C), 1)
        } else {
            sourceURL = 0
        }
        prepTime = Self.clamp(recipe.prepTime)
        cookTime = Self.clamp(recipe.cookTime)
        servings = Self.clamp(recipe.servings)
    }

    /// The title words without filler, singular; all words when every word is filler.
    package static func titleKey(_ normalizedTitle: [UInt8]) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(normalizedTitle.count)
        // Word by word in place: no array per word or per singular form.
        normalizedTitle.withUnsafeBufferPointer { title in
            TextNormalizer.forEachWord(title) { word in
                TextNormalizer.withSingular(word) { singular in
                    if MatchVocabulary.titleFiller.contains(MatchVocabulary.tokenHash(singular)) { return }
                    if !key.isEmpty { key.append(0x20) }
                    key.append(contentsOf: singular)
                }
            }
        }
        return key.isEmpty ? normalizedTitle : key
    }

    private static func clamp(_ value: Int?) -> Int32 {
        guard let value, value >= 0 else { return -1 }
        return Int32(min(value, Int(Int32.max)))
    }

    private static func unique(_ sorted: [UInt32]) -> [UInt32] {
        guard sorted.count > 1 else { return sorted }
        var result: [UInt32] = []
        result.reserveCapacity(sorted.count)
        for value in sorted where result.last != value { result.append(value) }
        return result
    }
}
