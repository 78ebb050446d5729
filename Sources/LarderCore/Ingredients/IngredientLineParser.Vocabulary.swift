extension IngredientLineParser {
    /// What a word can mean on an ingredient line; one word may belong to several classes.
    struct WordClass: OptionSet, Sendable {
        let rawValue: UInt32

        /// `small`, `medium`, `large`: a size, kept out of the item and put in the note.
        static let size = WordClass(rawValue: 1 << 0)
        /// `heaping`, `level`, `good`: qualifies a unit that follows (`2 level tsp`, `good pinch`).
        static let unitModifier = WordClass(rawValue: 1 << 1)
        /// `about`, `approx`: an approximation before a quantity.
        static let approximation = WordClass(rawValue: 1 << 2)
        /// `a`, `an`: an article, which is not read as the quantity 1.
        static let article = WordClass(rawValue: 1 << 3)
        /// `finely`, `roughly`: an adverb that starts a preparation (`finely chopped`).
        static let preparationAdverb = WordClass(rawValue: 1 << 4)
        /// `chopped`, `minced`: a preparation wherever it starts the item.
        static let preparation = WordClass(rawValue: 1 << 5)
        /// `ground`, `toasted`: part of the name (`ground cumin`) unless an adverb comes first (`freshly ground`).
        static let weakPreparation = WordClass(rawValue: 1 << 6)
        /// `and`, `or`: joins preparations (`peeled and diced`).
        static let conjunction = WordClass(rawValue: 1 << 7)
        /// `taste`, `serve`, `garnish`: after `to`, starts a note (`to taste`).
        static let purposeVerb = WordClass(rawValue: 1 << 8)
        /// `clove`, `sprig`: a unit that may follow the item (`2 garlic cloves`).
        static let trailingUnit = WordClass(rawValue: 1 << 9)
        /// `optional`, `divided`: a comment wherever it ends the item.
        static let comment = WordClass(rawValue: 1 << 10)
        /// `couple`, `few`: an amount with no number (`a couple pinches`), not read as a quantity.
        static let vagueAmount = WordClass(rawValue: 1 << 11)
        /// `at`, `such`, `see`, `like`: starts a comment inside the item (`eggs at room temperature`).
        static let commentLead = WordClass(rawValue: 1 << 12)
        /// `in`, `into`, `with`: after a participle, starts a preparation (`steak cut into cubes`).
        static let preposition = WordClass(rawValue: 1 << 13)
        /// `needed`, `desired`: after `as` or `if`, a comment (`as needed`).
        static let condition = WordClass(rawValue: 1 << 14)
        /// `c`, `cuillère`: starts a French spoon measure (`c. à soupe`, `cuillère à café`).
        static let spoonLead = WordClass(rawValue: 1 << 15)
        /// `rase`, `gestrichen`: qualifies the unit before it (`1 c. à café rase`), put in the note.
        static let trailingUnitModifier = WordClass(rawValue: 1 << 16)
    }

    /// Words the rules test for by name.
    enum Keyword: String, CaseIterable, Sendable {
        case other = ""
        case of, to, or, and, x, `for`, plus, minus, per, `as`, `if`, from, extra, whole, ground, packed, more, less,
            so, use, substitute, fl, fluid, `in`
    }

    /// Everything the parser knows about one lowercased word.
    ///
    /// A plain value (no references), so tokens copy without reference counting.
    struct Word: Sendable {
        var classes = WordClass(rawValue: 0)
        /// The unit the word spells, if any.
        var unit: IngredientUnit.ID = 0
        /// The value when the word is a number (`one`, `half`; `dozen` is a unit).
        var number: Double?
        var keyword: Keyword = .other
        /// The unit a French spoon measure ending in this word stands for (`soupe`: tablespoon).
        var spoonUnit: IngredientUnit.ID = 0
    }

    /// Lowercased word → what it can mean.
    ///
    /// Built once; every lookup is one hash.
    static let lexicon: [String: Word] = {
        var map: [String: Word] = [:]
        func add(_ words: [String], _ wordClass: WordClass) {
            for word in words { map[word, default: Word()].classes.insert(wordClass) }
        }
        for (spelling, id) in IngredientUnit.ids { map[spelling, default: Word()].unit = id }
        for keyword in Keyword.allCases where keyword != .other {
            map[keyword.rawValue, default: Word()].keyword = keyword
        }
        let numbers: [(String, Double)] = [
            ("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7), ("eight", 8),
            ("nine", 9), ("ten", 10), ("eleven", 11), ("twelve", 12), ("fifteen", 15), ("twenty", 20), ("half", 0.5),
        ]
        for (word, value) in numbers { map[word, default: Word()].number = value }
        // German and French words that do what an English keyword does: `200 g de farine`, `2 c. à soupe
        // d'huile` (of), `450 à 500 g`, `2 bis 3 EL` (a range), `1 oder 2` (or).
        for (word, keyword) in [
            ("de", Keyword.of), ("d'", .of), ("d’", .of), ("à", .to), ("bis", .to), ("ou", .or), ("oder", .or),
        ] {
            map[word, default: Word()].keyword = keyword
        }
        for lead in IngredientUnit.spoonLeads { map[lead, default: Word()].classes.insert(.spoonLead) }
        for kind in IngredientUnit.spoonKinds {
            map[kind.word, default: Word()].spoonUnit = IngredientUnit.id(of: kind.canonical)
        }
        let germanAndFrenchSizes = [
            "klein", "kleine", "kleiner", "kleines", "kleinen", "kleinem", "groß", "große", "großer", "großes",
            "großen", "großem", "gross", "grosse", "grosser", "grosses", "grossen", "mittelgroß", "mittelgroße",
            "mittelgroßer", "mittelgroßes", "mittelgroßen", "mittelgross", "mittelgrosse", "mittelgrosser",
            "mittelgrosses", "mittelgrossen", "mittlere", "mittlerer", "mittleres", "mittleren", "moyen", "moyens",
            "moyenne", "moyennes",
        ]
        // Level and heaped spoons: before the unit in German (`1 gehäufter TL`), after it in French
        // (`1 c. à café rase`) and sometimes in German (`1 EL gestrichen`).
        let levelAndHeaped = [
            "gestrichen", "gestrichene", "gestrichener", "gestrichenes", "gehäuft", "gehäufte", "gehäufter",
            "gehäuftes", "rase", "rases", "bombée", "bombées", "bombé", "bombés",
        ]
        add(levelAndHeaped, .trailingUnitModifier)
        add(levelAndHeaped, .unitModifier)
        add(
            [
                "small", "medium", "large", "big", "sm", "med", "md", "lg", "lge", "xl", "jumbo", "extra-large",
                "medium-size", "medium-sized", "large-size", "large-sized", "small-size", "small-sized", "smallish",
                "largish", "biggish", "good-size", "good-sized",
            ] + germanAndFrenchSizes, .size)
        add(
            [
                "heaping", "heaped", "level", "rounded", "scant", "generous", "good", "thick", "thin", "thick-cut",
                "thin-cut", "fat", "whole", "big", "large", "small", "medium", "thumb-sized", "thumb-size",
                "lengthwise", "healthy", "full", "little",
            ] + germanAndFrenchSizes, .unitModifier)
        add(
            ["about", "approx", "approximately", "around", "roughly", "circa", "ca", "nearly", "almost"], .approximation
        )
        add(["a", "an", "un", "une", "ein", "eine", "einen"], .article)
        add(
            [
                "finely", "coarsely", "roughly", "thinly", "thickly", "freshly", "lightly", "very", "well", "firmly",
                "loosely", "gently", "evenly", "newly", "just", "fairly", "fully", "partially", "partly",
                "slightly", "superfinely", "tightly", "diagonally", "crosswise", "lengthwise", "thoroughly",
                "completely", "barely", "generously",
            ], .preparationAdverb)
        add(
            [
                "chopped", "minced", "diced", "sliced", "grated", "shredded", "crushed", "peeled", "cubed", "halved",
                "quartered", "beaten", "melted", "softened", "sifted", "snipped", "torn", "trimmed", "crumbled",
                "shelled", "seeded", "deseeded", "pitted", "stoned", "cored", "packed", "cracked", "squeezed", "pureed",
                "puréed", "julienned", "zested", "juiced", "rinsed", "drained", "chilled", "thawed", "defrosted",
                "whisked", "separated", "deveined", "skinned", "scrubbed", "washed", "hulled", "stemmed", "bruised",
                "smashed", "pressed", "shaved", "segmented", "cleaned", "boned", "deboned", "filleted", "husked",
                "shucked", "warmed", "heated", "crumbed", "cooked", "toasted", "cut", "picked", "sieved", "strained",
                "tempered", "riced", "spiralized", "spiralised", "scraped", "dissolved", "reconstituted",
            ], .preparation)
        add(
            [
                "ground", "roasted", "mashed", "dried", "frozen", "smoked", "boiled", "steamed", "grilled",
                "fried", "baked", "poached", "sauteed", "sautéed", "caramelized", "caramelised", "soaked", "salted",
                "slivered", "flaked", "blanched", "chunked", "cooled", "scalded", "brewed",
            ], .weakPreparation)
        add(["and", "or", "&"], .conjunction)
        add(
            [
                "taste", "serve", "serving", "garnish", "decorate", "finish", "dust", "dusting", "drizzle", "sprinkle",
                "glaze", "brush", "grease", "fry", "coat", "cover", "season", "top", "dip", "accompany", "use",
            ],
            .purposeVerb)
        add(
            [
                "clove", "cloves", "sprig", "sprigs", "stalk", "stalks", "bulb", "bulbs", "stick", "sticks", "slice",
                "slices", "head", "heads", "loaf", "loaves",
            ], .trailingUnit)
        add(["couple", "few", "several"], .vagueAmount)
        add(
            ["at", "like", "such", "eg", "preferably", "ideally", "see", "about", "approx", "approximately"],
            .commentLead)
        add(
            ["needed", "desired", "required", "necessary", "using", "liked", "available", "preferred", "wished"],
            .condition)
        add(["in", "into", "with", "until", "to", "for", "at", "on", "by", "from", "over", "under"], .preposition)
        add(["optional", "divided", "optionally"], .comment)
        return map
    }()

    /// The values of the Unicode vulgar fractions, by scalar value.
    static func vulgarFraction(_ scalar: UInt32) -> Double? {
        switch scalar {
        case 0xBC: 0.25
        case 0xBD: 0.5
        case 0xBE: 0.75
        case 0x2150: 1.0 / 7
        case 0x2151: 1.0 / 9
        case 0x2152: 0.1
        case 0x2153: 1.0 / 3
        case 0x2154: 2.0 / 3
        case 0x2155: 0.2
        case 0x2156: 0.4
        case 0x2157: 0.6
        case 0x2158: 0.8
        case 0x2159: 1.0 / 6
        case 0x215A: 5.0 / 6
        case 0x215B: 0.125
        case 0x215C: 0.375
        case 0x215D: 0.625
        case 0x215E: 0.875
        case 0x2189: 0
        default: nil
        }
    }
}
