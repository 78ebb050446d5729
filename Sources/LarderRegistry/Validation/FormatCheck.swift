/// Byte-level checks for the string formats JSON Schema asserts.
enum FormatCheck {
    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
    private static func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102) }
    private static func isAlpha(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }

    private static func number(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var value = 0
        for i in start..<(start + count) {
            guard isDigit(b[i]) else { return nil }
            value = value * 10 + Int(b[i] - 48)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// RFC 3339 `full-date`: `2024-02-29`.
    static func isDate(_ b: [UInt8]) -> Bool {
        guard b.count == 10 else { return false }
        return datePrefix(b)
    }

    private static func datePrefix(_ b: [UInt8]) -> Bool {
        guard let year = number(b, 0, 4), b[4] == 45, let month = number(b, 5, 2), b[7] == 45, let day = number(b, 8, 2)
        else { return false }
        return year > 0 && (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    /// RFC 3339 `date-time` (`T` and `Z` in either case), seconds 00-59, any fraction, `Z` or `±HH:MM`.
    static func isDateTime(_ b: [UInt8]) -> Bool {
        guard b.count >= 20, datePrefix(b), b[10] == 84 || b[10] == 116,
            let hour = number(b, 11, 2), b[13] == 58, let minute = number(b, 14, 2), b[16] == 58,
            let second = number(b, 17, 2),
            hour < 24, minute < 60, second < 60
        else { return false }
        var i = 19
        if b[i] == 46 {
            i += 1
            let start = i
            while i < b.count, isDigit(b[i]) { i += 1 }
            guard i > start else { return false }
        }
        guard i < b.count else { return false }
        if b[i] == 90 || b[i] == 122 { return i + 1 == b.count }
        guard b[i] == 43 || b[i] == 45, b.count == i + 6, let oh = number(b, i + 1, 2), b[i + 3] == 58,
            let om = number(b, i + 4, 2)
        else {
            return false
        }
        return oh < 24 && om < 60
    }

    /// RFC 4122 textual form: 8-4-4-4-12 hex digits.
    static func isUUID(_ b: [UInt8]) -> Bool {
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == 45 else { return false }
            } else if !isHex(c) {
                return false
            }
        }
        return true
    }

    /// An RFC 3986 URI: a scheme, `:`, then only URI characters with well-formed percent escapes,
    /// and an authority (after `//`) whose port, if any, is digits.
    static func isURI(_ b: [UInt8]) -> Bool {
        guard let first = b.first, isAlpha(first) else { return false }
        var i = 1
        while i < b.count, isAlpha(b[i]) || isDigit(b[i]) || b[i] == 43 || b[i] == 45 || b[i] == 46 { i += 1 }
        guard i < b.count, b[i] == 58 else { return false }
        i += 1
        var hashes = 0
        var j = i
        while j < b.count {
            let c = b[j]
            if c == 37 {
                guard j + 2 < b.count, isHex(b[j + 1]), isHex(b[j + 2]) else { return false }
                j += 3
                continue
            }
            if c == 35 { hashes += 1 }
            let allowed =
                isAlpha(c) || isDigit(c) || c == 45 || c == 46 || c == 95 || c == 126  // unreserved
                || c == 58 || c == 47 || c == 63 || c == 35 || c == 91 || c == 93 || c == 64  // gen-delims
                || c == 33 || c == 36 || c == 38 || c == 39 || c == 40 || c == 41 || c == 42 || c == 43 || c == 44
                || c == 59 || c == 61  // sub-delims
            guard allowed else { return false }
            j += 1
        }
        guard hashes <= 1 else { return false }
        // An authority's port must be digits: `http://host:port/…`.
        if b.count >= i + 2, b[i] == 47, b[i + 1] == 47 {
            var end = i + 2
            while end < b.count, b[end] != 47, b[end] != 63, b[end] != 35 { end += 1 }
            let authority = Array(b[(i + 2)..<end])
            let host =
                authority.split(separator: 64, omittingEmptySubsequences: false).last.map(Array.init) ?? authority
            if host.first != 91, let colon = host.lastIndex(of: 58) {
                for c in host[(colon + 1)...] where !isDigit(c) { return false }
            }
            if host.first == 91, !host.contains(93) { return false }
        }
        return true
    }
}
