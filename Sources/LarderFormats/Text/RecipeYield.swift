/// Recipe yields as published: `8`, `"4 servings"`, `"Makes 12 cookies"`, `"4-6"`, lists.
public enum RecipeYield {
    /// The yield in the form `<n> servings` or `<n> <items>` (`12 cookies`, `1 loaf`,
    /// `2 dozen`); ranges take their upper end. `nil` when there is no text.
    public static func normalized(_ text: String) -> String? {
        var serve = HTMLText.normalize(text)
        guard !serve.isEmpty else { return nil }
        if let rangeEnd = upperEndOfRange(serve) { serve = rangeEnd }
        let number = firstInteger(in: serve) ?? 0
        let lower = serve.lowercased()
        var best: (length: Int, text: String)?
        for (singular, plural) in itemKinds {
            let length: Int
            if lower.contains(singular) { length = singular.count } else if lower.contains(plural) { length = plural.count } else { continue }
            if length > (best?.length ?? 0) { best = (length, "\(number) \(number == 1 ? singular : plural)") }
        }
        if let best { return best.text }
        let words = Set(lower.split(whereSeparator: { !$0.isLetter }).map(String.init))
        if !words.isDisjoint(with: ["sandwiches", "tacquitos", "makes", "cups", "appetizer", "porzioni", "cookies", "buns"]) {
            return "\(number) item\(number == 1 ? "" : "s")"
        }
        return "\(number) serving\(number == 1 ? "" : "s")"
    }

    /// The number of servings a yield text gives (its first whole number, the lower end of a
    /// range), or `nil` when it has none or it is zero.
    public static func servings(_ text: String) -> Int? {
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
