import LarderCore
import LarderTestSupport
import Testing

@testable import LarderImport

/// The leaf census looks for a step's label in its token hashes; the definition it must keep is
/// the one over token strings (an optional step word, then digits alone, then more tokens).
@Suite struct LeafStepLabelTests {

    /// The definition, over token strings.
    private static func withoutStepLabel(_ tokens: [String]) -> [String]? {
        var rest = tokens[...]
        if let first = rest.first, StepLabel.words.contains(first) { rest = rest.dropFirst() }
        guard let number = rest.first, !number.isEmpty, number.allSatisfy(\.isNumber), rest.count > 1 else {
            return nil
        }
        return Array(rest.dropFirst())
    }

    @Test("labelled and unlabelled steps: the hash answer is the token answer")
    func hashesAgreeWithTokens() {
        var texts = [
            "Step 1: Roast the rice.", "Étape 2 : mélanger la farine", "2. Bake", "Schritt 3 Teig ruhen lassen",
            "Step one: mix", "1", "Step 12", "2.5 cups of flour", "Step 2.5: rest", "05 minutes", "step1Mix",
            "ステップ 3 混ぜる", "#4) Fold in", "&amp; 2 eggs", "Stap 07: roeren", "", "Step", "Add 2 eggs",
        ]
        var generator = SeededGenerator(seed: 91)
        let pieces = ["Step", "step", "Paso", "étape", " ", "1", "2.5", "07", ":", ".", "Mix", "x", "½", "<b>", "3rd"]
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...6, using: &generator)
            texts.append((0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined())
        }
        for text in texts {
            var wholeNumbers: [Bool]? = []
            let hashes = LeafText.hashes(text, wholeNumbers: &wholeNumbers)
            #expect(hashes == LeafText.tokens(text).map(LeafText.hash), "\(text)")
            let expected = Self.withoutStepLabel(LeafText.tokens(text))?.map(LeafText.hash)
            #expect(StepLabel.withoutLabel(hashes, wholeNumbers: wholeNumbers ?? []) == expected, "\(text)")
        }
    }
}
