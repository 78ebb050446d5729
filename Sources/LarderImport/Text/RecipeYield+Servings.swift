extension RecipeYield {
    /// The servings a yield states as servings: a number alone (`4`) or with `servings`,
    /// `portions`, `people` or `persons` (German `Portionen`/`Personen`, as RezKonv's `Menge:`
    /// has them, French `personnes`); `nil` for any other yield (`2 quarts`, `1 pie`), which
    /// ``servings(_:)`` would read as a count.
    static func servingsAlone(_ text: String) -> Int? {
        let words = text.split(separator: " ")
        guard let first = words.first, let number = Int(first), number > 0 else { return nil }
        let rest = words.dropFirst().map { $0.lowercased() }
        let servingWords: Set<String> = [
            "servings", "serving", "portions", "portion", "people", "persons", "portionen", "personen", "personnes",
        ]
        guard let unit = rest.first else { return number }
        return servingWords.contains(unit) ? number : nil
    }
}
