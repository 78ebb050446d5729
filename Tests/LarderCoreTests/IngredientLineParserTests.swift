import Foundation
import LarderCore
import LarderTestSupport
import Testing

@Suite struct IngredientLineParserTests {
    let parser = IngredientLineParser()

    static let plainNumbers: [(String, Double)] = [
        ("3 eggs", 3.0), ("0.5 tsp cayenne", 0.5), (".2 ounce salt", 0.2), ("1,5 kg flour", 1.5),
        ("1,000 g flour", 1000.0), ("12 asparagus spears", 12.0),
    ]

    static let vulgarFractions: [(String, Double)] = [
        ("½", 0.5), ("¼", 0.25), ("¾", 0.75), ("⅓", 1.0 / 3), ("⅔", 2.0 / 3), ("⅛", 0.125), ("⅜", 0.375),
        ("⅝", 0.625), ("⅞", 0.875), ("⅕", 0.2), ("⅖", 0.4), ("⅗", 0.6), ("⅘", 0.8), ("⅙", 1.0 / 6), ("⅚", 5.0 / 6),
    ]

    static let asciiFractions: [(String, Double)] = [
        ("1/2 cup milk", 0.5), ("3/4 teaspoon salt", 0.75), ("1⁄4 cup oil", 0.25), ("5/8 inch slices", 0.625),
    ]

    static let ranges: [(String, Double, Double)] = [
        ("2-3 tbsp olive oil", 2, 3), ("2 to 3 tablespoons olive oil", 2, 3), ("2–3 tbsp olive oil", 2, 3),
        ("1/2-1 tsp chilli flakes", 0.5, 1), ("1 or 2 tsp olive oil", 1, 2), ("110ml-150ml/4-5fl oz water", 110, 150),
        ("12- to 16-pound turkey", 12, 16), ("1¼ to 1½ cups stock", 1.25, 1.5),
    ]

    static let unitSpellings: [(String, String)] = [
        ("2 g", "g"), ("2 gram", "g"), ("2 grams", "g"), ("2 kg", "kg"), ("2 ml", "ml"), ("2 mL", "ml"),
        ("2 l", "l"), ("2 litres", "l"), ("2 liter", "l"), ("2 tsp", "teaspoon"), ("2 teaspoons", "teaspoon"),
        ("2 t", "teaspoon"), ("2 tbsp", "tablespoon"), ("2 tablespoons", "tablespoon"), ("2 T", "tablespoon"),
        ("2 Tbs", "tablespoon"), ("2 cup", "cup"), ("2 cups", "cup"), ("2 c", "cup"), ("2 oz", "oz"),
        ("2 oz.", "oz"), ("2 ounces", "oz"), ("2 lb", "lb"), ("2 lbs", "lb"), ("2 pounds", "lb"),
        ("2 pinches", "pinch"), ("2 dashes", "dash"), ("2 cloves", "clove"), ("2 cans", "can"),
        ("2 package", "package"), ("2 sticks", "stick"), ("2 slices", "slice"), ("2 bunch", "bunch"),
        ("2 sprigs", "sprig"), ("2 handfuls", "handful"), ("2 quarts", "quart"), ("2 pints", "pint"),
        ("2 gallons", "gallon"), ("2 fl oz", "fl oz"), ("2 fl. oz", "fl oz"), ("2 fluid ounces", "fl oz"),
    ]

    // MARK: - Quantities

    @Test("reads whole numbers, decimals and decimal commas", arguments: Self.plainNumbers)
    func readsPlainNumbers(line: String, quantity: Double) {
        #expect(parser.parse(line).quantity == quantity)
    }

    @Test("reads every unicode vulgar fraction", arguments: Self.vulgarFractions)
    func readsVulgarFractions(fraction: String, value: Double) throws {
        let parsed = parser.parse("\(fraction) cup sugar")
        let quantity = try #require(parsed.quantity)
        #expect(abs(quantity - value) < 1e-9)
        #expect(parsed.unit == "cup")
        #expect(parsed.item == "sugar")
    }

    @Test("reads ascii fractions and the fraction slash", arguments: Self.asciiFractions)
    func readsAsciiFractions(line: String, value: Double) {
        #expect(parser.parse(line).quantity == value)
    }

    @Test(
        "reads mixed numbers written four ways",
        arguments: [
            "1 1/2 cups flour", "1½ cups flour", "1 ½ cups flour", "1-1/2 cups flour",
        ])
    func readsMixedNumbers(line: String) {
        let parsed = parser.parse(line)
        #expect(parsed.quantity == 1.5)
        #expect(parsed.quantityMax == nil)
        #expect(parsed.unit == "cup")
        #expect(parsed.item == "flour")
    }

    @Test("reads ranges with hyphens, dashes, to and or", arguments: Self.ranges)
    func readsRanges(line: String, low: Double, high: Double) {
        let parsed = parser.parse(line)
        #expect(parsed.quantity == low)
        #expect(parsed.quantityMax == high)
    }

    // MARK: - Units

    @Test("maps unit spellings to canonical names", arguments: Self.unitSpellings)
    func mapsUnits(amount: String, unit: String) {
        let parsed = parser.parse("\(amount) stock")
        #expect(parsed.unit == unit)
        #expect(parsed.quantity == 2)
        #expect(parsed.item == "stock")
    }

    @Test("canonical unit lookup is exposed for importers")
    func exposesUnitLookup() {
        #expect(IngredientUnit.canonicalName(for: "Tbsp") == "tablespoon")
        #expect(IngredientUnit.canonicalName(for: "T") == "tablespoon")
        #expect(IngredientUnit.canonicalName(for: "t") == "teaspoon")
        #expect(IngredientUnit.canonicalName(for: "fluid ounces") == "fl oz")
        #expect(IngredientUnit.canonicalName(for: "carrots") == nil)
        #expect(IngredientUnit.canonicalNames.contains("tablespoon"))
    }

    @Test("does not read the preposition in as inches")
    func keepsPrepositionIn() {
        let parsed = parser.parse("2 anchovies in oil")
        #expect(parsed.unit == nil)
        #expect(parsed.item == "anchovies in oil")
        #expect(parser.parse("3cm/1in piece ginger").unit == "cm")
        #expect(parser.parse("2in piece ginger").unit == "inch")
    }

    // MARK: - Whole lines

    /// A line and every field the parser must return for it (`original` is the line).
    struct Case: Sendable, CustomTestStringConvertible {
        var line: String
        var quantity: Double?
        var max: Double? = nil
        var unit: String?
        var item: String
        var note: String?

        var expected: Ingredient {
            Ingredient(quantity: quantity, quantityMax: max, unit: unit, item: item, note: note, original: line)
        }

        var testDescription: String { line }
    }

    @Test(
        "reads number words but not articles",
        arguments: [
            Case(line: "One 28-ounce can tomatoes", quantity: 1, unit: "can", item: "tomatoes", note: "28-ounce"),
            Case(
                line: "Three 8-ounce cans tomato sauce", quantity: 3, unit: "can", item: "tomato sauce", note: "8-ounce"
            ),
            Case(line: "half a teaspoon ground cinnamon", quantity: 0.5, unit: "teaspoon", item: "ground cinnamon"),
            Case(line: "a pinch of salt", unit: "pinch", item: "salt"),
        ])
    func readsNumberWords(_ example: Case) {
        #expect(parser.parse(example.line) == example.expected)
    }

    @Test(
        "reads a multiplier as the count and the measure as a size",
        arguments: [
            Case(
                line: "2 x 360g/12½oz large duck breasts", quantity: 2, item: "duck breasts", note: "360g/12½oz, large"),
            Case(
                line: "1 x 400g can chopped tomatoes", quantity: 1, unit: "can", item: "chopped tomatoes", note: "400g"),
        ])
    func readsMultipliers(_ example: Case) {
        #expect(parser.parse(example.line) == example.expected)
    }

    @Test(
        "reads sizes before the unit and equivalents after it",
        arguments: [
            Case(line: "1 (14 ounce) can tomatoes", quantity: 1, unit: "can", item: "tomatoes", note: "14 ounce"),
            Case(
                line: "2 (28-ounce/794g) cans whole, peeled tomatoes", quantity: 2, unit: "can",
                item: "whole, peeled tomatoes", note: "28-ounce/794g"),
            Case(
                line: "One 28-ounce can diced tomatoes, with juice", quantity: 1, unit: "can", item: "diced tomatoes",
                note: "28-ounce, with juice"),
            Case(line: "1 (3 1/2-pound) whole chicken", quantity: 1, item: "whole chicken", note: "3 1/2-pound"),
            Case(
                line: "1 cup (2 sticks) unsalted butter, melted", quantity: 1, unit: "cup", item: "unsalted butter",
                note: "melted"),
            Case(
                line: "150g/5¼oz canned chickpeas, drained and rinsed", quantity: 150, unit: "g",
                item: "canned chickpeas", note: "drained and rinsed"),
            Case(
                line: "500g/1lb 2oz freshly cooked white rice", quantity: 500, unit: "g", item: "white rice",
                note: "freshly cooked"),
            Case(
                line: "½ cup plus 2 tablespoons sugar", quantity: 0.5, unit: "cup", item: "sugar",
                note: "plus 2 tablespoons"),
            Case(line: "Sugar 2 cups (400 grams)", quantity: 2, unit: "cup", item: "Sugar"),
        ])
    func readsSizesAndEquivalents(_ example: Case) {
        #expect(parser.parse(example.line) == example.expected)
    }

    @Test(
        "moves preparations, sizes, parentheses and purposes into the note",
        arguments: [
            Case(
                line: "1½ tablespoons finely chopped fresh flat-leaf parsley (optional)", quantity: 1.5,
                unit: "tablespoon", item: "fresh flat-leaf parsley", note: "finely chopped, optional"),
            Case(
                line: "1 large onion, peeled and thinly sliced", quantity: 1, item: "onion",
                note: "large, peeled and thinly sliced"),
            Case(
                line: "Salt and freshly ground black pepper, to taste", item: "Salt and black pepper",
                note: "freshly ground, to taste"),
            Case(line: "Chopped fresh chives for garnish", item: "fresh chives", note: "Chopped, for garnish"),
            Case(line: "Heavy cream, 1½ cups", quantity: 1.5, unit: "cup", item: "Heavy cream"),
            Case(line: "Zest of 1 lemon", quantity: 1, item: "lemon", note: "Zest of"),
            Case(line: "2 garlic cloves, crushed", quantity: 2, unit: "clove", item: "garlic", note: "crushed"),
            Case(line: "¼ teaspoon whole cloves", quantity: 0.25, unit: "teaspoon", item: "whole cloves"),
            Case(line: "2 anchovies in oil", quantity: 2, item: "anchovies in oil"),
        ])
    func splitsItemAndNote(_ example: Case) {
        #expect(parser.parse(example.line) == example.expected)
    }

    // MARK: - German and French

    /// Lines from the German pages of the corpus (aldi-sued.de, lecker.de, rewe.de, springlane.de,
    /// rezeptwelt.de, eattolerant.de, hofer.at, essen-und-trinken.de).
    @Test(
        "reads German lines: EL, TL, Prise(n), Msp., Bund, Stück, Dose(n), decimal commas, plural markers",
        arguments: [
            Case(line: "4 EL MILSANI Butter", quantity: 4, unit: "tablespoon", item: "MILSANI Butter"),
            Case(
                line: "1 TL DELIKATO Delikatess-Senf", quantity: 1, unit: "teaspoon", item: "DELIKATO Delikatess-Senf"),
            Case(line: "1-2 TL Zitronenabrieb", quantity: 1, max: 2, unit: "teaspoon", item: "Zitronenabrieb"),
            Case(line: "1,5 TL mittelscharfer Senf", quantity: 1.5, unit: "teaspoon", item: "mittelscharfer Senf"),
            Case(line: "1 Msp. Salz", quantity: 1, unit: "knife tip", item: "Salz"),
            Case(line: "1 Prise(n) Pfeffer aus der Mühle", quantity: 1, unit: "pinch", item: "Pfeffer aus der Mühle"),
            Case(line: "2 Prisen Pfeffer", quantity: 2, unit: "pinch", item: "Pfeffer"),
            Case(line: "0.5 Bd. Schnittlauch", quantity: 0.5, unit: "bunch", item: "Schnittlauch"),
            Case(
                line: "1 Bund Suppengemüse (alternativ 2 Möhren)", quantity: 1, unit: "bunch", item: "Suppengemüse",
                note: "alternativ 2 Möhren"),
            Case(line: "0.5 Stück Cantaloupe-Melone", quantity: 0.5, unit: "piece", item: "Cantaloupe-Melone"),
            Case(line: "1 Stk. Zwiebel", quantity: 1, unit: "piece", item: "Zwiebel"),
            Case(line: "1 kleines Stück Ingwer", quantity: 1, unit: "piece", item: "Ingwer", note: "kleines"),
            Case(line: "2 Dosen ALMARE Thunfischfilets", quantity: 2, unit: "can", item: "ALMARE Thunfischfilets"),
            Case(line: "1.0 Stange(n) Lauch", quantity: 1, unit: "stalk", item: "Lauch"),
            Case(line: "2 Zehen Knoblauch", quantity: 2, unit: "clove", item: "Knoblauch"),
            Case(line: "3 Zweige Petersilie", quantity: 3, unit: "sprig", item: "Petersilie"),
            Case(line: "3 Scheiben Sandwichtoast", quantity: 3, unit: "slice", item: "Sandwichtoast"),
            Case(line: "1 Kugel Mozarella, halbiert", quantity: 1, unit: "ball", item: "Mozarella", note: "halbiert"),
            Case(line: "1 Becher Sahne", quantity: 1, unit: "tub", item: "Sahne"),
            Case(line: "1 Päckchen Backpulver", quantity: 1, unit: "packet", item: "Backpulver"),
            Case(line: "1 Pck. Vanillezucker", quantity: 1, unit: "packet", item: "Vanillezucker"),
            Case(line: "2 Essl. Zucker", quantity: 2, unit: "tablespoon", item: "Zucker"),
            Case(line: "1 Teel. Salz", quantity: 1, unit: "teaspoon", item: "Salz"),
            Case(line: "3 Esslöffel Öl", quantity: 3, unit: "tablespoon", item: "Öl"),
            Case(line: "0,25 l Milch", quantity: 0.25, unit: "l", item: "Milch"),
            Case(line: "1,5 kg Kartoffeln", quantity: 1.5, unit: "kg", item: "Kartoffeln"),
            Case(line: "4 Kartoffel(n), mehlig", quantity: 4, item: "Kartoffel", note: "mehlig"),
            Case(line: "2 Ei(er)", quantity: 2, item: "Ei"),
            Case(line: "eine Prise Salz", unit: "pinch", item: "Salz"),
            Case(line: "2 bis 3 EL Wasser", quantity: 2, max: 3, unit: "tablespoon", item: "Wasser"),
            Case(line: "200 g g Kritharaki-Nudeln", quantity: 200, unit: "g", item: "Kritharaki-Nudeln"),
            Case(line: "6 El El Olivenöl", quantity: 6, unit: "tablespoon", item: "Olivenöl"),
            Case(line: "1 gehäufter TL Zucker", quantity: 1, unit: "teaspoon", item: "Zucker", note: "gehäufter"),
        ])
    func readsGermanLines(_ example: Case) {
        #expect(parser.parse(example.line) == example.expected)
    }

    /// Lines from the French pages of the corpus (marmiton.org, editions-larousse.fr, marieclaire.fr,
    /// atelierdeschefs.fr, cuisine.journaldesfemmes.fr, madame.lefigaro.fr, chefnini.com, moulinex.fr).
    @Test(
        "reads French lines: c. à soupe, c. à café, pincée, gousse, sachet, de and d', à ranges, plural markers",
        arguments: [
            Case(line: "2 c. à soupe d'huile d'olive", quantity: 2, unit: "tablespoon", item: "huile d'olive"),
            Case(line: "2 cuill. à soupe d'huile d'olive", quantity: 2, unit: "tablespoon", item: "huile d'olive"),
            Case(line: "6 c.à.s d'huile d'olive", quantity: 6, unit: "tablespoon", item: "huile d'olive"),
            Case(line: "2 c. à s. d'huile d'olive", quantity: 2, unit: "tablespoon", item: "huile d'olive"),
            Case(line: "1 càs Huile végétale", quantity: 1, unit: "tablespoon", item: "Huile végétale"),
            Case(line: "4 cs de parmesan", quantity: 4, unit: "tablespoon", item: "parmesan"),
            Case(
                line: "1c. à soupe de beurre (facultatif)", quantity: 1, unit: "tablespoon", item: "beurre",
                note: "facultatif"),
            Case(line: "1 c. à c. de sucre", quantity: 1, unit: "teaspoon", item: "sucre"),
            Case(
                line: "1 c. à café rase de sucre en poudre", quantity: 1, unit: "teaspoon", item: "sucre en poudre",
                note: "rase"),
            Case(
                line: "2 cuill. à café de cannelle en poudre", quantity: 2, unit: "teaspoon", item: "cannelle en poudre"
            ),
            Case(
                line: "1 à 2 c. à café de miel (selon votre envie)", quantity: 1, max: 2, unit: "teaspoon",
                item: "miel",
                note: "selon votre envie"),
            Case(line: "1 pincée sel", quantity: 1, unit: "pinch", item: "sel"),
            Case(line: "une pincée de sel", unit: "pinch", item: "sel"),
            Case(line: "1 gousse d'ail", quantity: 1, unit: "clove", item: "ail"),
            Case(line: "4 gousses d’ail", quantity: 4, unit: "clove", item: "ail"),
            Case(line: "1 sachet sucre vanillé", quantity: 1, unit: "sachet", item: "sucre vanillé"),
            Case(line: "200 g de pruneaux dénoyautés", quantity: 200, unit: "g", item: "pruneaux dénoyautés"),
            Case(
                line: "450 à 500 g d'épaule d'agneau désossée", quantity: 450, max: 500, unit: "g",
                item: "épaule d'agneau désossée"),
            Case(line: "1 brin de thym", quantity: 1, unit: "sprig", item: "thym"),
            Case(line: "1 feuille de laurier", quantity: 1, unit: "leaf", item: "laurier"),
            Case(line: "1 botte de radis", quantity: 1, unit: "bunch", item: "radis"),
            Case(line: "1 verre de vin blanc", quantity: 1, unit: "glass", item: "vin blanc"),
            Case(line: "25cl de crème liquide", quantity: 25, unit: "cl", item: "crème liquide"),
            Case(line: "2 oignon(s)", quantity: 2, item: "oignon"),
            Case(line: "Beurre doux : 120 g", quantity: 120, unit: "g", item: "Beurre doux"),
            Case(line: "Oeuf(s) : 1 pièce(s)", quantity: 1, unit: "piece", item: "Oeuf"),
            Case(line: "Sel fin : 8 pincée(s)", quantity: 8, unit: "pinch", item: "Sel fin"),
            Case(line: "Lardon(s) fumé(s) : 100 g", quantity: 100, unit: "g", item: "Lardon fumé"),
        ])
    func readsFrenchLines(_ example: Case) {
        #expect(parser.parse(example.line) == example.expected)
    }

    @Test("keeps English lines that only look French or German")
    func keepsLookalikes() {
        #expect(parser.parse("2 d'Anjou pears").item == "d'Anjou pears")
        #expect(parser.parse("70g/ 2½oz fourme d’Ambert cheese").item == "fourme d’Ambert cheese")
        #expect(parser.parse("2 tsp ras-el-hanout").item == "ras-el-hanout")
        #expect(parser.parse("2 c. sugar").unit == "cup")
        #expect(parser.parse("1 cup dulce de leche").item == "dulce de leche")
        #expect(parser.parse("Salt (optional)").note == "optional")
    }

    @Test("the German and French units are exposed for importers")
    func exposesGermanAndFrenchUnits() {
        #expect(IngredientUnit.canonicalName(for: "EL") == "tablespoon")
        #expect(IngredientUnit.canonicalName(for: "Teel.") == "teaspoon")
        #expect(IngredientUnit.canonicalName(for: "Msp.") == "knife tip")
        #expect(IngredientUnit.canonicalName(for: "knife tip") == "knife tip")
        #expect(IngredientUnit.canonicalName(for: "c. à soupe") == "tablespoon")
        #expect(IngredientUnit.canonicalName(for: "cuillères à café") == "teaspoon")
        #expect(IngredientUnit.canonicalName(for: "c.à.s.") == "tablespoon")
        #expect(IngredientUnit.canonicalName(for: "pincées") == "pinch")
        #expect(IngredientUnit.canonicalName(for: "Päckchen") == "packet")
        #expect(IngredientUnit.canonicalNames.contains("knife tip"))
    }

    @Test("keeps a comma list of alternatives in the item")
    func keepsAlternatives() {
        #expect(
            parser.parse("4 tbsp canola, sunflower, or vegetable oil").item == "canola, sunflower, or vegetable oil")
        #expect(parser.parse("2 boneless, skinless chicken thighs").item == "boneless, skinless chicken thighs")
        #expect(parser.parse("25g/1oz fresh yeast, or 7g instant yeast").item == "fresh yeast")
    }

    @Test("a line with no amount is all item")
    func readsPlainItem() {
        let parsed = parser.parse("Mexican wedding cookies")
        #expect(parsed == Ingredient(item: "Mexican wedding cookies", original: "Mexican wedding cookies"))
    }

    // MARK: - Robustness

    @Test(
        "keeps the original line verbatim",
        arguments: [
            "  2  cups\tflour  ", "1 (14 ounce) can tomatoes", "", "   ", "½", "((((", "Salt", "🍅 3 tomatoes 🍅",
        ])
    func keepsOriginal(line: String) {
        let parsed = parser.parse(line)
        #expect(parsed.original == line)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { #expect(!parsed.item.isEmpty) }
    }

    @Test("never crashes on malformed or hostile text")
    func survivesMalformedText() {
        var generator = SplitMix64(seed: 42)
        let alphabet = Array("0123456789 /-–.,()[]½¼⅓x of cup tbsp g oz can about to or plus a an é🍅\u{0}\u{FFFD}")
        for _ in 0..<2_000 {
            let length = Int(generator.next() % 40)
            let line = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            let parsed = parser.parse(line)
            #expect(parsed.original == line)
            if let quantity = parsed.quantity { #expect(quantity.isFinite) }
        }
        #expect(parser.parse("1/0 cup flour").quantity == 1)
        #expect(parser.parse(String(repeating: "9", count: 400) + " g flour").quantity?.isFinite == true)
        #expect(parser.parse(String(repeating: "1 (", count: 5_000)).original.count == 15_000)
    }

    // MARK: - Corpus

    @Test("the corpus comparison reads the labels the way they are meant")
    func corpusRulesReadLabels() {
        typealias Score = IngredientCorpusScore
        func expected(_ sentence: String, _ quantity: String, _ unit: String) -> Score.Expected {
            Score.expectedAmount(Score.Row(sentence: sentence, name: "", quantity: quantity, unit: unit, source: ""))
        }
        #expect(expected("1 (14 ounce) can tomatoes", "1 14", "ounce can") == Score.Expected(quantity: 1, unit: "can"))
        #expect(
            expected("One 28-ounce can tomatoes", "One 28", "ounce can") == Score.Expected(quantity: 1, unit: "can"))
        #expect(expected("50g/2oz cashew nuts", "50 2", "g oz") == Score.Expected(quantity: 50, unit: "g"))
        #expect(expected("2 x 360g/12½oz duck breasts", "2x 360 12#1$2", "g oz") == Score.Expected(quantity: 2))
        #expect(
            expected("1 medium shallot, chopped (about 1 tablespoon)", "1 1", "tablespoon")
                == Score.Expected(quantity: 1))
        #expect(expected("2 large slices bread", "2", "large slice") == Score.Expected(quantity: 2, unit: "slice"))
        #expect(expected("80ml/3½fl oz syrup", "80 3#1$2", "ml fl oz") == Score.Expected(quantity: 80, unit: "ml"))
        #expect(expected("2 to 3 tablespoons cream", "2-3", "tablespoon").quantityMax == 3)
        #expect(expected("1½ tbsp ginger", "1#1$2", "tbsp").quantity == 1.5)
        #expect(expected("few sprigs samphire", "few", "sprig").isReadable == false)
        #expect(Score.normalizedItem("Fresh  Basil Leaves,") == Score.normalizedItem("fresh basil leaf"))
        #expect(Score.normalizedItem("whole cloves") == "whole clove")
        #expect(Score.normalizedItem("goats' cheese") == "goat cheese")
    }

    @Test(
        "agrees with the labelled corpus: ≥ 95% quantity+unit, ≥ 90% item",
        .enabled(if: Corpus.has("ingredients/sample.csv"), "needs ../shared/corpus/ingredients (or LARDER_CORPUS)"))
    func agreesWithCorpus() throws {
        let url = URL(fileURLWithPath: Corpus.path("ingredients/sample.csv"))
        let rows = try IngredientCorpusScore.readRows(at: url)
        try #require(rows.count > 1_000)
        let (all, bySource) = IngredientCorpusScore.score(rows, parser: parser)
        func figures(_ tally: IngredientCorpusScore.Tally) -> String {
            String(
                format: "%d lines, quantity+unit %.2f%%, item %.2f%%", tally.lines, tally.amountPercent,
                tally.itemPercent)
        }
        print("ingredient corpus: \(figures(all))")
        for (source, tally) in bySource.sorted(by: { $0.key < $1.key }) { print("  \(source): \(figures(tally))") }
        #expect(all.amountPercent >= 95)
        #expect(all.itemPercent >= 90)
    }
}

/// A small deterministic generator for the robustness test.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
