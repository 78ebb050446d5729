import Foundation
import LarderCore
import LarderFormats
import Testing

@testable import LarderImport

/// Security round 3: the importers' text helpers are linear, and answer as the rescanning versions
/// they replace did (those are kept here as the reference).
@Suite struct TextHelperScalingTests {
    /// The version of ``HTMLText/stripTags(_:)`` before, searching for `>` from every `<`.
    static func referenceStripTags(_ text: String) -> String {
        guard text.contains("<") else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if c == "<", let close = text[index...].firstIndex(of: ">") {
                let next = text.index(after: index)
                if next < text.endIndex, text[next].isLetter || text[next] == "/" || text[next] == "!" {
                    if !HTMLText.isInlineTag(text[next..<close]) { out.append(" ") }
                    index = text.index(after: close)
                    continue
                }
            }
            out.append(c)
            index = text.index(after: index)
        }
        return out
    }

    /// The version of ``TextRepair/ingredientLine(_:)`` before, rescanning after every change.
    static func referenceIngredientLine(_ line: String) -> String {
        var text = line
        var searchStart = text.startIndex
        while let open = text[searchStart...].firstRange(of: "(("),
            let close = text[open.upperBound...].firstRange(of: "))")
        {
            let inner = text[open.upperBound..<close.lowerBound]
            guard !inner.contains("(") && !inner.contains(")") else {
                searchStart = open.upperBound
                continue
            }
            let prefix = String(text[..<open.lowerBound]) + "(" + inner + ")"
            text = prefix + String(text[close.upperBound...])
            searchStart = text.index(text.startIndex, offsetBy: prefix.count)
        }
        var chars = Array(text)
        var i = 0
        while i + 1 < chars.count {
            guard chars[i] == "(", chars[i + 1] == "(" else {
                i += 1
                continue
            }
            var depth = 0
            var close: Int?
            for j in i..<chars.count {
                if chars[j] == "(" {
                    depth += 1
                } else if chars[j] == ")" {
                    depth -= 1
                    if depth == 0 {
                        close = j
                        break
                    }
                }
            }
            if let close, chars[close - 1] == ")" {
                chars.remove(at: close)
                chars.remove(at: i)
            } else {
                i += 1
            }
        }
        return String(chars).replacingAll(" ,", with: ",")
    }

    /// The scan of ``RecipeTime/textMinutes(_:)`` before, with the numbers it reads.
    ///
    /// After a failed number it looks again one character on. Returns the numbers it reads, in
    /// order, with the index after each.
    static func referenceNumbers(_ text: String) -> [String] {
        let c = Array(text)
        var i = 0
        var found: [String] = []
        while i < c.count {
            guard let (value, next) = RecipeTime.readNumber(c, i) else {
                i += 1
                continue
            }
            found.append("\(value)@\(next)")
            i = next
        }
        return found
    }

    /// The same scan with ``RecipeTime/resumption(after:_:)``.
    static func numbers(_ text: String) -> [String] {
        let c = Array(text)
        var i = 0
        var found: [String] = []
        while i < c.count {
            guard let (value, next) = RecipeTime.readNumber(c, i) else {
                i = RecipeTime.resumption(after: c, i)
                continue
            }
            found.append("\(value)@\(next)")
            i = next
        }
        return found
    }

    static func random(_ pieces: [String], count: Int, using generator: inout SeededGenerator) -> String {
        (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
    }

    @Test("seeded lines: ingredientLine answers as the rescanning version did")
    func ingredientLineAgrees() {
        var generator = SeededGenerator(seed: 27)
        let pieces = ["(", ")", "((", "))", "a", "b ", " ,", ",", "é"]
        for _ in 0..<20_000 {
            let line = Self.random(pieces, count: Int.random(in: 0...24, using: &generator), using: &generator)
            #expect(TextRepair.ingredientLine(line) == Self.referenceIngredientLine(line), "\(line)")
        }
        #expect(TextRepair.ingredientLine("2 eggs ((softened))") == "2 eggs (softened)")
        #expect(TextRepair.ingredientLine("((a), b (c))") == "(a), b (c)")
        #expect(TextRepair.ingredientLine("onion , chopped") == "onion, chopped")
    }

    @Test("seeded texts: stripTags answers as the rescanning version did")
    func stripTagsAgrees() {
        var generator = SeededGenerator(seed: 28)
        let pieces = ["<", ">", "<b>", "</p>", "<!--", "a", " ", "<<", "1 < 2", "</b>", "<a href=x>", "<br/>"]
        for _ in 0..<20_000 {
            let text = Self.random(pieces, count: Int.random(in: 0...16, using: &generator), using: &generator)
            #expect(HTMLText.stripTags(text) == Self.referenceStripTags(text), "\(text)")
        }
    }

    @Test("quadratic text attack: stripTags of 1 MB of '<' takes linear time", .timeLimit(.minutes(5)))
    func stripTagsOfAMegabyte() {
        let text = String(repeating: "<a", count: 512 * 1024)
        #expect(HTMLText.stripTags(text) == text)
        let closed = String(repeating: "<b", count: 512 * 1024) + ">"
        #expect(HTMLText.stripTags(closed) == " ")
    }

    @Test(
        "quadratic text attack: ingredientLine of 1 MB of nested parentheses takes linear time",
        .timeLimit(.minutes(5)))
    func ingredientLineOfAMegabyte() {
        let depth = 256 * 1024
        let nested = String(repeating: "(", count: depth) + "x" + String(repeating: ")", count: depth)
        #expect(TextRepair.ingredientLine(nested) == "(x)")
        let open = String(repeating: "((a", count: 350_000)
        #expect(TextRepair.ingredientLine(open) == open)
    }

    @Test("seeded texts: the number scan of textMinutes reads the numbers the rescanning version read")
    func numberScanAgrees() {
        var generator = SeededGenerator(seed: 27)
        let pieces = ["1", "2", "12", ",", ".", " ", "/", "½", "1/2", "h", "min", "a", "-", "0"]
        for _ in 0..<20_000 {
            let text = Self.random(pieces, count: Int.random(in: 0...14, using: &generator), using: &generator)
            #expect(Self.numbers(text) == Self.referenceNumbers(text), "\(text)")
        }
        #expect(RecipeTime.textMinutes("1.2.3 minutes") == 2)  // 2.3 minutes, as before
        // A vulgar fraction alone or after a whole number, and text before the number.
        #expect(RecipeTime.textMinutes("½ hour") == 30)
        #expect(RecipeTime.textMinutes("about 1½ hrs") == 90)
        #expect(RecipeTime.textMinutes("no time given") == nil)
    }

    @Test("seeded texts: MealMaster's line split gives the lines Foundation's enumerateLines gives")
    func mealMasterLinesAgree() {
        var generator = SeededGenerator(seed: 274)
        let pieces = [
            "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}", "a", "é", "\u{301}", " ", "MMMMM",
            "x\r", "🍲",
        ]
        for _ in 0..<20_000 {
            let text = Self.random(pieces, count: Int.random(in: 0...10, using: &generator), using: &generator)
            var expected: [[Unicode.Scalar]] = []
            text.enumerateLines { line, _ in expected.append(Array(line.unicodeScalars)) }
            var lines: [[Unicode.Scalar]] = []
            MealMasterImporter.forEachLine(of: text) { line in
                lines.append(Array(line.unicodeScalars))
                return true
            }
            #expect(lines == expected, "\(Array(text.unicodeScalars))")
        }
        var first: [String] = []
        MealMasterImporter.forEachLine(of: "a\nb\nc") { line in
            first.append(line)
            return false
        }
        #expect(first == ["a"])
    }

    @Test(
        "quadratic text attack: textMinutes of 1 MB of digits and commas takes linear time (Fuzz/regressions/csv)",
        .timeLimit(.minutes(5)))
    func textMinutesOfAMegabyte() {
        let run = String(repeating: "1,", count: 512 * 1024) + "1 min"
        #expect(RecipeTime.textMinutes(run) == 1)
        let dots = String(repeating: "12.", count: 350_000) + "5 hours"
        #expect(RecipeTime.textMinutes(dots) == 750)
    }
}
