import Foundation
import LarderCore
import Testing

@testable import LarderFormats

/// A record whose input text is what ``JSONWriter`` writes for it is copied, not serialized again
/// (`JSONReader.withLastRecordAsWritten`): these hold the copy to the serializer, byte for byte.
@Suite struct JSONVerbatimTests {
    /// Each record of `text` with its copy (nil when the reader would not copy it).
    private func records(_ text: String, lineMode: Bool = false, lenient: Bool = false) throws -> [(Value, [UInt8]?)] {
        let reader = JSONReader(source: MemoryByteSource(text, name: "t.json"), lineMode: lineMode, lenient: lenient)
        var out: [(Value, [UInt8]?)] = []
        while let item = try reader.next() {
            out.append((item.value, reader.withLastRecordAsWritten { Array($0) }))
        }
        return out
    }

    private func serialized(_ value: Value) throws -> [UInt8] {
        Array(try JSONWriter.string(value).utf8)
    }

    @Test("a record written as the writer writes it is copied; any other spelling is serialized")
    func copiesOnlyTheWritersSpelling() throws {
        let copied = [
            #"{"a":1,"b":-2,"c":5.0,"d":0.5,"e":1e-05,"f":1e+16,"g":"x\"y\\z\n\t\r","h":[],"i":{},"j":null}"#,
            #"{"title":"Crème brûlée","u":"\u0001","q":-0.0,"n":[true,false,0.0001,123456789012345.0]}"#,
        ]
        for text in copied {
            let result = try records(text, lineMode: true)
            #expect(result.count == 1)
            #expect(result[0].1 == Array(text.utf8), "\(text)")
            #expect(result[0].1 == (try serialized(result[0].0)))
        }
        let respelled = [
            #"{"a": 1}"#, #"{"a":1 }"#, #"{"a":[1, 2]}"#,
            #"{"a":"x\/y"}"#, #"{"a":"\u00e9"}"#, #"{"a":"\b"}"#, #"{"a":"\f"}"#, #"{"a":"\u0001"}"#,
            #"{"a":-0}"#, #"{"a":1.50}"#, #"{"a":5.00}"#, #"{"a":1e5}"#, #"{"a":0.00001}"#, #"{"a":1E+16}"#,
            #"{"a":12345678901234567890}"#, #"{"a":0.1000000000000000055511151231257827}"#,
        ]
        for text in respelled {
            let result = try records(text)
            #expect(result.count == 1)
            #expect(result[0].1 == nil, "\(text) should not be copied")
        }
        // Whitespace around a record is not part of it.
        let spaced = try records("[ {\"a\":1} ,\n{\"b\":2}\n]")
        #expect(spaced.map(\.1) == [Array(#"{"a":1}"#.utf8), Array(#"{"b":2}"#.utf8)])
        // Lenient repairs are never copied.
        let lenient = try records("{\"a\":[1,],\"b\":\"x\ty\"}", lenient: true)
        #expect(lenient.count == 1 && lenient[0].1 == nil)
    }

    @Test("the short-decimal rule agrees with Double.description on every number it accepts")
    func shortestSpellingRule() throws {
        var generator = SeededGenerator(seed: 17)
        var accepted = 0
        for _ in 0..<20_000 {
            var text = Bool.random(using: &generator) ? "-" : ""
            let integerDigits = Int.random(in: 1...17, using: &generator)
            if Int.random(in: 0..<4, using: &generator) == 0 {
                text += "0"
            } else {
                text += String(Int.random(in: 1...9, using: &generator))
                for _ in 1..<integerDigits { text += String(Int.random(in: 0...9, using: &generator)) }
            }
            text += "."
            for _ in 0..<Int.random(in: 1...17, using: &generator) {
                text += String(Int.random(in: 0...9, using: &generator))
            }
            let accepts = text.utf8.withContiguousStorageIfAvailable {
                JSONScanner.isShortestSpelling($0.baseAddress!, count: $0.count)
            }!
            if accepts {
                accepted += 1
                #expect(Double(text)!.description == text, "\(text)")
            }
        }
        #expect(accepted > 1_000)  // the rule is not vacuous
        for text in ["5.0", "0.5", "-0.0", "0.0001", "123456789012345.0", "0.123456789012345"] {
            #expect(
                text.utf8.withContiguousStorageIfAvailable {
                    JSONScanner.isShortestSpelling($0.baseAddress!, count: $0.count)
                }!)
        }
        for text in ["5.00", "0.00001", "1234567890123456.0", "1e5", "1.5E3", "0.1234567890123456"] {
            #expect(
                !text.utf8.withContiguousStorageIfAvailable {
                    JSONScanner.isShortestSpelling($0.baseAddress!, count: $0.count)
                }!)
        }
    }

    @Test(
        "seeded records in random spellings: a copy is always the serializer's output, and canonical text is always copied"
    )
    func seededSpellings() throws {
        var generator = SeededGenerator(seed: 4242)
        var copies = 0
        for round in 0..<2_000 {
            let value = Self.randomValue(depth: 0, using: &generator)
            let canonical = try serialized(value)
            let canonicalText = String(decoding: canonical, as: UTF8.self)
            let canonicalRead = try records(canonicalText, lineMode: true)
            #expect(canonicalRead.count == 1)
            #expect(canonicalRead[0].1 == canonical, "round \(round): canonical text not copied: \(canonicalText)")
            var spelled = ""
            Self.spell(value, into: &spelled, using: &generator)
            let read = try records("[" + spelled + "]")
            #expect(read.count == 1)
            #expect(read[0].0 == value, "round \(round): \(spelled)")
            if let copy = read[0].1 {
                copies += 1
                #expect(copy == canonical, "round \(round): copied \(spelled) but writer writes \(canonicalText)")
            }
        }
        #expect(copies > 100)  // some random spellings happen to be the writer's
    }

    private static let strings = [
        "", "plain", "Crème", "a/b", "quote\"d", "back\\slash", "line\nbreak", "tab\t", "\u{1}", "🍋", "x\u{7F}",
    ]
    private static let doubles: [Double] = [5.0, 0.5, -2.25, 1e-05, 1e16, 0.1, 123.456, 0.0001, 1234567.0]

    private static func randomValue(depth: Int, using g: inout SeededGenerator) -> Value {
        switch Int.random(in: 0..<(depth < 3 ? 8 : 5), using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .int(Int64.random(in: -1000...1000, using: &g))
        case 3: return .double(doubles[Int.random(in: 0..<doubles.count, using: &g)])
        case 4: return .string(strings[Int.random(in: 0..<strings.count, using: &g)])
        case 5:
            return .array((0..<Int.random(in: 0...3, using: &g)).map { _ in randomValue(depth: depth + 1, using: &g) })
        default:
            var fields = Fields()
            for k in 0..<Int.random(in: 0...4, using: &g) { fields["k\(k)"] = randomValue(depth: depth + 1, using: &g) }
            return .object(fields)
        }
    }

    /// Writes `value` as JSON, choosing at random among the spellings that read back as it.
    private static func spell(_ value: Value, into out: inout String, using g: inout SeededGenerator) {
        func space() {
            if Int.random(in: 0..<8, using: &g) == 0 {
                out += [" ", "\n", "\t", "\r\n"][Int.random(in: 0..<4, using: &g)]
            }
        }
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += i == 0 && Bool.random(using: &g) ? "-0" : String(i)
        case .double(let d):
            switch Int.random(in: 0..<4, using: &g) {
            case 0:
                out +=
                    String(format: "%.17g", d).contains(".") || String(format: "%.17g", d).contains("e")
                    ? String(format: "%.17g", d) : d.description
            case 1: out += d.description.contains("e") ? d.description : d.description + "0"
            default: out += d.description
            }
        case .string(let s):
            out += "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += Bool.random(using: &g) ? "\\n" : "\\u000a"
                case "\t": out += "\\t"
                case "/": out += Bool.random(using: &g) ? "/" : "\\/"
                case "é", "è": out += Bool.random(using: &g) ? String(scalar) : String(format: "\\u%04x", scalar.value)
                default:
                    out += scalar.value < 0x20 ? String(format: "\\u%04x", scalar.value) : String(scalar)
                }
            }
            out += "\""
        case .array(let elements):
            out += "["
            for (n, element) in elements.enumerated() {
                if n > 0 { out += "," }
                space()
                spell(element, into: &out, using: &g)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (n, field) in fields.enumerated() {
                if n > 0 { out += "," }
                space()
                out += "\"\(field.key)\""
                space()
                out += ":"
                spell(field.value, into: &out, using: &g)
            }
            space()
            out += "}"
        }
    }
}
