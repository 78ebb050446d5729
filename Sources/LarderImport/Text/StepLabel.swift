/// Step names that only number the step.
///
/// `Step 1`, `stap 3:`, `Schritt 2`, `step1`, `Étape 4`, `1.`, `#2`, `Paso 5)`: a recipe's steps
/// keep their order, so such a name says nothing; it is neither a heading nor a step of its own.
enum StepLabel {
    /// "Step" in the languages of the recipe sites Larder reads.
    static let words: Set<String> = [
        "step", "stap", "schritt", "étape", "etape", "paso", "passo", "passaggio", "krok", "steg", "trin", "vaihe",
        "lépés", "adım", "adim", "шаг", "βήμα", "fase", "etapa", "stage", "stadium", "korak", "pas", "bước", "ステップ",
        "步骤", "步驟", "단계",
    ]

    /// Whether `name` is a step word (or none) and a number, with at most a closing `.`, `:` or `)`.
    static func onlyNumbers(_ name: String) -> Bool {
        var scalars = Substring(name.lowercased()).unicodeScalars[...]
        func trimSpace() {
            while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
            while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        }
        trimSpace()
        while let last = scalars.last, ".:)-–".unicodeScalars.contains(last) { scalars.removeLast() }
        trimSpace()
        var digits = 0
        while let last = scalars.last, ("0"..."9").contains(last) {
            scalars.removeLast()
            digits += 1
        }
        guard (1...3).contains(digits) else { return false }
        trimSpace()
        if scalars.last == "#" { scalars.removeLast() }
        trimSpace()
        let word = String(String.UnicodeScalarView(scalars))
        return word.isEmpty || words.contains(word)
    }

    /// A step's token hashes without the label that numbers it, or nil when it has none.
    ///
    /// The label is an optional step word, then a whole number, then more (`step 1 …`, `1 …`); the
    /// hashes are ``LeafText/hashes(_:wholeNumbers:)``'s. The leaf census asks it of a step it does
    /// not find as it is.
    static func withoutLabel(_ hashes: [UInt64], wholeNumbers: [Bool]) -> [UInt64]? {
        var start = 0
        if let first = hashes.first, wordHashes.contains(first) { start = 1 }
        guard start < hashes.count, wholeNumbers[start], hashes.count - start > 1 else { return nil }
        return Array(hashes[(start + 1)...])
    }

    /// The hashes of the step words, as ``LeafText/hash(_:)`` gives a token's.
    private static let wordHashes = Set(words.map(LeafText.hash))
}
