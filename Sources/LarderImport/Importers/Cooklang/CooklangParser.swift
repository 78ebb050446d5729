import LarderFormats

/// A Cooklang recipe, parsed: metadata, steps as runs of text and marked-up items.
package struct CooklangRecipe: Sendable, Hashable {
    /// One piece of a step.
    package enum Item: Sendable, Hashable {
        case text(String)
        case ingredient(name: String, quantity: String?, units: String?, note: String?)
        case cookware(name: String, quantity: String?)
        case timer(name: String?, quantity: String?, units: String?)
    }

    /// A step, or a section heading (`== Dough ==`).
    package struct Step: Sendable, Hashable {
        package var items: [Item]
        package var isSection: Bool
    }

    /// `>> key: value` lines and YAML front matter, in order.
    package var metadata: [(key: String, value: String)] = []
    package var steps: [Step] = []

    package static func == (a: CooklangRecipe, b: CooklangRecipe) -> Bool {
        a.steps == b.steps && a.metadata.map(\.key) == b.metadata.map(\.key)
            && a.metadata.map(\.value) == b.metadata.map(\.value)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(steps)
    }

    /// The value of metadata `key`: case, `_` and `-` aside (`prep_time` is `prep time`), and
    /// not empty.
    package func metadata(_ key: String) -> String? {
        let wanted = Self.normalizedKey(key)
        return metadata.first { Self.normalizedKey($0.key) == wanted && !$0.value.trimmingWhitespace.isEmpty }?.value
    }

    /// A metadata key as the importer compares it: lowercased, `_` and `-` read as spaces.
    package static func normalizedKey(_ key: String) -> String {
        String(key.lowercased().map { $0 == "_" || $0 == "-" ? " " : $0 })
    }
}

/// Parses Cooklang (cooklang.org spec): `@ingredient{qty%unit}(note)`, multi-word names closed
/// by `{}`, `#cookware{}`, `~timer{qty%unit}`, `--` and `[- -]` comments, `>>` metadata and YAML
/// front matter, `=` section lines, `>` notes, and steps separated by blank lines.
package enum CooklangParser {
    /// Parses a whole recipe text.
    package static func parse(_ source: String) -> CooklangRecipe {
        var recipe = CooklangRecipe()
        var text = stripBlockComments(source.replacingAll("\r\n", with: "\n"))
        // YAML front matter: `---` … `---` at the top.
        if text.hasPrefix("---\n"), let end = text.dropFirst(4).firstRange(of: "\n---") {
            // A key with no value whose next lines are indented holds a mapping (`time:` then
            // `  prep: 10 min`): its members are `time.prep`, as `>> time.prep:` writes them.
            var parent: String?
            for line in text[text.index(text.startIndex, offsetBy: 4)..<end.lowerBound].split(separator: "\n") {
                let indented = line.first == " " || line.first == "\t"
                if !indented { parent = nil }
                if let colon = line.firstIndex(of: ":"), !line.trimmingWhitespace.hasPrefix("- ") {
                    var key = String(line[..<colon]).trimmingWhitespace
                    var value = String(line[line.index(after: colon)...]).trimmingWhitespace
                    if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                        value = String(value.dropFirst().dropLast())
                    }
                    if value.hasPrefix("[") && value.hasSuffix("]") { value = String(value.dropFirst().dropLast()) }
                    guard !key.isEmpty, !key.hasPrefix("#") else { continue }
                    if indented, let parent {
                        // The mapping's members replace its empty entry.
                        if let last = recipe.metadata.last, last.key == parent, last.value.isEmpty {
                            recipe.metadata.removeLast()
                        }
                        key = parent + "." + key
                    }
                    if value.hasPrefix("{") && value.hasSuffix("}") {
                        // A flow mapping: `time: {prep: 10 min, cook: 20 min}`.
                        for member in value.dropFirst().dropLast().split(separator: ",") {
                            guard let sub = member.firstIndex(of: ":") else { continue }
                            let name = String(member[..<sub]).trimmingWhitespace
                            let inner = String(member[member.index(after: sub)...]).trimmingWhitespace
                            if !name.isEmpty { recipe.metadata.append((key + "." + name, inner)) }
                        }
                        continue
                    }
                    if value.isEmpty, !indented { parent = key }
                    recipe.metadata.append((key, value))
                } else if line.trimmingWhitespace.hasPrefix("- "), let last = recipe.metadata.popLast() {
                    // A YAML list item continues the key above it.
                    let item = String(line.trimmingWhitespace.dropFirst(2))
                    recipe.metadata.append((last.key, last.value.isEmpty ? item : last.value + ", " + item))
                }
            }
            text = String(text[end.upperBound...].drop { $0 != "\n" })
        }
        var paragraph: [String] = []
        func flush() {
            // Lines of a step join with a space; only the step's own ends are trimmed.
            let joined = paragraph.joined(separator: " ").trimmingWhitespace
            paragraph = []
            guard !joined.isEmpty else { return }
            let items = parseStep(joined)
            if !items.isEmpty { recipe.steps.append(CooklangRecipe.Step(items: items, isSection: false)) }
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(rawLine)
            if let comment = Self.commentStart(line) { line = String(line[..<comment]) }
            let trimmed = line.trimmingWhitespace
            if trimmed.hasPrefix(">>") {
                flush()
                let body = trimmed.dropFirst(2)
                if let colon = body.firstIndex(of: ":") {
                    recipe.metadata.append(
                        (
                            String(body[..<colon]).trimmingWhitespace,
                            String(body[body.index(after: colon)...]).trimmingWhitespace
                        ))
                }
                continue
            }
            if trimmed.hasPrefix("=") {
                flush()
                let name = trimmed.trimmingCharacters("=").trimmingWhitespace
                if !name.isEmpty { recipe.steps.append(CooklangRecipe.Step(items: [.text(name)], isSection: true)) }
                continue
            }
            if trimmed.hasPrefix(">") {
                flush()
                continue
            }
            if trimmed.isEmpty {
                flush()
            } else {
                paragraph.append(String(line.drop { $0 == " " || $0 == "\t" }))
            }
        }
        flush()
        return recipe
    }

    /// Where a `--` line comment starts (`---` is text, not a comment).
    private static func commentStart(_ line: String) -> String.Index? {
        var index = line.startIndex
        while let range = line[index...].firstRange(of: "--") {
            let after = range.upperBound
            let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            if (after == line.endIndex || line[after] != "-") && before != "-" { return range.lowerBound }
            index = line.index(after: range.lowerBound)
        }
        return nil
    }

    private static func stripBlockComments(_ text: String) -> String {
        var out = ""
        var rest = text[...]
        while let open = rest.firstRange(of: "[-") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "-]") else { return out }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The items of one step's text.
    static func parseStep(_ text: String) -> [CooklangRecipe.Item] {
        let c = Array(text)
        var items: [CooklangRecipe.Item] = []
        var buffer = ""
        var i = 0
        func flushText() {
            if !buffer.isEmpty { items.append(.text(buffer)) }
            buffer = ""
        }
        while i < c.count {
            let ch = c[i]
            guard ch == "@" || ch == "#" || ch == "~", i + 1 < c.count,
                !c[i + 1].isWhitespace || ch == "~" && c[i + 1] == "{"
            else {
                buffer.append(ch)
                i += 1
                continue
            }
            var j = i + 1
            // Modifiers (`@?`, `@-`, `@&`, `@@`) are read past.
            if ch == "@" { while j < c.count, "?-&@+".contains(c[j]) { j += 1 } }
            // A multi-word name runs to `{` when one comes before the next marker or line end.
            var braceAt: Int?
            var k = j
            while k < c.count, c[k] != "@", c[k] != "#", c[k] != "~" {
                if c[k] == "{" {
                    braceAt = k
                    break
                }
                k += 1
            }
            var name: String
            var quantity: String?
            var units: String?
            var end: Int
            if let brace = braceAt, let close = c[brace...].firstIndex(of: "}") {
                name = String(c[j..<brace]).trimmingWhitespace
                let inside = String(c[(brace + 1)..<close]).trimmingWhitespace
                if let percent = inside.firstIndex(of: "%") {
                    quantity = String(inside[..<percent]).trimmingWhitespace
                    units = String(inside[inside.index(after: percent)...]).trimmingWhitespace
                } else if !inside.isEmpty {
                    quantity = inside
                }
                end = close + 1
            } else {
                var m = j
                // A one-word name runs to whitespace or punctuation (`@salt.`, `@🧂`).
                while m < c.count, !c[m].isWhitespace,
                    !c[m].isPunctuation || c[m] == "_" || (c[m] == "-" && m + 1 < c.count && c[m + 1].isLetter),
                    !"@#~{}".contains(c[m])
                { m += 1 }
                name = String(c[j..<m])
                end = m
            }
            if name.isEmpty && ch != "~" {
                buffer.append(ch)
                i += 1
                continue
            }
            if quantity?.isEmpty == true { quantity = nil }
            if units?.isEmpty == true { units = nil }
            flushText()
            switch ch {
            case "@":
                var note: String?
                if end < c.count, c[end] == "(", let close = c[end...].firstIndex(of: ")") {
                    note = String(c[(end + 1)..<close])
                    end = close + 1
                }
                items.append(.ingredient(name: name, quantity: quantity, units: units, note: note))
            case "#": items.append(.cookware(name: name, quantity: quantity))
            default: items.append(.timer(name: name.isEmpty ? nil : name, quantity: quantity, units: units))
            }
            i = end
        }
        flushText()
        return items
    }
}

extension String {
    fileprivate func trimmingCharacters(_ character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
