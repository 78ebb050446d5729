import Foundation
import LarderCore

/// Crouton's ingredient quantities: an amount (and an optional upper amount) with a
/// `quantityType` code, and the ingredient line they make with the ingredient's name.
///
/// The codes are those Crouton writes (`CUP`, `TABLESPOON`, `TEASPOON`, `GRAMS`, `KGS`, `MILLS`,
/// `OUNCE`, `FLUID_OUNCE`, `POUND`, `CAN`, `BUNCH`, `PACKET`, `PINCH`, `ITEM`), as public
/// readers of `.crumb` files list them.
enum CroutonQuantity {
    /// The unit word of each code (`ITEM` has none).
    static let words: [String: String] = [
        "CUP": "cup", "TABLESPOON": "tbsp", "TEASPOON": "tsp", "GRAMS": "g", "KGS": "kg", "MILLS": "ml",
        "LITRES": "l", "OUNCE": "oz", "FLUID_OUNCE": "fl oz", "POUND": "lb", "CAN": "can", "BUNCH": "bunch",
        "PACKET": "packet", "PINCH": "pinch", "ITEM": "",
    ]

    /// The code for a unit as Larder's ingredient parser or a user writes it.
    static func code(forUnit unit: String?) -> String? {
        guard let unit = unit?.lowercased() else { return "ITEM" }
        let aliases: [String: String] = [
            "cups": "CUP", "tablespoon": "TABLESPOON", "tablespoons": "TABLESPOON", "teaspoon": "TEASPOON",
            "teaspoons": "TEASPOON", "gram": "GRAMS", "grams": "GRAMS", "kilogram": "KGS", "kilograms": "KGS",
            "millilitre": "MILLS", "milliliter": "MILLS", "millilitres": "MILLS", "milliliters": "MILLS",
            "ounce": "OUNCE", "ounces": "OUNCE", "lbs": "POUND", "pound": "POUND", "pounds": "POUND", "cans": "CAN",
            "pinches": "PINCH", "packets": "PACKET", "bunches": "BUNCH",
        ]
        return aliases[unit] ?? words.first { $0.value == unit && !unit.isEmpty }?.key
    }

    /// The ingredient line Larder reads from a Crouton ingredient: amount (a range when there is an
    /// upper amount), the code's unit word, the name.
    static func line(amount: Double?, upper: Double?, code: String?, name: String) -> String {
        var parts: [String] = []
        if let amount {
            parts.append(upper.map { "\(number(amount))-\(number($0))" } ?? number(amount))
            if let code {
                let word = words[code] ?? code.lowercased().replacingOccurrences(of: "_", with: " ")
                if !word.isEmpty { parts.append(word) }
            }
        }
        parts.append(name)
        return parts.joined(separator: " ")
    }

    /// A number as recipes write it: whole numbers bare, common fractions as ½, ¼, ¾, ⅓, ⅔
    /// (after a whole part: `1½`), else up to three decimals.
    static func number(_ value: Double) -> String {
        let whole = value.rounded(.down)
        // A number past Int's range (`1e300` in a file), or not finite, has no whole part to print.
        guard let wholeNumber = Int(rounding: value, .down) else { return String(value) }
        let fraction = value - whole
        let glyphs: [(Double, String)] = [(0.5, "½"), (0.25, "¼"), (0.75, "¾"), (1.0 / 3, "⅓"), (2.0 / 3, "⅔")]
        if abs(fraction) < 0.0005 { return String(wholeNumber) }
        if let glyph = glyphs.first(where: { abs($0.0 - fraction) < 0.002 })?.1 {
            return whole == 0 ? glyph : "\(wholeNumber)\(glyph)"
        }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
