package import Foundation
import LarderCore
import LarderFormats

/// Dates as recipe formats and people write them.
///
/// RFC 3339 (`2024-01-01T10:00:00Z`, `+01:00`),
/// without a zone (`2024-01-01T10:00:00`, read as UTC), Paprika's `2024-01-01 10:00:00`, a bare day
/// (`2024-03-01`, `2024/03/01`), a European day (`01.03.2024`, `1.3.2024 18:30`) and a day with a
/// month name in English, German or French (`March 1, 2024`, `1st Mar 2024`, `1. März 2024`,
/// `1 mars 2024`). Dates without a zone are UTC; a slashed day-month order (`01/03/2024`) is
/// ambiguous and not read.
package enum RecipeDate {
    /// The instant `text` names, or `nil`.
    package static func parse(_ text: String) -> Date? {
        let t = text.trimmingWhitespace
        if let date = Timestamp.parse(t) { return date }
        if let date = parseISO(t) { return date }
        if t.count >= 10, t.prefix(10).filter({ $0 == "/" }).count == 2, t.first?.isNumber == true,
            t.prefix(4).allSatisfy(\.isNumber)
        {
            return parseISO(String(t.prefix(10)).replacingAll("/", with: "-") + String(t.dropFirst(10)))  // 2024/03/01
        }
        return parseWritten(t)
    }

    /// `YYYY-MM-DD`, then optional `[T ]HH:MM[:SS][.fff]` and an optional zone.
    private static func parseISO(_ t: String) -> Date? {
        let digits = Array(t.utf8)
        guard digits.count >= 10 else { return nil }
        // `YYYY-MM-DD`, then optional `[T ]HH:MM[:SS][.fff]` and an optional zone.
        var candidate = String(t.prefix(10))
        var rest = t.dropFirst(10)
        if let sep = rest.first, sep == "T" || sep == " " {
            let time = rest.dropFirst().prefix { $0.isNumber || $0 == ":" || $0 == "." }
            rest = rest.dropFirst(1 + time.count)
            var hms = String(time)
            if hms.count == 5 { hms += ":00" }
            guard hms.count >= 8 else { return nil }
            candidate += "T" + hms
        } else {
            candidate += "T00:00:00"
        }
        let zone = rest.trimmingPrefixSpaces
        if zone.isEmpty || zone == "Z" { return Timestamp.parse(candidate + "Z") }
        // `+0100` → `+01:00`
        if zone.count == 5, zone.first == "+" || zone.first == "-" {
            return Timestamp.parse(candidate + zone.prefix(3) + ":" + zone.suffix(2))
        }
        return Timestamp.parse(candidate + zone)
    }

    /// A day written with dots (`01.03.2024`) or with a month name (`March 1, 2024`, `1 mars 2024`),
    /// with an optional `HH:MM[:SS]` time; weekday names, `of` and ordinal suffixes are skipped.
    private static func parseWritten(_ text: String) -> Date? {
        var numbers: [Int] = []
        var month: Int?
        var time = "00:00:00"
        var hasDots = false
        for raw in text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
            var word = Substring(raw)
            if word.contains(":") {
                let parts = word.split(separator: ":").map { Int($0) }
                guard parts.count >= 2, parts.count <= 3, parts.allSatisfy({ $0 != nil }) else { return nil }
                let values = parts.compactMap { $0 }
                time =
                    values.map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
                    + (values.count == 2 ? ":00" : "")
                continue
            }
            if word.filter({ $0 == "." }).count == 2, word.first?.isNumber == true {  // 01.03.2024
                let parts = word.split(separator: ".").map { Int($0) }
                guard parts.count == 3, let day = parts[0], let number = parts[1], let year = parts[2] else {
                    return nil
                }
                numbers += [day, year]
                month = number
                hasDots = true
                continue
            }
            while word.last == "." { word = word.dropLast() }
            if let number = Int(word) {
                numbers.append(number)
            } else if let digits = Int(word.prefix { $0.isNumber }),
                ["st", "nd", "rd", "th"].contains(String(word.drop { $0.isNumber }))
            {
                numbers.append(digits)
            } else if let named = monthNumber(String(word)) {
                guard month == nil else { return nil }
                month = named
            } else if !(ignoredWords.contains(String(word)) || word.isEmpty) {
                return nil
            }
        }
        guard let month, numbers.count == 2, (1...12).contains(month) else { return nil }
        let year = numbers.first(where: { $0 >= 1000 }) ?? 0
        guard year >= 1000, year <= 9999, let day = numbers.first(where: { $0 != year || hasDots }) else { return nil }
        guard (1...31).contains(day) else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return Timestamp.parse("\(year)-\(two(month))-\(two(day))T\(time)Z")
    }

    /// The month a name or its abbreviation stands for, in English, German or French.
    private static func monthNumber(_ word: String) -> Int? {
        for (index, names) in monthNames.enumerated() where names.contains(word) { return index + 1 }
        return nil
    }

    private static let monthNames: [Set<String>] = [
        ["january", "jan", "januar", "jänner", "janvier", "janv"],
        ["february", "feb", "februar", "feber", "février", "fevrier", "févr", "fevr", "fév"],
        ["march", "mar", "märz", "maerz", "mars"],
        ["april", "apr", "avril", "avr"],
        ["may", "mai"],
        ["june", "jun", "juni", "juin"],
        ["july", "jul", "juli", "juillet", "juil"],
        ["august", "aug", "août", "aout"],
        ["september", "sep", "sept", "septembre"],
        ["october", "oct", "oktober", "okt", "octobre"],
        ["november", "nov", "novembre"],
        ["december", "dec", "dezember", "dez", "décembre", "decembre", "déc"],
    ]

    /// Words a written date may hold besides its parts: weekdays and joining words.
    private static let ignoredWords: Set<String> = [
        "of", "the", "le", "den", "am", "on", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
        "sunday", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "montag", "dienstag",
        "mittwoch", "donnerstag", "freitag", "samstag", "sonntag", "lundi", "mardi", "mercredi", "jeudi",
        "vendredi", "samedi", "dimanche", "-",
    ]

    /// `2024-01-01 10:00:00` in UTC, as Paprika writes dates.
    package static func paprikaString(_ date: Date) -> String {
        let iso = Timestamp.format(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8))
    }
}

extension Substring {
    fileprivate var trimmingPrefixSpaces: String { String(drop { $0 == " " }) }
}
