/// The canonical unit names the ingredient-line parser emits, and the spellings it recognizes.
///
/// Metric units keep their SI symbols (`g`, `kg`, `mg`, `ml`, `l`, `cl`, `dl`, `cm`, `mm`); imperial
/// weights keep their universal abbreviations (`oz`, `lb`, `fl oz`); US kitchen measures and counted
/// units are singular English words (`teaspoon`, `tablespoon`, `cup`, `pint`, `clove`, `can`, ...).
/// Lookup is case-insensitive except for the one-letter kitchen shorthands, where case carries the
/// meaning: `T` is a tablespoon and `t` a teaspoon. German and French spellings map to the same
/// names (`EL` and `c. à soupe` are tablespoons, `Prise` and `pincée` pinches); `Msp.`
/// (Messerspitze) is a `knife tip`.
///
/// ```swift
/// IngredientUnit.canonicalName(for: "Tbsp")    // "tablespoon"
/// IngredientUnit.canonicalName(for: "fl. oz")  // "fl oz"
/// IngredientUnit.canonicalName(for: "EL")      // "tablespoon"
/// IngredientUnit.canonicalName(for: "c. à café") // "teaspoon"
/// IngredientUnit.canonicalName(for: "carrots") // nil
/// ```
public enum IngredientUnit {
    /// Every canonical unit name, in the order of the table in `docs/ingredients.md`.
    public static let canonicalNames: [String] = table.map(\.canonical)

    /// The canonical name of a unit spelling, or `nil` when the text is not a unit.
    ///
    /// Accepts a single word (`tablespoons`, `Tbs`, `oz.`, `Essl.`), the two-word forms (`fl oz`,
    /// `fluid ounces`, `knife tip`) and the French spoon phrases (`c. à soupe`, `cuillère à café`,
    /// `c.à.s`); surrounding whitespace and a trailing period of each word are ignored.
    /// - Parameter text: the unit as written.
    /// - Returns: the canonical name, such as `tablespoon` or `g`.
    public static func canonicalName(for text: String) -> String? {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
            $0.hasSuffix(".") ? String($0.dropLast()) : String($0)
        }
        words.removeAll(where: \.isEmpty)
        if words.count == 1, let exact = caseSensitive[words[0]] { return exact }
        let joined = words.joined(separator: " ").lowercased()
        if let name = spellings[joined] ?? phrases[joined] { return name }
        guard words.count == 2 else { return nil }
        let first = words[0].lowercased()
        guard first == "fl" || first == "fluid" else { return nil }
        return spellings[words[1].lowercased()] == "oz" ? "fl oz" : nil
    }

    /// Words that start a French spoon measure (`c. à soupe`, `cuillère à café`); the parser reads
    /// the phrase word by word.
    static let spoonLeads = [
        "c", "cuil", "cuill", "cuillère", "cuillères", "cuillere", "cuilleres", "cuillerée", "cuillerées",
        "cuilleree", "cuillerees",
    ]

    /// The word that ends a French spoon measure and the unit it makes: `soupe`/`s`/`table` a tablespoon,
    /// `café`/`c`/`thé` a teaspoon (`thé` and `table` are Québécois), `dessert` a dessertspoon.
    static let spoonKinds: [(word: String, canonical: String)] = [
        ("soupe", "tablespoon"), ("s", "tablespoon"), ("table", "tablespoon"), ("café", "teaspoon"),
        ("cafe", "teaspoon"), ("c", "teaspoon"), ("thé", "teaspoon"), ("the", "teaspoon"), ("dessert", "dessertspoon"),
    ]

    /// Units spelled as several words, lowercased, single-spaced, without trailing periods
    /// (`c à soupe`, `cuillères à café`, `c.à.s`), for ``canonicalName(for:)``.
    static let phrases: [String: String] = {
        var map: [String: String] = [:]
        for lead in spoonLeads {
            for preposition in ["à", "a"] {
                for kind in spoonKinds { map["\(lead) \(preposition) \(kind.word)"] = kind.canonical }
            }
        }
        for preposition in ["à", "a"] {
            map["c.\(preposition).s"] = "tablespoon"
            map["c.\(preposition).c"] = "teaspoon"
        }
        return map
    }()

    /// One-letter shorthands whose case decides the unit.
    static let caseSensitive: [String: String] = ["T": "tablespoon", "t": "teaspoon"]

    /// Lowercased spelling → canonical name, built once from `table`.
    static let spellings: [String: String] = {
        var map: [String: String] = [:]
        for entry in table {
            map[entry.canonical] = entry.canonical
            for spelling in entry.spellings { map[spelling] = entry.canonical }
        }
        return map
    }()

    /// A unit as a small number, so parser tokens stay plain values: 0 is no unit, `n` is `table[n - 1]`.
    typealias ID = UInt8

    /// Lowercased spelling → unit ID.
    static let ids: [String: ID] = {
        var map: [String: ID] = [:]
        for (index, entry) in table.enumerated() {
            let id = ID(index + 1)
            map[entry.canonical] = id
            for spelling in entry.spellings { map[spelling] = id }
        }
        return map
    }()

    /// The canonical name of a unit ID (ID 0 has none).
    static func name(of id: ID) -> String? {
        id == 0 ? nil : table[Int(id) - 1].canonical
    }

    /// The ID of a canonical name.
    static func id(of canonical: String) -> ID {
        ids[canonical] ?? 0
    }

    /// Whether the unit of an ID may start a line without a number.
    static func isCountable(_ id: ID) -> Bool {
        id != 0 && table[Int(id) - 1].isCountable
    }

    /// A canonical unit with its accepted spellings (lowercase; plurals listed explicitly).
    struct Entry: Sendable {
        let canonical: String
        let spellings: [String]
        /// Whether the unit may start a line without a number (`pinch of salt`, `handful basil`).
        let isCountable: Bool

        init(_ canonical: String, _ spellings: [String], countable: Bool = false) {
            self.canonical = canonical
            self.spellings = spellings
            self.isCountable = countable
        }
    }

    /// The unit table.
    ///
    /// Spellings are general English and kitchen usage, not corpus entries.
    static let table: [Entry] = [
        // Metric mass and volume.
        Entry("g", ["gr", "grs", "gm", "gms", "grm", "grms", "gram", "grams", "gramme", "grammes", "gramm"]),
        Entry("kg", ["kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramme", "kilogrammes", "kilogramm"]),
        Entry("mg", ["mgs", "milligram", "milligrams", "milligramme", "milligrammes"]),
        Entry("ml", ["mls", "milliliter", "milliliters", "millilitre", "millilitres"]),
        Entry("cl", ["centiliter", "centiliters", "centilitre", "centilitres"]),
        Entry("dl", ["deciliter", "deciliters", "decilitre", "decilitres"]),
        Entry("l", ["lt", "ltr", "ltrs", "liter", "liters", "litre", "litres"]),
        // US and imperial kitchen measures.
        Entry(
            "teaspoon",
            [
                "tsp", "tsps", "tspn", "tspns", "ts", "teaspoons", "teaspoonful", "teaspoonfuls",
                // German (TL, Teel., Teelöffel) and French (càc; the spelled-out forms are phrases, see `phrases`).
                "tl", "teel", "teelöffel", "càc", "cac",
            ]),
        Entry(
            "tablespoon",
            [
                "tbsp", "tbsps", "tbs", "tbl", "tbls", "tblsp", "tblsps", "tblspn", "tb", "tbspn", "tablespoons",
                "tablespoonful", "tablespoonfuls",
                // German (EL, Essl., Esslöffel) and French (cs, càs).
                "el", "essl", "eßl", "esslöffel", "eßlöffel", "cs", "càs", "cas",
            ]),
        Entry("dessertspoon", ["dsp", "dsps", "dstspn", "dessertspoons", "dessertspoonful", "dessertspoonfuls"]),
        Entry("cup", ["c", "cups", "cupful", "cupfuls", "tasse", "tassen", "tasses"]),
        Entry("fl oz", ["floz"]),
        Entry("oz", ["ozs", "ounce", "ounces"]),
        Entry("lb", ["lbs", "pound", "pounds"]),
        Entry("pint", ["pt", "pts", "pints"]),
        Entry("quart", ["qt", "qts", "quarts"]),
        Entry("gallon", ["gal", "gals", "gallons"]),
        // Lengths (sizes of pieces).
        Entry("cm", ["cms", "centimeter", "centimeters", "centimetre", "centimetres"]),
        Entry("mm", ["millimeter", "millimeters", "millimetre", "millimetres"]),
        Entry("inch", ["in", "ins", "inches"]),
        // Small and vague amounts.
        Entry("pinch", ["pinches", "prise", "prisen", "pincée", "pincées", "pincee", "pincees"], countable: true),
        Entry("knife tip", ["msp", "messerspitze", "messerspitzen"], countable: true),
        Entry("dash", ["dashes"], countable: true),
        Entry("drop", ["drops", "tropfen", "goutte", "gouttes"], countable: true),
        Entry("splash", ["splashes", "spritzer", "schuss"], countable: true),
        Entry("handful", ["handfuls", "handsful", "handvoll", "poignée", "poignées"], countable: true),
        Entry("dollop", ["dollops"], countable: true),
        Entry("knob", ["knobs"], countable: true),
        Entry("glug", ["glugs"], countable: true),
        Entry("shake", ["shakes"], countable: true),
        Entry("scoop", ["scoops"], countable: true),
        // Parts of plants.
        Entry("clove", ["cloves", "zehe", "zehen", "gousse", "gousses"]),
        Entry("sprig", ["sprigs", "zweig", "zweige", "brin", "brins"], countable: true),
        Entry("bunch", ["bunches", "bund", "bd", "botte", "bottes"], countable: true),
        Entry("head", ["heads", "kopf", "köpfe"]),
        Entry("stalk", ["stalks", "stange", "stangen"]),
        Entry("stem", ["stems", "stiel", "stiele"]),
        Entry("bulb", ["bulbs", "knolle", "knollen"]),
        Entry("rib", ["ribs"]),
        Entry("ear", ["ears"]),
        Entry("leaf", ["leaves", "blatt", "blätter", "feuille", "feuilles"]),
        // Pieces.
        Entry("slice", ["slices", "scheibe", "scheiben", "tranche", "tranches"], countable: true),
        Entry(
            "piece",
            [
                "pieces", "pc", "pcs", "stück", "stücke", "stk", "stck", "pièce", "pièces", "morceau", "morceaux",
                "unité", "unités",
            ], countable: true),
        Entry("stick", ["sticks"]),
        Entry("sheet", ["sheets"]),
        Entry("rasher", ["rashers"]),
        Entry("strip", ["strips"]),
        Entry("loaf", ["loaves"]),
        Entry("square", ["squares"]),
        Entry("wedge", ["wedges"]),
        Entry("cube", ["cubes", "würfel"]),
        Entry("block", ["blocks"]),
        Entry("bar", ["bars"]),
        Entry("ball", ["balls", "kugel", "kugeln"]),
        Entry("chunk", ["chunks"]),
        Entry("tube", ["tubes"]),
        Entry("wheel", ["wheels"]),
        Entry("dozen", ["dozens"]),
        // Portions of a recipe.
        Entry("recipe", ["recipes"]),
        Entry("batch", ["batches"]),
        Entry("portion", ["portions"]),
        Entry("serving", ["servings"]),
        Entry("part", ["parts"]),
        // Containers.
        Entry("can", ["cans", "dose", "dosen", "boîte", "boîtes", "boite", "boites"]),
        Entry("tin", ["tins"]),
        Entry("jar", ["jars", "glas", "gläser", "bocal", "bocaux"]),
        Entry("bottle", ["bottles", "flasche", "flaschen", "bouteille", "bouteilles"]),
        Entry("package", ["packages", "pkg", "pkgs", "packung", "packungen", "paquet", "paquets"]),
        Entry("packet", ["packets", "pkt", "pkts", "päckchen", "pck", "pckg"], countable: true),
        Entry("pack", ["packs"]),
        Entry("bag", ["bags", "beutel", "tüte", "tüten"]),
        Entry("box", ["boxes"]),
        Entry("carton", ["cartons"]),
        Entry("tub", ["tubs", "becher", "pot", "pots"]),
        Entry("container", ["containers"]),
        Entry("envelope", ["envelopes"]),
        Entry("sachet", ["sachets"]),
        Entry("punnet", ["punnets", "schale", "schalen"]),
        Entry("glass", ["glasses", "verre", "verres"]),
    ]
}
