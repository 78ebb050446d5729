import LarderCore

/// How plain YAML scalars become values (the YAML 1.2 core schema), and which strings must be
/// quoted so that no YAML 1.1 or 1.2 reader takes them for something else.
///
/// Reading follows YAML 1.2 exactly: `null`, `Null`, `NULL`, `~` and the empty scalar are null;
/// `true`/`True`/`TRUE` and the `false` forms are booleans; `[-+]?[0-9]+`, `0o[0-7]+` and
/// `0x[0-9a-fA-F]+` are integers (doubles when they do not fit in 64 bits, as in JSON);
/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?.inf` and `.nan` are doubles.
/// Everything else, `no`, `Off`, `yes`, `1_000`, `2024-01-01` and `12:30` included, is a string.
///
/// Writing is stricter than reading, because the output may be read by YAML 1.1 tools (PyYAML,
/// Ruby, Go's yaml.v2) that resolve `yes`/`no`/`on`/`off`/`y`/`n`, sexagesimal `12:30`,
/// `0b101`, `1_000`, timestamps, `=` and `<<`. Every string such a reader could take for
/// another type is written quoted.
enum YAMLCoreSchema {
    // MARK: Reading

    /// The value of a plain (unquoted, untagged) scalar.
    static func resolvePlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Value {
        guard let first = bytes.first else { return .null }
        switch first {
        case UInt8(ascii: "~"):
            if bytes.count == 1 { return .null }
        case UInt8(ascii: "n"), UInt8(ascii: "N"):
            if isNull(bytes) { return .null }
        case UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            if let bool = bool(bytes) { return .bool(bool) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            if let number = number(bytes) { return number }
        default:
            break
        }
        return .string(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether the bytes spell null in the core schema.
    static func isNull(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.isEmpty || matches(bytes, "~") || matches(bytes, "null") || matches(bytes, "Null")
            || matches(bytes, "NULL")
    }

    /// The boolean the bytes spell in the core schema.
    static func bool(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        if matches(bytes, "true") || matches(bytes, "True") || matches(bytes, "TRUE") { return true }
        if matches(bytes, "false") || matches(bytes, "False") || matches(bytes, "FALSE") { return false }
        return nil
    }

    @inline(__always) private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let start = word.utf8Start
        for i in 0..<bytes.count where bytes[i] != start[i] { return false }
        return true
    }

    @inline(__always) private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    /// The integer or double the bytes spell in the core schema (`nil` for anything else).
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        let n = bytes.count
        guard n > 0 else { return nil }
        // 0x… and 0o… (unsigned in the core schema).
        if n > 2 && bytes[0] == UInt8(ascii: "0") && (bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "o")) {
            return radixInteger(bytes, radix: bytes[1] == UInt8(ascii: "x") ? 16 : 8)
        }
        var i = 0
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") { i = 1 }
        guard i < n else { return nil }
        if bytes[i] == UInt8(ascii: ".") && n - i == 4 {
            let rest = UnsafeBufferPointer(rebasing: bytes[i...])
            if matches(rest, ".inf") || matches(rest, ".Inf") || matches(rest, ".INF") {
                return .double(bytes[0] == UInt8(ascii: "-") ? -.infinity : .infinity)
            }
            if i == 0 && (matches(rest, ".nan") || matches(rest, ".NaN") || matches(rest, ".NAN")) {
                return .double(.nan)
            }
        }
        let integerStart = i
        while i < n, isDigit(bytes[i]) { i += 1 }
        let integerDigits = i - integerStart
        if i == n {
            guard integerDigits > 0 else { return nil }
            return decimalInteger(bytes, digitsFrom: integerStart)
        }
        var fractionDigits = 0
        if bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < n, isDigit(bytes[i]) { i += 1 }
            fractionDigits = i - fractionStart
            // `.5` needs its fraction digits; `5.` is fine.
            if integerDigits == 0 && fractionDigits == 0 { return nil }
        } else if integerDigits == 0 {
            return nil
        }
        if i < n && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < n && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) { i += 1 }
            let exponentStart = i
            while i < n, isDigit(bytes[i]) { i += 1 }
            guard i > exponentStart else { return nil }
        }
        guard i == n else { return nil }
        // A short ASCII string is stored inline, so this does not allocate.
        var text = String(decoding: bytes, as: UTF8.self)
        if fractionDigits == 0 && bytes[i - 1] == UInt8(ascii: ".") { text += "0" }
        return Double(text).map(Value.double)
    }

    private static func decimalInteger(_ bytes: UnsafeBufferPointer<UInt8>, digitsFrom start: Int) -> Value? {
        let negative = bytes[0] == UInt8(ascii: "-")
        var magnitude: UInt64 = 0
        for i in start..<bytes.count {
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (added, o2) = shifted.addingReportingOverflow(UInt64(bytes[i] - 0x30))
            if o1 || o2 { return Double(String(decoding: bytes, as: UTF8.self)).map(Value.double) }
            magnitude = added
        }
        if negative {
            if magnitude <= UInt64(Int64.max) { return .int(-Int64(magnitude)) }
            if magnitude == UInt64(Int64.max) + 1 { return .int(.min) }
            return .double(-Double(magnitude))
        }
        if magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
        return .double(Double(magnitude))
    }

    private static func radixInteger(_ bytes: UnsafeBufferPointer<UInt8>, radix: UInt64) -> Value? {
        var magnitude: UInt64 = 0
        var overflowed = false
        var approximate = 0.0
        for i in 2..<bytes.count {
            let c = bytes[i]
            let digit: UInt64
            switch c {
            case 0x30...0x37: digit = UInt64(c - 0x30)
            case 0x38...0x39 where radix == 16: digit = UInt64(c - 0x30)
            case 0x41...0x46 where radix == 16: digit = UInt64(c - 0x41 + 10)
            case 0x61...0x66 where radix == 16: digit = UInt64(c - 0x61 + 10)
            default: return nil
            }
            approximate = approximate * Double(radix) + Double(digit)
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (added, o2) = shifted.addingReportingOverflow(digit)
            overflowed = overflowed || o1 || o2
            magnitude = added
        }
        if overflowed || magnitude > UInt64(Int64.max) { return .double(approximate) }
        return .int(Int64(magnitude))
    }

    /// The value of a scalar with an explicit core-schema tag (`!!str`, `!!int`, …), or `nil`
    /// when the text does not fit the tag.
    static func resolve(_ bytes: UnsafeBufferPointer<UInt8>, tag: Tag) -> Value? {
        switch tag {
        case .string, .nonSpecific, .binary, .timestamp:
            return .string(String(decoding: bytes, as: UTF8.self))
        case .null:
            return isNull(bytes) ? .null : nil
        case .bool:
            return bool(bytes).map(Value.bool)
        case .int:
            if case .int(let i)? = number(bytes) { return .int(i) }
            return nil
        case .float:
            switch number(bytes) {
            case .int(let i)?: return .double(Double(i))
            case .double(let d)?: return .double(d)
            default: return nil
            }
        case .sequence, .mapping:
            return nil
        }
    }

    /// The tags Larder honours: the core schema's, plus `!!binary` and `!!timestamp` read as text.
    enum Tag {
        case string, null, bool, int, float, binary, timestamp, sequence, mapping
        /// `!`: the non-specific tag of a quoted scalar, a string.
        case nonSpecific

        /// The tag for the text libyaml reports (`tag:yaml.org,2002:str`, or a local `!x`).
        init?(_ text: String) {
            let prefix = "tag:yaml.org,2002:"
            if text == "!" {
                self = .nonSpecific
                return
            }
            guard text.hasPrefix(prefix) else { return nil }
            switch text.dropFirst(prefix.count) {
            case "str": self = .string
            case "null": self = .null
            case "bool": self = .bool
            case "int": self = .int
            case "float": self = .float
            case "binary": self = .binary
            case "timestamp": self = .timestamp
            case "seq": self = .sequence
            case "map": self = .mapping
            default: return nil
            }
        }
    }

    // MARK: Writing

    /// How a string must be written so that it reads back as the same string.
    enum StringStyle {
        /// Plain when the YAML syntax allows it (libyaml decides), quoted otherwise.
        case plain
        /// Always quoted: a YAML 1.1 or 1.2 reader would resolve the plain text to another type.
        case quoted
        /// A literal block `|`: multi-line text (libyaml falls back to double quotes when a
        /// block cannot hold it exactly, such as trailing spaces before a line break).
        case literal
        /// Double-quoted with escapes: carriage returns and the Unicode line breaks NEL, LS
        /// and PS, which a block or plain scalar would not keep.
        case doubleQuoted
    }

    /// The style for `bytes` (UTF-8).
    static func style(for bytes: UnsafeBufferPointer<UInt8>) -> StringStyle {
        guard !bytes.isEmpty else { return .quoted }
        var hasLineFeed = false
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c < 0x0E {
                if c == 0x0A { hasLineFeed = true } else if c == 0x0D { return .doubleQuoted }
            } else if c == 0xC2 {
                if i + 1 < n && bytes[i + 1] == 0x85 { return .doubleQuoted }
            } else if c == 0xE2 {
                if i + 2 < n && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) {
                    return .doubleQuoted
                }
            }
            i += 1
        }
        if hasLineFeed { return .literal }
        return resolvesAsNonString(bytes) ? .quoted : .plain
    }

    /// Whether a YAML 1.1 or 1.2 reader could resolve the plain text to something other than a string.
    ///
    /// Deliberately broad: a string that merely looks numeric (`3a`, `.x`) is quoted too.
    static func resolvesAsNonString(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return true }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            // Numbers in any base, with `_` separators, sexagesimal `12:30`, `.inf`, `.nan`.
            if bytes.allSatisfy(isNumberish) { return true }
            // Timestamps: `2001-12-14 21:59:43.10 -5` starts with `yyyy-`.
            return bytes.count >= 5 && isDigit(bytes[0]) && isDigit(bytes[1]) && isDigit(bytes[2]) && isDigit(bytes[3])
                && bytes[4] == UInt8(ascii: "-")
        case UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "o"),
            UInt8(ascii: "O"),
            UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"):
            guard bytes.count <= 5 else { return false }
            var packed: UInt64 = 0
            for c in bytes { packed = packed << 8 | UInt64(c >= 0x41 && c <= 0x5A ? c + 0x20 : c) }
            return keywords.contains(packed)
        case UInt8(ascii: "~"), UInt8(ascii: "="):
            return bytes.count == 1
        case UInt8(ascii: "<"):
            return bytes.count == 2 && bytes[1] == UInt8(ascii: "<")
        default:
            return false
        }
    }

    /// Words YAML 1.1 or 1.2 resolve to booleans or null, lowercased and packed big-endian into
    /// an integer (so any capitalisation is quoted, and checking does not allocate).
    private static let keywords: [UInt64] = ["y", "n", "yes", "no", "on", "off", "true", "false", "null"].map { word in
        word.utf8.reduce(0) { $0 << 8 | UInt64($1) }
    }

    @inline(__always) private static func isNumberish(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
            || c == UInt8(ascii: ":") || c == UInt8(ascii: ".") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
    }

    /// A double as plain YAML that reads back as the same double, in YAML 1.1 as in 1.2:
    /// always with a `.` in the mantissa (`15.0`, `1.0e+300`), `.inf`, `-.inf`, `.nan`.
    static func format(_ double: Double) -> String {
        if double.isNaN { return ".nan" }
        if double.isInfinite { return double < 0 ? "-.inf" : ".inf" }
        let text = double.description
        guard let e = text.firstIndex(of: "e"), !text[..<e].contains(".") else { return text }
        return text[..<e] + ".0" + text[e...]
    }
}
