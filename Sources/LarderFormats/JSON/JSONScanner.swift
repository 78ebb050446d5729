import Foundation
import LarderCore
import LarderSystem

/// The hot JSON parse loop over one buffer, as a value type so its state stays in registers
/// (class properties would cost a dynamic exclusivity check on every access).
///
/// ``JSONReader`` drives it over its refilled buffer; ``parseDocument(_:name:maxDepth:)`` runs it
/// once over a whole document held in memory.
package struct JSONScanner {
    let buffer: UnsafePointer<UInt8>
    var pos: Int
    let limit: Int
    /// Whether `limit` is a hard stop (end of input or of the line) rather than a refill point.
    let atEnd: Bool
    let bufferBase: Int
    let maxDepth: Int
    let lenient: Bool
    var nodeOffsets: [Int]
    var keyRanges: [(Int, Int)]
    /// Lenient mode: lone surrogate escapes read as U+FFFD (buffer offset, the escape's text).
    var loneSurrogates: [(Int, String)] = []
    /// Lenient mode: repeated keys, both values kept (buffer offset, the key, the earlier value's key).
    var repeatedKeys: [(Int, String, String)] = []
    /// Whether the text parsed so far is byte for byte what ``JSONWriter`` writes for its value.
    ///
    /// That is: no whitespace between tokens, no escape the writer would spell otherwise, every
    /// number in the writer's spelling. Cleared at the first difference; a new scanner starts
    /// with it set.
    var verbatim = true

    @inline(__always) mutating func need(_ count: Int) throws {
        if limit - pos < count { throw NeedMore() }
    }

    @inline(__always) mutating func skipWhitespace() {
        while pos < limit {
            let c = buffer[pos]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
                pos += 1
                verbatim = false
            } else {
                return
            }
        }
    }

    mutating func describeByte(_ offset: Int) -> String {
        guard offset < limit else { return "end of input" }
        let c = buffer[offset]
        if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return String(format: "byte 0x%02X", c)
    }

    mutating func finishLine() throws {
        while pos < limit {
            let c = buffer[pos]
            if c == 0x20 || c == 0x0D || c == 0x09 {
                pos += 1
            } else {
                throw ScanError(message: "expected a newline after the record, found \(describeByte(pos))", offset: pos)
            }
        }
    }

    /// The value at the cursor: an object, a list, a string, a literal or a number.
    mutating func parseValue(depth: Int) throws -> Value {
        skipWhitespace()
        try need(1)
        nodeOffsets.append(bufferBase + pos)
        let c = buffer[pos]
        switch c {
        case UInt8(ascii: "{"):
            guard depth <= maxDepth else {
                throw ScanError(message: "nesting deeper than \(maxDepth) levels", offset: pos, refused: true)
            }
            return try parseObject(depth: depth)
        case UInt8(ascii: "["):
            guard depth <= maxDepth else {
                throw ScanError(message: "nesting deeper than \(maxDepth) levels", offset: pos, refused: true)
            }
            return try parseArray(depth: depth)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw ScanError(message: "expected a value, found \(describeByte(pos))", offset: pos)
        }
    }

    /// The object whose `{` is at the cursor; a duplicate key is an error (and, when lenient, a
    /// trailing comma is not).
    mutating func parseObject(depth: Int) throws -> Value {
        pos += 1
        var fields: [Field] = []
        let keyFrame = keyRanges.count
        defer { keyRanges.removeSubrange(keyFrame...) }
        var keySignatures: UInt64 = 0
        var manyKeys: Set<[UInt8]>?
        // Lenient mode: the members that hold a repeated key's earlier value.
        var aliases: [Int] = []
        skipWhitespace()
        try need(1)
        if buffer[pos] == UInt8(ascii: "}") {
            pos += 1
            return .object(Fields(uncheckedUniqueElements: fields))
        }
        // Records' objects mostly have a handful of members: one allocation instead of four.
        fields.reserveCapacity(8)
        while true {
            skipWhitespace()
            try need(1)
            guard buffer[pos] == UInt8(ascii: "\"") else {
                throw ScanError(message: "expected a quoted key, found \(describeByte(pos))", offset: pos)
            }
            let keyOffset = pos
            let key = try parseString()
            let keyLength = pos - keyOffset
            var repeated: Int?
            do {
                try noteKey(
                    key, at: keyOffset, length: keyLength, since: keyFrame, seen: &keySignatures, many: &manyKeys)
            } catch let error as ScanError where error.duplicateKey && lenient {
                repeated = fields.firstIndex { $0.key == key }
                if repeated == nil { throw error }
            }
            skipWhitespace()
            try need(1)
            guard buffer[pos] == UInt8(ascii: ":") else {
                throw ScanError(
                    message: "expected ':' after key \"\(key)\", found \(describeByte(pos))", offset: pos)
            }
            pos += 1
            let value = try parseValue(depth: depth + 1)
            if let repeated {
                keepBoth(&fields, at: repeated, later: value, keyOffset: keyOffset)
                aliases.append(fields.count - 1)
            } else {
                fields.append(Field(key: key, value: value))
            }
            skipWhitespace()
            try need(1)
            let d = buffer[pos]
            pos += 1
            if d == UInt8(ascii: "}") { break }
            guard d == UInt8(ascii: ",") else {
                pos -= 1
                throw ScanError(
                    message: "expected ',' or '}' after a field, found \(describeByte(pos))", offset: pos)
            }
            if lenient {
                skipWhitespace()
                try need(1)
                if buffer[pos] == UInt8(ascii: "}") {
                    pos += 1
                    verbatim = false
                    break
                }
            }
        }
        if !aliases.isEmpty { Self.renameTakenAliases(&fields, aliases) }
        return .object(Fields(uncheckedUniqueElements: fields))
    }

    /// Numbers on an earlier value's key that a later member of the object has as its own key,
    /// so the object's keys stay unique.
    static func renameTakenAliases(_ fields: inout [Field], _ aliases: [Int]) {
        for index in aliases {
            let base = fields[index].key
            var n = 2
            while fields.indices.contains(where: { $0 != index && fields[$0].key == fields[index].key }) {
                fields[index].key = "\(base) \(n)"
                n += 1
            }
        }
    }

    /// Lenient mode's answer to a repeated key (JSON-LD pages repeat `"description"`).
    ///
    /// The later value is the key's, as browsers, JSON-LD processors and recipe-scrapers read it, and the
    /// earlier one stays beside it under `key (earlier value)` (numbered past the first), so an
    /// importer keeps it in extras; ``JSONReader`` warns with the line and column. Strict mode
    /// (convert, validate) refuses the document instead.
    mutating func keepBoth(_ fields: inout [Field], at index: Int, later: Value, keyOffset: Int) {
        let key = fields[index].key
        var alias = "\(key) (earlier value)"
        var n = 2
        while fields.contains(where: { $0.key == alias }) {
            alias = "\(key) (earlier value \(n))"
            n += 1
        }
        fields.append(Field(key: alias, value: fields[index].value))
        fields[index].value = later
        repeatedKeys.append((keyOffset, key, alias))
        verbatim = false
    }

    /// Records the key just read, which starts at `offset` and spans `length` bytes of the
    /// buffer, after checking that the object (whose keys start at `frame`) has no such key yet.
    ///
    /// `seen` has a bit set for each key so far (by its length and first and last byte): a key
    /// whose bit is clear cannot repeat one, and skips the comparisons (a record's 30-odd keys
    /// took several hundred). Past ``linearKeyLimit`` keys the object's keys go into `many`, a set
    /// of their source text, so an object of 100,000 members costs 100,000 lookups, not 5 billion
    /// comparisons (a 1 MB request of them held the emulator for 15 s).
    mutating func noteKey(
        _ key: String, at offset: Int, length: Int, since frame: Int, seen: inout UInt64, many: inout Set<[UInt8]>?
    ) throws {
        if many != nil || keyRanges.count - frame >= Self.linearKeyLimit {
            if many == nil {
                var keys = Set<[UInt8]>(minimumCapacity: 2 * Self.linearKeyLimit)
                for (start, count) in keyRanges[frame...] { keys.insert(sourceText(at: start, length: count)) }
                many = keys
            }
            guard many?.insert(sourceText(at: offset, length: length)).inserted == true else {
                throw ScanError(message: "duplicate key \"\(key)\"", offset: offset, duplicateKey: true)
            }
            keyRanges.append((offset, length))
            return
        }
        // `length` counts the quotes (for "" the two bytes read are the quotes themselves).
        let signature = (length &* 7 &+ Int(buffer[offset + 1]) &+ Int(buffer[offset + length - 2]) &* 3) & 63
        let bit: UInt64 = 1 << UInt64(signature)
        guard seen & bit != 0 else {
            seen |= bit
            keyRanges.append((offset, length))
            return
        }
        var k = frame
        while k < keyRanges.count {
            let (otherStart, otherLength) = keyRanges[k]
            if otherLength == length && memcmp(buffer + otherStart, buffer + offset, length) == 0 {
                throw ScanError(message: "duplicate key \"\(key)\"", offset: offset, duplicateKey: true)
            }
            k += 1
        }
        keyRanges.append((offset, length))
    }

    /// Keys an object may have before its duplicate check uses a set instead of comparisons.
    static let linearKeyLimit = 32

    /// The buffer's bytes at `start`, `length` long (a key's source spelling).
    func sourceText(at start: Int, length: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: buffer + start, count: length))
    }

    /// The list whose `[` is at the cursor (when lenient, a trailing comma is allowed).
    mutating func parseArray(depth: Int) throws -> Value {
        pos += 1
        var elements: [Value] = []
        skipWhitespace()
        try need(1)
        if buffer[pos] == UInt8(ascii: "]") {
            pos += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            try need(1)
            let d = buffer[pos]
            pos += 1
            if d == UInt8(ascii: "]") { break }
            guard d == UInt8(ascii: ",") else {
                pos -= 1
                throw ScanError(message: "expected ',' or ']' in a list, found \(describeByte(pos))", offset: pos)
            }
            if lenient {
                skipWhitespace()
                try need(1)
                if buffer[pos] == UInt8(ascii: "]") {
                    pos += 1
                    verbatim = false
                    break
                }
            }
        }
        return .array(elements)
    }

    mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        try need(count)
        let matches = word.withUTF8Buffer { expected in
            expected.baseAddress.map { memcmp(buffer + pos, $0, count) == 0 } ?? (count == 0)
        }
        guard matches else { throw ScanError(message: "expected a value, found \(describeByte(pos))", offset: pos) }
        pos += count
        // A literal must not run on into letters (`trueish`).
        if pos < limit, isIdentifierByte(buffer[pos]) {
            throw ScanError(message: "expected a value, found \(describeByte(pos - count))", offset: pos - count)
        }
        if pos == limit && !atEnd { throw NeedMore() }
    }

    @inline(__always) mutating func isIdentifierByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
    }

    mutating func parseNumber() throws -> Value {
        let start = pos
        var i = pos
        var isInteger = true
        if buffer[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < limit, buffer[i] >= 0x30, buffer[i] <= 0x39 { i += 1 }
        if i == limit && !atEnd { throw NeedMore() }
        guard i > digitsStart else { throw ScanError(message: "expected a digit, found \(describeByte(i))", offset: i) }
        if buffer[digitsStart] == 0x30 && i - digitsStart > 1 {
            throw ScanError(message: "numbers must not have leading zeros", offset: start)
        }
        if i < limit && buffer[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let fractionStart = i
            while i < limit, buffer[i] >= 0x30, buffer[i] <= 0x39 { i += 1 }
            if i == limit && !atEnd { throw NeedMore() }
            guard i > fractionStart else { throw ScanError(message: "expected a digit after '.'", offset: i) }
        }
        if i < limit && (buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E")) {
            isInteger = false
            i += 1
            if i < limit && (buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-")) { i += 1 }
            let exponentStart = i
            while i < limit, buffer[i] >= 0x30, buffer[i] <= 0x39 { i += 1 }
            if i == limit && !atEnd { throw NeedMore() }
            guard i > exponentStart else { throw ScanError(message: "expected a digit in the exponent", offset: i) }
        }
        if i < limit && isIdentifierByte(buffer[i]) { throw ScanError(message: "malformed number", offset: start) }
        pos = i
        if isInteger && i - start <= 18 {
            var value: Int64 = 0
            var j = digitsStart
            while j < i {
                value = value &* 10 &+ Int64(buffer[j] - 0x30)
                j += 1
            }
            let negative = buffer[start] == UInt8(ascii: "-")
            // The writer spells -0 as 0.
            if negative && value == 0 { verbatim = false }
            return .int(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(start: buffer + start, count: i - start), as: UTF8.self)
        if isInteger, let exact = Int64(text) {
            verbatim = false
            return .int(exact)
        }
        guard let double = Double(text), double.isFinite else {
            throw ScanError(message: "number out of range", offset: start)
        }
        if verbatim && !JSONScanner.isShortestSpelling(buffer + start, count: i - start) {
            verbatim = double.description == text
        }
        return .double(double)
    }

    /// Whether the decimal number in `count` bytes at `text` (a valid JSON number, not an
    /// integer) is how Swift's `Double.description`, and so ``JSONWriter``, spells its value,
    /// judged from the digits alone; false means "cannot tell", not "differs".
    ///
    /// True for `-?D.F` without an exponent, at most 15 significant digits (so the digits are the
    /// shortest that round-trip), no trailing zero in `F` unless `F` is `0`, a value below
    /// 10^15 and at least 10^-4 (Swift switches to an exponent outside that), or zero.
    static func isShortestSpelling(_ text: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = text[0] == UInt8(ascii: "-") ? 1 : 0
        let integerStart = i
        while i < count, text[i] != UInt8(ascii: ".") {
            if text[i] > UInt8(ascii: "9") || text[i] < UInt8(ascii: "0") { return false }  // an exponent
            i += 1
        }
        let integerDigits = i - integerStart
        guard i < count, integerDigits <= 15 else { return false }
        let fractionStart = i + 1
        var j = fractionStart
        while j < count {
            if text[j] > UInt8(ascii: "9") || text[j] < UInt8(ascii: "0") { return false }
            j += 1
        }
        let fractionDigits = count - fractionStart
        if fractionDigits == 1 && text[fractionStart] == UInt8(ascii: "0") { return true }  // 5.0, 0.0, -0.0
        if text[count - 1] == UInt8(ascii: "0") { return false }
        if integerDigits == 1 && text[integerStart] == UInt8(ascii: "0") {
            var zeros = 0
            while zeros < fractionDigits, text[fractionStart + zeros] == UInt8(ascii: "0") { zeros += 1 }
            return zeros <= 3 && fractionDigits - zeros <= 15
        }
        return integerDigits + fractionDigits <= 15
    }

    mutating func parseString() throws -> String {
        // pos is at the opening quote. Fast path: no escapes, and ASCII needs no validation.
        var i = pos + 1
        var high: UInt8 = 0
        // Eight bytes at a time while none is a quote, a backslash or a control character.
        var wideHigh: UInt64 = 0
        while i + 8 <= limit {
            let word = UnsafeRawPointer(buffer + i).loadUnaligned(as: UInt64.self)
            if JSONWriter.holdsEscaped(word) { break }
            wideHigh |= word
            i += 8
        }
        if wideHigh & 0x8080_8080_8080_8080 != 0 { high = 0x80 }
        while i < limit {
            let c = buffer[i]
            if c == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(start: buffer + pos + 1, count: i - pos - 1)
                if high & 0x80 != 0 && !UTF8Text.isValid(bytes) {
                    throw ScanError(message: "string is not valid UTF-8", offset: pos)
                }
                pos = i + 1
                return UTF8Text.string(bytes)
            }
            if c == UInt8(ascii: "\\") { return try parseEscapedString() }
            if c < 0x20 {
                if lenient {
                    verbatim = false
                    return try parseEscapedString()
                }
                throw ScanError(
                    message: "control character U+\(String(format: "%04X", c)) must be escaped in a string", offset: i)
            }
            high |= c
            i += 1
        }
        throw NeedMore()
    }

    mutating func parseEscapedString() throws -> String {
        var bytes: [UInt8] = []
        var i = pos + 1
        // Bytes between escapes are copied a run at a time (a JSON text inside a string, as
        // CloudKit fields carry them, is mostly such runs between `\"` escapes).
        var runStart = i
        while true {
            guard i < limit else { throw NeedMore() }
            let c = buffer[i]
            if c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") {
                if c >= 0x20 {
                    i += 1
                    continue
                }
                if lenient {
                    verbatim = false  // a raw control character the writer escapes
                    i += 1
                    continue
                }
            }
            if i > runStart {
                bytes.append(contentsOf: UnsafeBufferPointer(start: buffer + runStart, count: i - runStart))
            }
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") {
                defer { runStart = i }
                guard i + 1 < limit else { throw NeedMore() }
                let e = buffer[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                // The writer spells these otherwise (`/` as itself, the others as \u escapes).
                case UInt8(ascii: "/"):
                    bytes.append(0x2F)
                    verbatim = false
                case UInt8(ascii: "b"):
                    bytes.append(0x08)
                    verbatim = false
                case UInt8(ascii: "f"):
                    bytes.append(0x0C)
                    verbatim = false
                case UInt8(ascii: "'") where lenient:
                    bytes.append(0x27)
                    verbatim = false
                case UInt8(ascii: "u"):
                    let escapeOffset = i - 2
                    var scalar = try hex4(at: i)
                    // The writer escapes the control characters it has no short escape for as
                    // `\u00` and two lowercase hex digits.
                    if scalar >= 0x20 || scalar == 0x0A || scalar == 0x0D || scalar == 0x09
                        || buffer[i + 2] & 0xDF == buffer[i + 2] && buffer[i + 2] > UInt8(ascii: "9")
                        || buffer[i + 3] & 0xDF == buffer[i + 3] && buffer[i + 3] > UInt8(ascii: "9")
                    {
                        verbatim = false
                    }
                    i += 4
                    var isLone = false
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard i + 1 < limit else { throw NeedMore() }
                        if buffer[i] == UInt8(ascii: "\\") && buffer[i + 1] == UInt8(ascii: "u") {
                            let low = try hex4(at: i + 2)
                            if low >= 0xDC00 && low < 0xE000 {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                                i += 6
                            } else {
                                isLone = true
                            }
                        } else {
                            isLone = true
                        }
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        isLone = true
                    }
                    if isLone {
                        // RFC 8259 §8.2: a string with a lone surrogate is not interoperable.
                        let escape = String(
                            decoding: UnsafeBufferPointer(start: buffer + escapeOffset, count: 6), as: UTF8.self)
                        guard lenient else {
                            throw ScanError(
                                message:
                                    "lone surrogate \(escape) in a string: it encodes no character (RFC 8259 §8.2); "
                                    + "pair it with a \(scalar < 0xDC00 ? "low" : "high") surrogate or remove it",
                                offset: escapeOffset)
                        }
                        loneSurrogates.append((escapeOffset, escape))
                        scalar = 0xFFFD
                    }
                    let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    bytes.append(contentsOf: String(Character(character)).utf8)
                default:
                    throw ScanError(
                        message: "invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string", offset: i - 2)
                }
                continue
            }
            throw ScanError(
                message: "control character U+\(String(format: "%04X", c)) must be escaped in a string", offset: i)
        }
        let text = try bytes.withUnsafeBufferPointer { pointer -> String in
            guard UTF8Text.isValid(pointer) else { throw ScanError(message: "string is not valid UTF-8", offset: pos) }
            return UTF8Text.string(pointer)
        }
        pos = i + 1
        return text
    }

    mutating func hex4(at i: Int) throws -> UInt32 {
        guard i + 4 <= limit else { throw NeedMore() }
        var value: UInt32 = 0
        for j in i..<(i + 4) {
            let c = buffer[j]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw ScanError(message: "invalid \\u escape", offset: j)
            }
            value = value << 4 | digit
        }
        return value
    }

}

/// A syntax error found by the scanner, at a buffer offset.
struct ScanError: Error {
    var message: String
    var offset: Int
    var refused = false
    /// A repeated key in an object (lenient mode keeps both values instead).
    var duplicateKey = false
}

/// The scanner needs bytes beyond its limit: refill and start the record again.
struct NeedMore: Error {}
