import LarderCore
import LarderImport
import Testing

/// The ASCII fast paths of the import's hottest text helpers agree with their Unicode reference.
@Suite struct TextFastPathTests {
    /// Every ASCII scalar, and non-ASCII ones that matter to the helpers (no-break and wide spaces,
    /// zero-width space, BOM, letters that change length when lowercased).
    static let alphabet: [Unicode.Scalar] =
        (0...127).compactMap { Unicode.Scalar(UInt32($0)) }
        + ["\u{A0}", "\u{85}", "\u{2003}", "\u{200B}", "\u{FEFF}", "é", "ß", "İ", "ﬁ", "Ω", "٣", "\u{3000}"]

    static func text(_ random: inout SeededGenerator, asciiOnly: Bool) -> String {
        var out = String.UnicodeScalarView()
        let pool = asciiOnly ? Array(alphabet.prefix(128)) : alphabet
        for _ in 0..<Int(random.next() % 24) { out.append(pool[Int(random.next() % UInt64(pool.count))]) }
        return String(out)
    }

    @Test("normalizedName and collapseWhitespace agree with their scalar references on 40,000 seeded texts")
    func agree() {
        var random = SeededGenerator(seed: 2026)
        for index in 0..<40_000 {
            let text = Self.text(&random, asciiOnly: index % 2 == 0)
            #expect(
                PlainRecipe.normalizedName(text) == PlainRecipe.normalizedNameByScalars(text),
                "\(text.debugDescription)")
            #expect(
                HTMLText.collapseWhitespace(text) == HTMLText.collapseWhitespaceByScalars(text),
                "\(text.debugDescription)")
        }
        #expect(PlainRecipe.normalizedName("Prep_Time") == "preptime")
        #expect(HTMLText.collapseWhitespace("  a \t\n b\r\n") == "a b")
    }
}
