/// Brew methods (BrewGuide `BrewMethod`); the MVP ships V60, the rest are common pour-over
/// and immersion methods that Beanconqueror exports.
public enum BrewMethod: String, Sendable, Hashable, CaseIterable {
    case v60, chemex, kalitaWave, aeropress, frenchPress, origami, clever, mokaPot, espresso, coldBrew, other
}

/// Where a brew recipe came from (BrewGuide `RecipeOrigin`).
public enum RecipeOrigin: String, Sendable, Hashable, CaseIterable {
    /// Seeded on first launch; cannot be deleted.
    case starter
    /// Made or duplicated by the user.
    case custom
    /// Created when a sync conflict kept both sides.
    case conflictedCopy
}

/// Grind size labels (BrewGuide `GrindLabel`).
public enum GrindLabel: String, Sendable, Hashable, CaseIterable {
    case extraFine, fine, mediumFine, medium, mediumCoarse, coarse, extraCoarse
}

/// Taste feedback tags (BrewGuide `TasteTag`).
public enum TasteTag: String, Sendable, Hashable, CaseIterable {
    case tooBitter, tooSour, tooWeak, tooStrong, balanced, sweet, astringent, flat
}
