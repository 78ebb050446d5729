package import LarderCore

/// A fast JSON → ``Value`` parser for request bodies (Foundation's `JSONDecoder` with generic
/// `Value` fields throws and catches on every probe, which dominated the emulator's profile).
///
/// Objects keep their key order; integers that fit in 64 bits become `.int`, other numbers
/// `.double`. Nesting is limited to 512 levels.
package enum JSONValueParser {
    /// A syntax error at a byte offset.
    package struct SyntaxError: Error, CustomStringConvertible {
        package var offset: Int
        package var message: String
        package var description: String { "\(message) at byte \(offset)" }
    }

    /// Parses one JSON document.
    /// - Throws: ``SyntaxError``.
    package static func parse(_ bytes: some Collection<UInt8>) throws(SyntaxError) -> Value {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer throws(SyntaxError) -> Value in
            var parser = Parser(bytes: buffer)
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.index == buffer.count else { throw SyntaxError(offset: parser.index, message: "unexpected text after the JSON value") }
            return value
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func fail(_ message: String) -> SyntaxError { SyntaxError(offset: index, message: message) }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 32 || bytes[index] == 10 || bytes[index] == 13 || bytes[index] == 9 {
                index += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> Value {
            guard depth < 512 else { throw fail("nesting deeper than 512 levels") }
            guard index < bytes.count else { throw fail("unexpected end of JSON") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw fail("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
            }
        }

        mutating func literal(_ word: StaticString, _ value: Value) throws(SyntaxError) -> Value {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw fail("unexpected end of JSON") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw fail("invalid literal")
            }
            index += count
            return value
        }

        mutating func object(depth: Int) throws(SyntaxError) -> Value {
            index += 1
            var fields = Fields()
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(fields)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key string") }
                let key = try string()
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                index += 1
                skipSpace()
                let member = try value(depth: depth + 1)
                fields[key] = member
                skipSpace()
                guard index < bytes.count else { throw fail("unexpected end of JSON in an object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
                index += 1
                return .object(fields)
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> Value {
            index += 1
            var elements: [Value] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                guard index < bytes.count else { throw fail("unexpected end of JSON in a list") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
                index += 1
                return .array(elements)
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
                if byte < 32 { throw fail("control character in a string") }
                index += 1
            }
            throw fail("unterminated string")
        }

        mutating func escapedString(from start: Int) throws(SyntaxError) -> String {
            var out = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return String(decoding: out, as: UTF8.self)
                }
                if byte < 32 { throw fail("control character in a string") }
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    index += 1
                    continue
                }
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw fail("invalid escape")
                }
            }
            throw fail("unterminated string")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
                default: throw fail("invalid \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }

        mutating func number() throws(SyntaxError) -> Value {
            let start = index
            var isInteger = true
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
            guard index > digitsStart else { throw fail("invalid number") }
            if bytes[digitsStart] == 48, index - digitsStart > 1 { throw fail("leading zero in a number") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                let fraction = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
                guard index > fraction else { throw fail("invalid number") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let exponent = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
                guard index > exponent else { throw fail("invalid number") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if isInteger, let int = Int64(text) { return .int(int) }
            guard let double = Double(text) else { throw fail("invalid number") }
            return .double(double)
        }
    }
}
