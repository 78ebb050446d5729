import Foundation
import Testing

@testable import LarderDedupe

@Suite struct NormalizationTests {
    @Test(
        "titles that differ in case, punctuation, spacing and accents normalize alike",
        arguments: [
            ("  Spicy  Garlic-Chicken Stir Fry! ", "spicy garlic chicken stir fry"),
            ("SPICY GARLIC CHICKEN STIR-FRY", "spicy garlic chicken stir fry"),
            ("Mom's Crème Brûlée", "moms creme brulee"),
            ("Mom’s   Crème-Brûlée.", "moms creme brulee"),
            ("Jalapeño Poppers (Baked)", "jalapeno poppers baked"),
        ])
    func normalizesTitles(raw: String, expected: String) {
        #expect(String(decoding: TextNormalizer.normalize(raw), as: UTF8.self) == expected)
    }

    @Test("the title key drops filler words and plurals and keeps the dish")
    func titleKey() {
        let key = { (title: String) in
            String(decoding: RecordFeatures.titleKey(TextNormalizer.normalize(title)), as: UTF8.self)
        }
        #expect(key("The Best Easy Banana Bread Recipe") == key("banana bread"))
        #expect(key("The Best Easy Banana Bread Recipe").split(separator: " ").count == 2)
        #expect(key("Chocolate Chip Cookies") == key("chocolate chip cookie"))
        #expect(key("The Best") == "the best", "a title of filler only is kept whole")
    }

    @Test(
        "singular and plural meet",
        arguments: [
            ("eggs", "egg"), ("berries", "berry"), ("tomatoes", "tomato"), ("peaches", "peach"), ("boxes", "box"),
            ("cookies", "cookie"), ("pies", "pie"), ("brownies", "brownie"), ("peas", "pea"), ("oats", "oat"),
            ("glass", "glass"), ("asparagus", "asparagus"),
        ])
    func singular(word: String, expected: String) {
        let form = { (w: String) in TextNormalizer.singular(Array(w.utf8)[...]) }
        #expect(form(word) == form(expected))
        let hash = Array(word.utf8).withUnsafeBufferPointer { TextNormalizer.singularHash($0) }
        #expect(hash == MatchVocabulary.tokenHash(form(expected)), "the allocation-free hash agrees")
    }

    @Test(
        "quantities are recognised as numbers, words are not",
        arguments: [("200g", true), ("½", true), ("1/2", true), ("flour", false)])
    func digits(word: String, isQuantity: Bool) {
        #expect(TextNormalizer.hasDigit(Array(word.utf8)[...]) == isQuantity)
    }

    @Test(
        "source URLs ignore scheme, www, trailing slash, fragments and tracking parameters",
        arguments: [
            ("https://www.Example.com/recipes/pasta/", "example.com/recipes/pasta"),
            ("http://example.com/recipes/pasta?utm_source=pinterest&utm_medium=social", "example.com/recipes/pasta"),
            ("example.com/recipes/pasta#jump-to-recipe", "example.com/recipes/pasta"),
            ("https://example.com:443/recipes/pasta?b=2&fbclid=x&a=1", "example.com/recipes/pasta?a=1&b=2"),
            ("//cdn.example.com/r/1", "cdn.example.com/r/1"),
        ])
    func normalizesURLs(raw: String, expected: String) {
        #expect(SourceURLNormalizer.normalize(raw) == expected)
    }

    @Test("a bare site or a non-URL never matches on its own")
    func siteRootsAndNonURLs() {
        #expect(
            SourceURLNormalizer.normalize("https://www.example.com/").map {
                SourceURLNormalizer.isSiteRoot(Array($0.utf8))
            } == true)
        #expect(SourceURLNormalizer.normalize("   ") == nil)
        #expect(SourceURLNormalizer.normalize("grandma's notebook") == nil)
    }

    @Test("the stable hash is the same in every run and differs by seed")
    func stableHash() {
        #expect(StableHasher.hash("larder") == StableHasher.hash("larder"))
        #expect(StableHasher.hash("larder", seed: 1) != StableHasher.hash("larder", seed: 2))
        #expect(StableHasher.hash("ab") != StableHasher.hash("ba"))
        // Pinned: a change here changes every fingerprint and output order.
        #expect(StableHasher.hash("pancakes") == StableHasher.hash(Array("pancakes".utf8)))
    }
}
