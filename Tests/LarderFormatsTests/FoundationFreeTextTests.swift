import Foundation
import LarderCore
import Testing

@testable import LarderFormats

/// Issue 27 part 3 (fuzz throughput): the Foundation-free text helpers that replaced
/// `trimmingCharacters(in:)` and the `String` search of ``TextEncoding/sniff(_:)`` answer as the
/// versions they replace (kept here as the reference).
@Suite struct FoundationFreeTextTests {
    static func random(_ pieces: [String], count: Int, using generator: inout SeededGenerator) -> String {
        (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
    }

    @Test("every scalar: isBlank and isBlankOrNewline are Foundation's whitespaces and whitespacesAndNewlines")
    func scalarSetsAreFoundations() {
        var differing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if scalar.isBlank != CharacterSet.whitespaces.contains(scalar)
                || scalar.isBlankOrNewline != CharacterSet.whitespacesAndNewlines.contains(scalar)
            {
                differing.append(value)
            }
        }
        #expect(differing.isEmpty, "\(differing.map { String($0, radix: 16) })")
    }

    @Test("seeded texts: trimmingBlanks and trimmingBlanksAndNewlines answer as trimmingCharacters(in:)")
    func trimmingAgrees() {
        var generator = SeededGenerator(seed: 271)
        let pieces = [
            " ", "\t", "\n", "\r\n", "\r", "\u{A0}", "\u{2003}", "\u{200B}", "\u{2028}", "\u{85}", "\u{3000}", "a",
            "é", "e\u{301}", "\u{301}", "1/2", "-", "=", "🍲", "\u{FEFF}", "\"", "x y",
        ]
        for _ in 0..<20_000 {
            let text = Self.random(pieces, count: Int.random(in: 0...10, using: &generator), using: &generator)
            #expect(text.trimmingBlanks == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
            #expect(
                text.trimmingBlanksAndNewlines == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(Array(text.unicodeScalars))")
            let slice = text.dropFirst()
            #expect(
                slice.trimmingBlanks == slice.trimmingCharacters(in: .whitespaces), "\(Array(slice.unicodeScalars))")
            for set in ["= ", "- ", "\"\u{FEFF} "] {
                let scalars = Set(set.unicodeScalars)
                #expect(
                    text.trimmingScalars { scalars.contains($0) }
                        == text.trimmingCharacters(in: CharacterSet(charactersIn: set)),
                    "\(Array(text.unicodeScalars)) by \(set)")
            }
        }
    }

    /// ``StringProtocol/trimmingWhitespace`` before: every scalar's properties looked up, the text
    /// between copied scalar by scalar.
    static func referenceTrimmingWhitespace(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    @Test("seeded texts: nonEmptyLines gives the lines split(whereSeparator: isNewline) gives")
    func nonEmptyLinesAgree() {
        var generator = SeededGenerator(seed: 272)
        let ascii = ["\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\n\n", " ", "\t", "a", "1 cup", "-", "\"", ""]
        let wide = ascii + ["\u{85}", "\u{2028}", "\u{2029}", "\n\u{301}", "é", "e\u{301}", "🍲", "\r\u{301}\n"]
        for round in 0..<20_000 {
            let pieces = round % 2 == 0 ? ascii : wide
            let text = Self.random(pieces, count: Int.random(in: 0...12, using: &generator), using: &generator)
            let expected = text.split(whereSeparator: \.isNewline)
            #expect(text.nonEmptyLines == expected, "\(Array(text.unicodeScalars))")
            let middle = text.dropFirst()
            #expect(
                middle.nonEmptyLines == middle.split(whereSeparator: \.isNewline), "\(Array(middle.unicodeScalars))")
        }
    }

    @Test("seeded texts: trimmingWhitespace answers as the version looking up every scalar did")
    func trimmingWhitespaceAgrees() {
        var generator = SeededGenerator(seed: 273)
        let pieces = [
            " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2003}", "\u{200B}", "\u{2028}",
            "\u{3000}", "\u{1C}", "a", "é", "e\u{301}", "\u{301}", "🍲", "x y",
        ]
        for _ in 0..<20_000 {
            let text = Self.random(pieces, count: Int.random(in: 0...10, using: &generator), using: &generator)
            #expect(text.trimmingWhitespace == Self.referenceTrimmingWhitespace(text), "\(Array(text.unicodeScalars))")
            let slice = text.dropFirst()
            #expect(
                slice.trimmingWhitespace == Self.referenceTrimmingWhitespace(slice), "\(Array(slice.unicodeScalars))")
        }
        #expect(Array(" \u{301}a ".trimmingWhitespace.unicodeScalars) == ["\u{301}", "a"])
    }

    /// ``String/replacingAll(_:with:)`` before: no byte search first.
    static func referenceReplacingAll(_ text: String, _ target: String, with replacement: String) -> String {
        guard !target.isEmpty, text.contains(target) else { return text }
        var out = ""
        var rest = text[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        out += rest
        return out
    }

    @Test("seeded texts: replacingAll answers as the version searching by Character alone did")
    func replacingAllAgrees() {
        var generator = SeededGenerator(seed: 275)
        // The Kelvin sign, the Greek question mark and varia equal K, ; and ` as Characters.
        let pieces = [
            "<br>", "<BR />", "<br", ">", ">\u{301}", "K", "\u{212A}", ";", "\u{37E}", "`", "\u{1FEF}", "é", "e\u{301}",
            "a", " ",
        ]
        let targets = ["<br>", "<BR />", "K", "a;", "`a", "é", "e", ">", " "]
        for _ in 0..<20_000 {
            let text = Self.random(pieces, count: Int.random(in: 0...10, using: &generator), using: &generator)
            for target in targets {
                #expect(
                    text.replacingAll(target, with: "\n") == Self.referenceReplacingAll(text, target, with: "\n"),
                    "\(Array(text.unicodeScalars)) \(target)")
            }
        }
    }

    @Test("seeded texts: containsText answers as contains(_:), searching by Character, does")
    func containsTextAgrees() {
        var generator = SeededGenerator(seed: 276)
        // The Kelvin sign, the Greek question mark and varia equal K, ; and ` as Characters; a combining
        // mark after a match makes it another Character.
        let pieces = [
            "&amp;", "&", "&\u{301}", "<", "<\u{301}", "K", "\u{212A}", ";", "\u{37E}", "`", "\u{1FEF}", "é",
            "e\u{301}",
            "slice", "slices", "s", "a", " ",
        ]
        let targets = ["&", "&amp;", "<", "slice", "slices", "K", "a;", "`a", "é", "e", "", " "]
        for _ in 0..<20_000 {
            let text = Self.random(pieces, count: Int.random(in: 0...10, using: &generator), using: &generator)
            for target in targets {
                #expect(
                    text.containsText(target) == CharacterSearch.contains(text, target),
                    "\(Array(text.unicodeScalars)) \(target)")
            }
        }
    }

    /// ``TextEncoding/sniff(_:)`` before: the head as a lowercased `String`, searched by `firstRange(of:)`.
    static func referenceSniff(_ head: [UInt8]) -> TextEncoding? {
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
        if head.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if head.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        if head.count >= 4, head[0] == 0x3C, head[1] == 0, head[2] == 0x3F, head[3] == 0 { return .utf16LittleEndian }
        if head.count >= 4, head[0] == 0, head[1] == 0x3C, head[2] == 0, head[3] == 0x3F { return .utf16BigEndian }
        let text = String(decoding: head.prefix(4096).map { $0 < 0x80 ? $0 : 0x20 }, as: UTF8.self).lowercased()
        if text.hasPrefix("<?xml"), let end = text.firstRange(of: "?>") {
            let declaration = String(text[..<end.lowerBound])
            guard let range = declaration.firstRange(of: "encoding=") else { return nil }
            let value = declaration[range.upperBound...]
            guard let quote = value.first, quote == "\"" || quote == "'" else { return nil }
            let body = value.dropFirst()
            return body.firstIndex(of: quote).flatMap { TextEncoding(declaredName: String(body[..<$0])) }
        }
        var rest = text[...]
        while let meta = rest.firstRange(of: "<meta") {
            let tail = rest[meta.upperBound...]
            let end = tail.firstIndex(of: ">") ?? tail.endIndex
            let tag = String(tail[..<end])
            if let range = tag.firstRange(of: "charset=") {
                let value = tag[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
                let name = value.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                if let encoding = TextEncoding(declaredName: String(name)) { return encoding }
            }
            rest = tail[end...]
        }
        return nil
    }

    @Test("seeded heads: sniff finds the encoding the String version found")
    func sniffAgrees() {
        var generator = SeededGenerator(seed: 272)
        let pieces = [
            "<?xml", "<?XML", " version=\"1.0\"", " encoding=", "ENCODING=", "\"", "'", "?>", "<meta", "<META ",
            " charset=", "CHARSET=", "http-equiv=\"content-type\" content=\"text/html; ", ">", "<", " ", "\r\n", "\n",
            "utf-8", "UTF-8", "iso-8859-1", "windows-1252", "latin1", "utf_16", "cp1252", "koi8-r", "é", "\u{FEFF}",
            "a", "=", "-", "_", "1",
        ]
        for _ in 0..<20_000 {
            let text = Self.random(pieces, count: Int.random(in: 0...12, using: &generator), using: &generator)
            var head = Array(text.utf8)
            // Bytes that are no UTF-8, and heads cut inside a character.
            if Bool.random(using: &generator) {
                head.insert(0xE9, at: Int.random(in: 0...head.count, using: &generator))
            }
            if !head.isEmpty, Bool.random(using: &generator) { head.removeLast() }
            #expect(TextEncoding.sniff(head) == Self.referenceSniff(head), "\(text)")
        }
        let long = Array(("<html>" + String(repeating: "x", count: 4090) + "<meta charset=latin1>").utf8)
        #expect(TextEncoding.sniff(long) == nil)  // past the first 4 KiB, as before
        #expect(TextEncoding.sniff(Array("<META CHARSET=\"ISO-8859-1\">".utf8)) == .windows1252)
    }
}
