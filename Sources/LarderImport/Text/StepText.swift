/// A recipe's whole method published as one text, split back into its steps.
///
/// Pages whose CMS drops the markup between paragraphs publish `"…greaseproof paper.Snap the
/// chocolate…"`, and others number the steps inline (`"1.Chop the tomatoes 2.Dice the potatoes
/// 3.…"`). Recipe readers (recipe-scrapers, Mealie, Tandoor) show such a text as its steps.
/// Applied only to a method that arrived as one text: inside a list of steps a missing space
/// after a full stop is a typo, not a step boundary.
enum StepText {
    /// The steps of a text numbered inline `1.` (or `1)`), `2.`, `3.`, … in order, without their
    /// numbers; `nil` unless the text starts with `1` and counts up to at least 3.
    ///
    /// A number counts as a marker only at the start or after whitespace, so `1.5 cups` inside a
    /// step is not one unless the text has reached that number. O(n) per marker.
    static func numberedSteps(_ text: String) -> [String]? {
        let chars = Array(text)
        var markers: [(start: Int, end: Int)] = []
        var next = 1
        var i = 0
        while i < chars.count {
            if i == 0 || chars[i - 1].isWhitespace, let end = marker(next, in: chars, at: i) {
                if markers.isEmpty, chars[..<i].contains(where: { !$0.isWhitespace }) { return nil }
                markers.append((i, end))
                next += 1
                i = end
                continue
            }
            i += 1
        }
        guard markers.count >= 3 else { return nil }
        var steps: [String] = []
        for (index, found) in markers.enumerated() {
            let end = index + 1 < markers.count ? markers[index + 1].start : chars.count
            let step = HTMLText.collapseWhitespace(String(chars[found.end..<end]))
            if !step.isEmpty { steps.append(step) }
        }
        return steps.count >= 3 ? steps : nil
    }

    /// The end of the marker `number.` or `number)` (and the spaces after it) at `start`; `nil` when there is none.
    private static func marker(_ number: Int, in chars: [Character], at start: Int) -> Int? {
        let digits = Array(String(number))
        guard start + digits.count < chars.count, Array(chars[start..<(start + digits.count)]) == digits else {
            return nil
        }
        var end = start + digits.count
        guard chars[end] == "." || chars[end] == ")" else { return nil }
        end += 1
        // `1.5` is a number, not a marker (`2.六寸`, a CJK numeral after the marker, is a step's text).
        if end < chars.count, chars[end].unicodeScalars.first?.properties.numericType == .decimal { return nil }
        while end < chars.count, chars[end].isWhitespace { end += 1 }
        return end
    }

    /// The sentences of `text` split where one ends with no space before the next
    /// (`"paper.Snap"`, `"(if using).Sift"`, `"blijven!)Maak"`); `[text]` when there is no such place.
    ///
    /// A boundary is `.`, `!` or `?` (optionally followed by `)`) after a lower-case letter or a
    /// `)`, directly followed by an upper-case letter and a lower-case one, so `U.S.A.` and
    /// `3.5` stay whole.
    static func gluedSentences(_ text: String) -> [String] {
        let chars = Array(text)
        var parts: [String] = []
        var start = 0
        var i = 1
        while i + 2 < chars.count {
            let c = chars[i]
            var next = i + 1
            if c == "." || c == "!" || c == "?", chars[i - 1].isLowercase || chars[i - 1] == ")" {
                if chars[next] == ")" { next += 1 }
                if next + 1 < chars.count, chars[next].isUppercase, chars[next + 1].isLowercase {
                    parts.append(String(chars[start..<next]))
                    start = next
                    i = next + 1
                    continue
                }
            }
            i += 1
        }
        parts.append(String(chars[start...]))
        return parts.map(HTMLText.collapseWhitespace).filter { !$0.isEmpty }
    }
}
