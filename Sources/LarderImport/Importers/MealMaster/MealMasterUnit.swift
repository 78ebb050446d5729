import LarderCore

/// MealMaster's two-letter unit codes and the words Larder writes for them.
///
/// The table is MealMaster's own list (`x` per serving, `sm` small, `md` medium, `lg` large, `cn` can,
/// `pk` package, `pn` pinch, `dr` drop, `ds` dash, `ct` carton, `sl` slice, `ts`/`t` teaspoon,
/// `tb`/`T` tablespoon, `c` cup, `pt` pint, `qt` quart, `ga` gallon, `oz`, `lb`, `fl` fluid ounce,
/// `ml`, `cb` cubic centimetre, `cl`, `dl`, `l`, `mg`, `cg`, `dg`, `g`, `kg`, and `bn` bunch and `ea`
/// each as AnyMeal's grammar lists them). Codes are case sensitive only for `t`/`T`; `x` and `ea` have no word (the line reads as a plain count).
enum MealMasterUnit {
    /// Code → the word an imported ingredient line gets (`tb` → `tbsp`).
    static let words: [String: String] = [
        "x": "", "sm": "small", "md": "medium", "lg": "large", "cn": "can", "pk": "package", "pn": "pinch",
        "dr": "drop", "ds": "dash", "ct": "carton", "sl": "slice", "ts": "tsp", "t": "tsp", "tb": "tbsp",
        "T": "tbsp", "c": "cup", "pt": "pint", "qt": "quart", "ga": "gallon", "oz": "oz", "lb": "lb",
        "fl": "fl oz", "ml": "ml", "cb": "cc", "cl": "cl", "dl": "dl", "l": "l", "mg": "mg", "cg": "cg", "dg": "dg",
        "g": "g", "kg": "kg", "bn": "bunch", "ea": "",
    ]

    /// Whether `code` (trimmed) is a MealMaster unit code.
    static func isCode(_ code: String) -> Bool {
        words[code] != nil || words[code.lowercased()] != nil && code.count == 2
    }

    /// The word for a code, `nil` when it is none.
    static func word(_ code: String) -> String? {
        words[code] ?? (code.count == 2 ? words[code.lowercased()] : nil)
    }

    /// Larder's canonical unit names (``IngredientUnit``) and the sizes → the code an export writes.
    static let codesByWord: [String: String] = [
        "small": "sm", "medium": "md", "large": "lg", "can": "cn", "package": "pk", "pinch": "pn", "drop": "dr",
        "dash": "ds", "carton": "ct", "slice": "sl", "teaspoon": "ts", "tablespoon": "tb", "cup": "c", "pint": "pt",
        "quart": "qt", "gallon": "ga", "oz": "oz", "lb": "lb", "fl oz": "fl", "ml": "ml", "cc": "cb", "cl": "cl",
        "dl": "dl", "l": "l", "mg": "mg", "cg": "cg", "dg": "dg", "g": "g", "kg": "kg", "bunch": "bn",
    ]

    /// The code for a word as written in an ingredient line (`tbsp`, `Tablespoons`, `large`), if it has one.
    static func code(forWord word: String) -> String? {
        let lower = word.lowercased()
        let bare = lower.hasSuffix(".") ? String(lower.dropLast()) : lower
        if let code = codesByWord[bare] { return code }
        return IngredientUnit.canonicalName(for: bare).flatMap { codesByWord[$0] }
    }
}
