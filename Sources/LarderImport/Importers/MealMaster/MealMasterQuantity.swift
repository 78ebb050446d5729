import Foundation
import LarderCore

/// MealMaster quantities: whole numbers, decimals and fractions (`1 1/2`, `3/4`, `.5`, `1-2`),
/// read to a number and written back as MealMaster writes them (fractions of 2, 3, 4, 8 and 16).
enum MealMasterQuantity {
    /// The number `text` says (`1 1/2` → 1.5); `nil` for anything else.
    static func value(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard !parts.isEmpty, parts.count <= 2 else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            if let slash = part.firstIndex(of: "/") {
                guard let top = Double(part[..<slash]), let bottom = Double(part[part.index(after: slash)...]),
                    bottom > 0, index == parts.count - 1
                else { return nil }
                total += top / bottom
            } else {
                guard index == 0, let number = Double(part.replacingOccurrences(of: ",", with: ".")), number >= 0 else {
                    return nil
                }
                total += number
            }
        }
        return total.isFinite ? total : nil
    }

    /// `text` written the MealMaster way (`1.5` → `1 1/2`, `2 - 3` → `2-3`); `nil` when it is no quantity.
    static func normalized(_ text: String) -> String? {
        let collapsed = text.split(separator: " ").joined(separator: " ")
        let sides = collapsed.split(separator: "-", omittingEmptySubsequences: false)
        if sides.count == 2 {
            let low = sides[0].trimmingBlanks
            let high = sides[1].trimmingBlanks
            guard let a = value(low), let b = value(high) else { return nil }
            return format(a) + "-" + format(b)
        }
        return value(collapsed).map(format)
    }

    /// A number as a whole and a fraction (`1 1/2`, `3/4`, `2`), else a decimal with up to 3 places.
    static func format(_ number: Double) -> String {
        // A quantity past Int's range (`1e300`), or not finite, has no whole part to print.
        guard let wholeNumber = Int(rounding: number, .down) else { return String(number) }
        let whole = number.rounded(.down)
        let rest = number - whole
        if rest < 0.0005 { return String(wholeNumber) }
        for denominator in [2, 3, 4, 8, 16] {
            let top = rest * Double(denominator)
            if abs(top - top.rounded()) < 0.01, top.rounded() >= 1 {
                let fraction = "\(Int(top.rounded()))/\(denominator)"
                return whole == 0 ? fraction : "\(wholeNumber) \(fraction)"
            }
        }
        var text = String(format: "%.3f", number)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
