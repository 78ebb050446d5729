import Foundation
package import LarderCore

/// The words and numbers of a text as the leaf census compares them: what survives the
/// normalisations an import applies.
///
/// HTML entities are decoded and tags stripped, compatibility forms folded (NFKC: `½` is `1⁄2`,
/// a no-break space a space), letters lower-cased, and the text split into runs of letters and
/// runs of digits; everything else (spaces, punctuation, line breaks) only separates. A number
/// is written canonically (`2.50` and `2,5` are `2.5`, `05` is `5`, `3.0` is `3`), so
/// a value the importer read as a number and wrote back matches its text.
package enum LeafText {
    /// The tokens of `text`, in order.
    ///
    /// O(length of the text).
    package static func tokens(_ text: String) -> [String] {
        var s = text
        // A schema.org enumeration (`https://schema.org/VegetarianDiet`) is read as its name.
        for prefix in ["https://schema.org/", "http://schema.org/"] where s.hasPrefix(prefix) {
            s = String(s.dropFirst(prefix.count))
        }
        if s.contains("&") { s = HTMLText.decodeEntitiesFully(s) }
        if s.contains("<") { s = HTMLText.stripTags(s) }
        if s.unicodeScalars.contains(where: { !$0.isASCII }) { s = s.precomposedStringWithCompatibilityMapping }
        var out: [String] = []
        var current = String.UnicodeScalarView()
        var inNumber = false
        func flush() {
            guard !current.isEmpty else { return }
            let token = String(current)
            out.append(inNumber ? canonicalNumber(token) : token.lowercased())
            current = String.UnicodeScalarView()
        }
        let scalars = Array(s.unicodeScalars)
        for (index, c) in scalars.enumerated() {
            if c.properties.generalCategory == .decimalNumber {
                if !inNumber {
                    flush()
                    inNumber = true
                }
                current.append(c)
            } else if inNumber, c == "." || c == ",", index + 1 < scalars.count,
                scalars[index + 1].properties.generalCategory == .decimalNumber
            {
                current.append(".")
            } else if c.properties.isAlphabetic {
                // camelCase names split into words (`saturatedFat`), on both sides alike.
                let camel = c.properties.isUppercase && (current.last?.properties.isLowercase ?? false)
                if inNumber || camel {
                    flush()
                    inNumber = false
                }
                current.append(c)
            } else {
                flush()
                inNumber = false
            }
        }
        flush()
        return out
    }

    /// The tokens of a scalar value: a text's tokens, a number written canonically, a boolean as
    /// `true`/`false`; none for null and containers.
    package static func tokens(_ value: Value) -> [String] {
        switch value {
        case .string(let s): tokens(s)
        case .int(let i): [String(i)]
        case .double(let d): [canonical(d)]
        case .bool(let b): [b ? "true" : "false"]
        default: []
        }
    }

    /// The tokens of `text` as hashes (``hash(_:)``), without a string per token.
    ///
    /// ASCII text without entities or tags takes a byte loop; other text ``tokens(_:)``.
    ///
    /// O(length of the text).
    package static func hashes(_ text: String) -> [UInt64] {
        var none: [Bool]? = nil
        return hashes(text, wholeNumbers: &none)
    }

    /// ``hashes(_:)``, and when `wholeNumbers` is not nil, whether each token is a whole number
    /// (digits alone), appended to it.
    static func hashes(_ text: String, wholeNumbers: inout [Bool]?) -> [UInt64] {
        let bytes = Array(text.utf8)
        if bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") })
            || text.hasPrefix("https://schema.org/") || text.hasPrefix("http://schema.org/")
        {
            let tokens = tokens(text)
            wholeNumbers?.append(contentsOf: tokens.map { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
            return tokens.map(hash)
        }
        var out: [UInt64] = []
        var token: [UInt8] = []
        token.reserveCapacity(32)
        var inNumber = false
        var hasPoint = false
        func flush() {
            guard !token.isEmpty else { return }
            wholeNumbers?.append(inNumber && !hasPoint)
            if !inNumber {
                out.append(hash(token))
            } else if hasPoint {
                out.append(hash(canonicalNumber(String(decoding: token, as: UTF8.self))))
            } else {
                let significant = token.drop { $0 == UInt8(ascii: "0") }
                out.append(significant.isEmpty ? hash("0") : hash(significant))
            }
            token.removeAll(keepingCapacity: true)
            hasPoint = false
        }
        for (index, c) in bytes.enumerated() {
            let isDigit = c >= 0x30 && c <= 0x39
            let isUpper = c >= 0x41 && c <= 0x5A
            let isLower = c >= 0x61 && c <= 0x7A
            if isDigit {
                if !inNumber {
                    flush()
                    inNumber = true
                }
                token.append(c)
            } else if inNumber, c == UInt8(ascii: ".") || c == UInt8(ascii: ","), index + 1 < bytes.count,
                bytes[index + 1] >= 0x30 && bytes[index + 1] <= 0x39
            {
                token.append(UInt8(ascii: "."))
                hasPoint = true
            } else if isUpper || isLower {
                let camel = isUpper && (token.last.map { $0 >= 0x61 && $0 <= 0x7A } ?? false) && !inNumber
                if inNumber || camel {
                    flush()
                    inNumber = false
                }
                token.append(isUpper ? c + 0x20 : c)
            } else {
                flush()
                inNumber = false
            }
        }
        flush()
        return out
    }

    /// The hashes of a scalar value's tokens (see ``tokens(_:)-(Value)``).
    package static func hashes(_ value: Value) -> [UInt64] {
        switch value {
        case .string(let s): hashes(s)
        default: tokens(value).map(hash)
        }
    }

    /// A token's 64-bit FNV-1a hash: the same in every process, and collisions negligible for
    /// the few hundred tokens of a record.
    package static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }

    /// A token's hash.
    package static func hash(_ token: String) -> UInt64 { hash(token.utf8) }

    /// `digits` (ASCII or other decimal digits, maybe with one `.`) as a canonical number.
    static func canonicalNumber(_ digits: String) -> String {
        if digits.contains("."), let d = Double(digits) { return canonical(d) }
        // Whole numbers (of any length or script) without their leading zeros.
        let trimmed = digits.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// A number as its shortest text: whole numbers without a fraction.
    static func canonical(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}

/// The tokens of a built record, for the leaf census: those of its own fields, and those of its
/// `extras`, each a set.
///
/// Besides its values' tokens the record's own set holds the names of its nutrition facts
/// (`saturatedFatContent`), a step timer's minutes, and preparation plus cooking time (a total
/// equal to it is left to them). Built once per record, O(record size); the extras set only when
/// a leaf needs it.
package struct LeafIndex {
    private(set) var carried = Set<UInt64>()
    /// The record's dates (creation, change).
    private(set) var dates: [Date] = []
    /// Whether the record has an image.
    private(set) var hasImage = false
    private var extrasValue: Value
    private var extrasTokens: Set<UInt64>?

    /// Indexes `record` (a recipe's value); its `extras` member is indexed apart, on demand.
    package init(record: Value) {
        extrasValue = record["extras"] ?? .null
        guard let fields = record.objectValue else { return }
        for field in fields where field.key != "extras" {
            Self.add(field.value, to: &carried)
            switch field.key {
            case "nutrition":
                for fact in field.value.objectValue ?? Fields() { carried.formUnion(LeafText.hashes(fact.key)) }
            case "instructions":
                for step in field.value.arrayValue ?? [] {
                    if case .int(let seconds) = step["timerSeconds"] ?? .null {
                        carried.insert(LeafText.hash(String((seconds + 59) / 60)))
                    }
                }
            case "createdAt", "updatedAt":
                if let date = field.value.stringValue.flatMap(Timestamp.parse) { dates.append(date) }
            case "imageRef", "images":
                hasImage = true
            default:
                break
            }
        }
        if case .int(let prep) = record["prepTime"] ?? .null, case .int(let cook) = record["cookTime"] ?? .null,
            case (let sum, false) = prep.addingReportingOverflow(cook)
        {
            carried.insert(LeafText.hash(String(sum)))
        }
    }

    /// Whether every token is among the record's own.
    package func carries(_ tokens: [UInt64]) -> Bool {
        tokens.allSatisfy(carried.contains)
    }

    /// Whether every token is among the record's own or its extras'.
    package mutating func keeps(_ tokens: [UInt64]) -> Bool {
        if extrasTokens == nil {
            var set = Set<UInt64>()
            Self.add(extrasValue, to: &set)
            extrasTokens = set
        }
        let extras = extrasTokens ?? []
        return tokens.allSatisfy { carried.contains($0) || extras.contains($0) }
    }

    /// Adds `value`'s tokens (its leaves', to a depth of 32) to `set`.
    private static func add(_ value: Value, to set: inout Set<UInt64>, depth: Int = 0) {
        guard depth < 32 else { return }
        switch value {
        case .array(let elements): for element in elements { add(element, to: &set, depth: depth + 1) }
        case .object(let fields): for field in fields { add(field.value, to: &set, depth: depth + 1) }
        default: set.formUnion(LeafText.hashes(value))
        }
    }
}
