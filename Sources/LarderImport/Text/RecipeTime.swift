import LarderCore
import LarderFormats

/// Durations as recipe formats write them: ISO 8601 (`PT1H30M`, `P0DT0H45M`), broken ISO
/// (`PTundefinedM`, `PT-5M`), and text (`1 hour 30 mins`, `12-15 minutes`, `1½ hrs`).
package enum RecipeTime {
    /// Whole minutes (rounded up from seconds), or `nil` when the text holds no duration, a zero one,
    /// or one past Int's range.
    ///
    /// Negative durations count as their magnitude; ranges take their upper end.
    package static func minutes(from text: String) -> Int? {
        let trimmed = text.trimmingWhitespace
        if let whole = Int(trimmed) { return whole > 0 ? whole : nil }
        if let seconds = iso8601Seconds(trimmed) {
            // `PT99999999999999999999H` is more minutes than Int holds: no duration Larder can keep.
            guard let minutes = Int(rounding: seconds / 60, .up) else { return nil }
            return minutes == 0 ? nil : minutes
        }
        return textMinutes(trimmed)
    }

    /// The seconds an ISO 8601 duration stands for; `nil` when the text is not one.
    ///
    /// The form is `P[nY][nM][nW][nD][T[nH][nM][nS]]`. Years count 365 days and months 30.
    package static func iso8601Seconds(_ text: String) -> Double? {
        // Not a duration unless it starts with `P` (after a sign): most text is turned away before
        // it is copied in capitals.
        let lead = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst().first : text.utf8.first
        guard lead == UInt8(ascii: "P") || lead == UInt8(ascii: "p") else { return nil }
        var s = Substring(text.uppercased())
        var sign = 1.0
        if s.hasPrefix("-") {
            sign = -1
            s = s.dropFirst()
        }
        guard s.hasPrefix("P"), s.count > 1 else { return nil }
        s = s.dropFirst()
        var total = 0.0
        var inTime = false
        var number = ""
        var sawComponent = false
        for c in s {
            if c == "T" {
                guard number.isEmpty, !inTime else { return nil }
                inTime = true
                continue
            }
            if c.isNumber || c == "." || c == "," || (c == "-" && number.isEmpty) {
                number.append(c == "," ? "." : c)
                continue
            }
            guard let value = Double(number) else { return nil }
            number = ""
            let unit: Double
            switch (c, inTime) {
            case ("Y", false): unit = 365 * 86_400
            case ("M", false): unit = 30 * 86_400
            case ("W", false): unit = 7 * 86_400
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            total += abs(value) * unit
            sawComponent = true
        }
        guard number.isEmpty, sawComponent else { return nil }
        return abs(total * sign)
    }

    /// Whether a time is written as a range (`50 - 60 minutes`, `1–2 h`, `20 to 30 min`).
    ///
    /// A duration keeps the upper end only.
    static func isRange(_ text: String) -> Bool {
        let s = text.lowercased()
        for separator in ["-", "–", " to "] {
            guard let range = s.firstRange(of: separator) else { continue }
            if s[..<range.lowerBound].contains(where: \.isNumber), s[range.upperBound...].contains(where: \.isNumber) {
                return true
            }
        }
        return false
    }

    /// Reads `1 hour 30 minutes`, `1h30`, `90 min`, `1 1/2 hours`, `2 days`; ranges (`12-15
    /// minutes`, `10 to 12 min`) take the upper end.
    static func textMinutes(_ text: String) -> Int? {
        var s = Substring(text.lowercased())
        if let dash = s.firstIndex(where: { $0 == "-" || $0 == "–" }), s[..<dash].contains(where: \.isNumber) {
            s = s[s.index(after: dash)...]
        }
        if let to = s.firstRange(of: " to "), s[..<to.lowerBound].contains(where: \.isNumber) {
            s = s[to.upperBound...]
        }
        let scalars = Array(s)
        var i = 0
        var total = 0.0
        var found = false
        var lastUnit = ""
        while i < scalars.count {
            guard let (value, next) = readNumber(scalars, i) else {
                i = resumption(after: scalars, i)
                continue
            }
            i = next
            while i < scalars.count, scalars[i] == " " { i += 1 }
            var word = ""
            while i < scalars.count, scalars[i].isLetter {
                word.append(scalars[i])
                i += 1
            }
            if word.isEmpty, i < scalars.count, scalars[i] == ":" {
                total += value * 60
                lastUnit = "h"
                found = true
                i += 1
                continue
            }
            switch word {
            case "d", "day", "days", "tag", "tage", "dag", "dagen", "jour", "jours": total += value * 1440
            case "h", "hr", "hrs", "hour", "hours", "óra", "std", "stunde", "stunden", "heure", "heures", "uur", "ora",
                "ore", "hora", "horas", "timer", "time", "tim", "timmar":
                total += value * 60
                lastUnit = "h"
            case "m", "min", "mins", "minute", "minutes", "minuten", "minuut", "minuti", "minutos", "perc", "minutter",
                "minuter", "minut", "minuty":
                total += value
                lastUnit = "m"
            case "s", "sec", "secs", "second", "seconds", "sekunden": total += value / 60
            case "":
                // A bare number after hours is minutes (`1h30`); alone it is minutes.
                total += lastUnit == "h" || !found ? value : 0
                lastUnit = "m"
            default:
                if word.hasPrefix("min") {
                    total += value
                } else if word.hasPrefix("h") {
                    total += value * 60
                } else {
                    continue
                }
            }
            found = true
        }
        guard found, let minutes = Int(rounding: total) else { return nil }
        return minutes > 0 ? minutes : nil
    }

    /// Where to look for a number after `readNumber` found none at `start`.
    ///
    /// The next character, or past a run of digits with two or more separators (`1,2,3`), which no
    /// suffix reads before its last two groups (`2,3`): the scan resumes at the second-to-last group. Looking
    /// again from each character of such a run was quadratic in its length (fuzzing, `csv`);
    /// the numbers found are the same.
    static func resumption(after c: [Character], _ start: Int) -> Int {
        var i = start
        var separators: [Int] = []
        var sawDigit = false
        while i < c.count,
            isDigit(c[i]) || ((c[i] == "." || c[i] == ",") && sawDigit && i + 1 < c.count && isDigit(c[i + 1]))
        {
            if isDigit(c[i]) { sawDigit = true } else { separators.append(i) }
            i += 1
        }
        guard separators.count >= 2 else { return start + 1 }
        return separators[separators.count - 2] + 1
    }

    /// A number at `i`: digits with an optional decimal part, a fraction `1/2`, a mixed number
    /// `1 1/2`, or a vulgar fraction character (`½`, `1½`).
    static func readNumber(_ c: [Character], _ start: Int) -> (Double, Int)? {
        // Not a digit: a vulgar fraction alone, or no number (what the scan below finds there,
        // without a string and a `Double` parse for each character of a text).
        if start < c.count, !isDigit(c[start]) {
            guard !c[start].isASCII, let fraction = vulgarFractions[c[start]] else { return nil }
            return (fraction, start + 1)
        }
        var i = start
        var digits = ""
        while i < c.count,
            isDigit(c[i]) || ((c[i] == "." || c[i] == ",") && !digits.isEmpty && i + 1 < c.count && isDigit(c[i + 1]))
        {
            digits.append(c[i] == "," ? "." : c[i])
            i += 1
        }
        let value = Double(digits)
        if i < c.count, !c[i].isASCII, let fraction = vulgarFractions[c[i]] {
            return ((value ?? 0) + fraction, i + 1)
        }
        guard let whole = value else { return nil }
        // `1/2` or `1 1/2`
        var j = i
        if j < c.count, c[j] == " " { j += 1 }
        if j < c.count, !c[j].isASCII, let fraction = vulgarFractions[c[j]] { return (whole + fraction, j + 1) }
        if i < c.count, c[i] == "/" {
            let (denominator, end) = digitRun(c, i + 1)
            if let d = Double(denominator), d > 0 { return (whole / d, end) }
            return (whole, i)
        }
        if j > i {
            let (numerator, slash) = digitRun(c, j)
            if slash < c.count, c[slash] == "/" {
                let (denominator, end) = digitRun(c, slash + 1)
                if let n = Double(numerator), let d = Double(denominator), d > 0 { return (whole + n / d, end) }
            }
        }
        return (whole, i)
    }

    /// Whether `c` is an ASCII digit.
    ///
    /// What `c.isASCII && c.isNumber` says, without a Unicode property lookup. (The vulgar
    /// fractions are all past ASCII, so an ASCII character is never looked up among them.)
    @inline(__always) private static func isDigit(_ c: Character) -> Bool {
        guard let ascii = c.asciiValue else { return false }
        return ascii >= UInt8(ascii: "0") && ascii <= UInt8(ascii: "9")
    }

    /// The ASCII digits starting at `start` and the index after them.
    private static func digitRun(_ c: [Character], _ start: Int) -> (String, Int) {
        var k = start
        var digits = ""
        while k < c.count, isDigit(c[k]) {
            digits.append(c[k])
            k += 1
        }
        return (digits, k)
    }

    /// Unicode vulgar fractions and their values.
    package static let vulgarFractions: [Character: Double] = [
        "½": 0.5, "⅓": 1.0 / 3, "⅔": 2.0 / 3, "¼": 0.25, "¾": 0.75, "⅕": 0.2, "⅖": 0.4, "⅗": 0.6, "⅘": 0.8,
        "⅙": 1.0 / 6, "⅚": 5.0 / 6, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875, "⅐": 1.0 / 7, "⅑": 1.0 / 9,
        "⅒": 0.1,
    ]

    /// `PT1H30M` for 90 minutes (`PT0M` for 0).
    package static func iso8601(minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        if hours == 0 { return "PT\(rest)M" }
        return rest == 0 ? "PT\(hours)H" : "PT\(hours)H\(rest)M"
    }

    /// `PT45S`, `PT2M`, `PT1M30S` for a step timer.
    package static func iso8601(seconds: Int) -> String {
        if seconds % 60 == 0 { return iso8601(minutes: seconds / 60) }
        let minutes = seconds / 60
        return minutes == 0 ? "PT\(seconds)S" : "PT\(minutes)M\(seconds % 60)S"
    }
}
