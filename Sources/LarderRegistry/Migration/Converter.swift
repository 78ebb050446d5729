import Foundation
public import LarderCore

/// A named value converter for `convert` steps: changes a field's type (`tasteTag` → `tasteTags`).
///
/// `convert` gets the field's value (`nil` when absent) and returns the new value (`nil` leaves the
/// target absent); it throws ``ConversionFailure`` for a value it cannot convert, and the record
/// is rejected with that reason.
public struct Converter: Sendable {
    /// The id the manifest names.
    public var id: String
    /// What it does, for `schema show` and dry runs.
    public var summary: String
    /// The conversion.
    public var convert: @Sendable (Value?) throws -> Value?

    /// Creates a converter.
    public init(id: String, summary: String, convert: @escaping @Sendable (Value?) throws -> Value?) {
        self.id = id
        self.summary = summary
        self.convert = convert
    }

    /// The built-in converters, by id.
    public static let builtIn: [String: Converter] = {
        let all: [Converter] = [
            Converter(id: "wrap-list", summary: "a value becomes a one-element list; absent becomes []") { value in
                switch value {
                case nil, .null?: return .array([])
                case .array?: return value
                case let v?: return .array([v])
                }
            },
            Converter(id: "single-element", summary: "a one-element list becomes its element; fails on two or more") {
                value in
                guard let value, !value.isNull else { return nil }
                guard let list = value.arrayValue else { return value }
                guard list.count <= 1 else { throw ConversionFailure("has \(list.count) elements; only one fits") }
                return list.first
            },
            Converter(id: "to-string", summary: "a number or boolean becomes text") { value in
                switch value {
                case .int(let i)?: return .string(String(i))
                case .double(let d)?: return .string(d.schemaText)
                case .bool(let b)?: return .string(b ? "true" : "false")
                case .array?, .object?: throw ConversionFailure("\(value?.kindDescription ?? "") cannot become text")
                default: return value
                }
            },
            Converter(id: "to-integer", summary: "text or an integral number becomes an integer") { value in
                switch value {
                case .string(let s)?:
                    guard let i = Int64(s.trimmingCharacters(in: .whitespaces)) else {
                        throw ConversionFailure("\"\(s)\" is not an integer")
                    }
                    return .int(i)
                case .double(let d)?:
                    guard d.rounded() == d, abs(d) < 9.0e15 else { throw ConversionFailure("\(d) is not an integer") }
                    return .int(Int64(d))
                case .array?, .object?, .bool?:
                    throw ConversionFailure("\(value?.kindDescription ?? "") cannot become an integer")
                default: return value
                }
            },
            Converter(id: "to-number", summary: "text becomes a number") { value in
                guard case .string(let s)? = value else { return value }
                let trimmed = s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
                if let i = Int64(trimmed) { return .int(i) }
                guard let d = Double(trimmed), d.isFinite else { throw ConversionFailure("\"\(s)\" is not a number") }
                return .double(d)
            },
            Converter(id: "minutes-to-seconds", summary: "minutes × 60") { value in
                guard let value, !value.isNull else { return nil }
                let minutes = try ReaderNumber.double(value)
                guard let seconds = Int64(rounding: minutes * 60, .towardZero) else {
                    throw ConversionFailure("\(minutes) minutes is more seconds than an integer holds")
                }
                return .int(seconds)
            },
            Converter(id: "seconds-to-minutes", summary: "seconds ÷ 60, rounded") { value in
                guard let value, !value.isNull else { return nil }
                let seconds = try ReaderNumber.double(value)
                guard let minutes = Int64(rounding: seconds / 60) else {
                    throw ConversionFailure("\(seconds) seconds is more minutes than an integer holds")
                }
                return .int(minutes)
            },
            Converter(
                id: "duration-seconds",
                summary: "a duration in text (\"bake for 25 minutes\") becomes seconds; none leaves it absent"
            ) { value in
                guard case .string(let text)? = value else { return nil }
                return DurationText.seconds(in: text).map { .int(Int64($0)) }
            },
            Converter(id: "split-lines", summary: "text becomes a list of its non-empty lines") { value in
                guard case .string(let s)? = value else { return value }
                return .array(s.split(whereSeparator: \.isNewline).map { .string(String($0)) })
            },
            Converter(id: "join-lines", summary: "a list of text becomes one text, a line each") { value in
                guard let list = value?.arrayValue else { return value }
                return .string(list.compactMap(\.stringValue).joined(separator: "\n"))
            },
        ]
        return Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
    }()
}

/// Why a value could not be converted.
public struct ConversionFailure: Error, Sendable, CustomStringConvertible {
    /// The reason.
    public var message: String
    /// Creates a failure.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

enum ReaderNumber {
    static func double(_ value: Value) throws -> Double {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .string(let s):
            guard let d = Double(s) else { throw ConversionFailure("\"\(s)\" is not a number") }
            return d
        default: throw ConversionFailure("expected a number, found \(value.kindDescription)")
        }
    }
}

/// Finds a cooking duration in free text: "bake for 25 minutes", "simmer 1 1/2 hours",
/// "rest 10-15 min" (the upper end), "1 hr 20 mins", "30 seconds".
enum DurationText {
    private static let units: [(String, Double)] = [
        ("hours", 3600), ("hour", 3600), ("hrs", 3600), ("hr", 3600), ("h", 3600),
        ("minutes", 60), ("minute", 60), ("mins", 60), ("min", 60), ("m", 60),
        ("seconds", 1), ("second", 1), ("secs", 1), ("sec", 1), ("s", 1),
    ]

    /// Unit words that must appear for a duration to be there at all (a cheap first check).
    private static let markers: [[UInt8]] = ["min", "hour", "hr", "sec"].map { Array($0.utf8) }

    static func seconds(in text: String) -> Int? {
        let bytes = Array(text.utf8)
        var lower = bytes
        for i in lower.indices where lower[i] >= 65 && lower[i] <= 90 { lower[i] += 32 }
        let hasMarker = markers.contains { marker in
            lower.count >= marker.count
                && (0...(lower.count - marker.count)).contains { start in
                    lower[start..<(start + marker.count)].elementsEqual(marker)
                }
        }
        let hasShortUnit = lower.contains { $0 == 104 || $0 == 109 || $0 == 115 }  // h, m, s after a number: "25m"
        guard hasMarker || hasShortUnit else { return nil }
        let tokens = tokenize(lower)
        var total = 0.0
        var found = false
        var i = 0
        while i < tokens.count {
            // A number (with an optional fraction or range), then a unit.
            guard var amount = number(tokens[i]) else {
                i += 1
                continue
            }
            var j = i + 1
            if j < tokens.count, let fraction = number(tokens[j]), fraction < 1 {
                amount += fraction
                j += 1
            }
            if j + 1 < tokens.count, tokens[j] == "-", let upper = number(tokens[j + 1]) {
                amount = upper
                j += 2
            }
            let unitToken = j < tokens.count ? tokens[j] : ""
            if let (_, scale) = units.first(where: { $0.0 == unitToken }) {
                total += amount * scale
                found = true
                i = j + 1
            } else {
                i += 1
            }
        }
        // A duration past Int's range ("bake for 99999999999999999999 hours") is none; the text stays.
        return found && total > 0 ? Int(rounding: total) : nil
    }

    /// Words, numbers (digits, `.`, `/`), `-` for ranges and the vulgar fractions ½ ¼ ¾, from
    /// lowercased UTF-8; "25min" splits into "25" and "min", a sentence's full stop is dropped.
    private static func tokenize(_ b: [UInt8]) -> [String] {
        var tokens: [String] = []
        var current: [UInt8] = []
        func flush() {
            while current.count > 1, current.last == 46 { current.removeLast() }
            if !current.isEmpty { tokens.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        var i = 0
        while i < b.count {
            let c = b[i]
            let isDigit = c >= 48 && c <= 57
            let isLetter = c >= 97 && c <= 122
            if isDigit || isLetter || c == 46 || c == 47 {
                if isLetter, let last = current.last, last >= 48 && last <= 57 { flush() }
                current.append(c)
                i += 1
            } else if c == 0xC2, i + 1 < b.count, b[i + 1] == 0xBC || b[i + 1] == 0xBD || b[i + 1] == 0xBE {
                flush()
                tokens.append(b[i + 1] == 0xBD ? "½" : b[i + 1] == 0xBC ? "¼" : "¾")
                i += 2
            } else if c == 45 || (c == 0xE2 && i + 2 < b.count && b[i + 1] == 0x80 && b[i + 2] == 0x93) {
                flush()
                tokens.append("-")
                i += c == 45 ? 1 : 3
            } else {
                flush()
                i += 1
            }
        }
        flush()
        return tokens
    }

    private static func number(_ token: String) -> Double? {
        guard let first = token.utf8.first,
            (first >= 48 && first <= 57) || first == 46 || first >= 0xC0 || first == 97 || first == 111 || first == 116
        else { return nil }  // digits, ".", ½ ¼ ¾, a/an, one, two/three
        switch token {
        case "½": return 0.5
        case "¼": return 0.25
        case "¾": return 0.75
        case "a", "an", "one": return 1
        case "two": return 2
        case "three": return 3
        default: break
        }
        if let d = Double(token), d.isFinite, d >= 0 { return d }
        let parts = token.split(separator: "/")
        if parts.count == 2, let n = Double(parts[0]), let d = Double(parts[1]), d > 0 { return n / d }
        return nil
    }
}
