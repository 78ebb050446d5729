public import Foundation
import LarderCore
import LarderFormats

/// Dates as recipe formats write them: RFC 3339 (`2024-01-01T10:00:00Z`, `+01:00`), without a
/// zone (`2024-01-01T10:00:00`, read as UTC), Paprika's `2024-01-01 10:00:00`, or a bare day.
public enum RecipeDate {
    /// The instant `text` names, or `nil`.
    public static func parse(_ text: String) -> Date? {
        let t = text.trimmingWhitespace
        if let date = Timestamp.parse(t) { return date }
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

    /// `2024-01-01 10:00:00` in UTC, as Paprika writes dates.
    public static func paprikaString(_ date: Date) -> String {
        let iso = Timestamp.format(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8))
    }
}

extension Substring {
    fileprivate var trimmingPrefixSpaces: String { String(drop { $0 == " " }) }
}
