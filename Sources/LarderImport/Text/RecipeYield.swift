import LarderFormats

/// Recipe yields as published: `8`, `"4 servings"`, `"Makes 12 cookies"`, `"4-6"`, lists.
package enum RecipeYield {
    /// The yield in the form `<n> servings` or `<n> <items>` (`12 cookies`, `1 loaf`, `2 dozen`).
    ///
    /// Read the way recipe-scrapers reads a yield string: ranges take their upper end, a known
    /// item kind anywhere in the text names the unit. `nil` when there is no text.
    package static func normalized(_ text: String) -> String? {
        var serve = HTMLText.normalize(text)
        guard !serve.isEmpty else { return nil }
        if let rangeEnd = upperEndOfRange(serve) { serve = rangeEnd }
        guard let number = firstInteger(in: serve) else { return nil }
        let lower = serve.lowercased()
        var best: (length: Int, text: String)?
        for (singular, plural) in itemKinds {
            let length: Int
            if lower.containsText(singular) {
                length = singular.count
            } else if lower.containsText(plural) {
                length = plural.count
            } else {
                continue
            }
            if length > (best?.length ?? 0) { best = (length, "\(number) \(number == 1 ? singular : plural)") }
        }
        if let best { return best.text }
        let words = Set(lower.split(whereSeparator: { !$0.isLetter }).map(String.init))
        if !words.isDisjoint(with: [
            "sandwiches", "tacquitos", "makes", "cups", "appetizer", "porzioni", "cookies", "buns",
        ]) {
            return "\(number) item\(number == 1 ? "" : "s")"
        }
        return "\(number) serving\(number == 1 ? "" : "s")"
    }

    /// The yield of a bare count published with its words (`["8", "8 slices"]`, as WP Recipe
    /// Maker does): `<count> <first word after the number>` (`8 slices`), or `<count> servings`
    /// when that word means servings or is not a noun.
    package static func normalized(_ text: String, count: String) -> String {
        let words = tokens(HTMLText.normalize(text))
        guard let numberIndex = words.firstIndex(where: { Double($0.replacingAll(",", with: ".")) != nil }) else {
            return phrase(count, unit: nil)
        }
        var unit: String?
        var i = numberIndex + 1
        // Skip the rest of a range (`8 - 10`, `8 to 10`) and measures (`3 8-oz jars`).
        while i < words.count {
            let w = words[i]
            if w == "-" || w == "–" || w == "to" || w.first?.isNumber == true {
                i += 1
                continue
            }
            if w.allSatisfy(\.isLetter) {
                unit = w.lowercased()
                if sizeWords.contains(unit ?? "") {
                    // `9 large or 16 small brownies`: the thing counted comes last.
                    unit = words[i...].prefix { $0 != "(" }.last { $0.allSatisfy(\.isLetter) }?.lowercased()
                }
            }
            break
        }
        if let u = unit, functionWords.contains(u) { unit = nil }
        return phrase(count, unit: unit)
    }

    private static func phrase(_ number: String, unit: String?) -> String {
        let value = Double(number.replacingAll(",", with: ".")) ?? 0
        let one = value == 1
        let shown = value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : number
        guard let unit, !servingWords.contains(unit) else { return "\(shown) serving\(one ? "" : "s")" }
        for (singular, plural) in itemKinds where unit == singular || unit == plural {
            return "\(shown) \(one ? singular : plural)"
        }
        return "\(shown) \(unit)"
    }

    /// Words, numbers and single punctuation marks of a yield text.
    private static func tokens(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { out.append(current) }
            current = ""
        }
        for c in text {
            if c.isLetter || c.isNumber || ((c == "." || c == ",") && current.last?.isNumber == true)
                || (c == "-" && !current.isEmpty && current.last?.isNumber == true)
            {
                if c == "-" {
                    flush()
                    out.append("-")
                    continue
                }
                current.append(c)
            } else {
                flush()
                if c == "(" || c == "-" || c == "–" { out.append(String(c)) }
            }
        }
        flush()
        // `8.` at a sentence end is `8`.
        return out.map { $0.hasSuffix(".") || $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
    }

    private static let servingWords: Set<String> = [
        "serving", "servings", "serves", "serve", "portion", "portions", "portionen", "portion(en)", "people",
        "persons", "person",
        "personen", "persone", "personas", "porzioni", "porzione", "pax", "adults", "personnes", "personne", "porties",
        "porcje",
        "porce", "adag", "porsjoner", "portioner", "annosta", "kişilik", "personer", "port", "porcie", "porções",
        "porção", "főre",
    ]

    private static let functionWords: Set<String> = ["as", "or", "and", "up", "for", "to", "of", "x"]

    private static let sizeWords: Set<String> = [
        "large", "small", "medium", "big", "mini", "about", "approximately", "approx", "generous",
    ]

    /// The number of servings a yield text gives (its first whole number, the lower end of a
    /// range), or `nil` when it has none or it is zero.
    package static func servings(_ text: String) -> Int? {
        guard let n = firstInteger(in: HTMLText.normalize(text)), n > 0 else { return nil }
        return n
    }

    /// The text after the separator of the first `n-m` / `n to m` range, when there is one.
    private static func upperEndOfRange(_ text: String) -> String? {
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            guard chars[i].isASCII, chars[i].isNumber else {
                i += 1
                continue
            }
            while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
            if i < chars.count, chars[i] == "-", i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isNumber {
                return String(chars[(i + 1)...])
            }
            var j = i
            while j < chars.count, chars[j] == " " { j += 1 }
            if j > i, j + 2 < chars.count, String(chars[j..<(j + 2)]).lowercased() == "to" {
                var k = j + 2
                guard k < chars.count, chars[k] == " " else { continue }
                while k < chars.count, chars[k] == " " { k += 1 }
                if k < chars.count, chars[k].isASCII, chars[k].isNumber { return String(chars[k...]) }
            }
        }
        return nil
    }

    private static func firstInteger(in text: String) -> Int? {
        var digits = ""
        for c in text {
            if c.isASCII, c.isNumber {
                digits.append(c)
            } else if !digits.isEmpty {
                break
            }
        }
        return digits.isEmpty ? nil : Int(digits.prefix(9))
    }

    /// Item kinds a yield may count, singular and plural.
    private static let itemKinds: [(String, String)] = [
        ("dozen", "dozen"), ("batch", "batches"), ("cake", "cakes"), ("sandwich", "sandwiches"), ("bun", "buns"),
        ("cookie", "cookies"), ("muffin", "muffins"), ("cupcake", "cupcakes"), ("loaf", "loaves"), ("pie", "pies"),
        ("cup", "cups"), ("pint", "pints"), ("gallon", "gallons"), ("ounce", "ounces"), ("pound", "pounds"),
        ("gram", "grams"), ("liter", "liters"), ("piece", "pieces"), ("layer", "layers"), ("scoop", "scoops"),
        ("bar", "bars"), ("patty", "patties"), ("hamburger bun", "hamburger buns"), ("pancake", "pancakes"),
        ("item", "items"),
    ]
}
