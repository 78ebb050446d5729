import LarderCore
import LarderFormats

extension HTMLElement {
    /// Elements whose text is never recipe text.
    static let hiddenNames: Set<String> = [
        "script", "style", "noscript", "template", "svg", "button", "select", "option", "iframe", "head",
    ]
    /// Elements that start a new line of text.
    static let blockNames: Set<String> = [
        "p", "div", "li", "ul", "ol", "br", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "section",
        "article", "dt", "dd", "dl", "blockquote", "header", "footer", "figure", "figcaption", "hr", "pre",
    ]

    /// The element's text with a line break at each block element and `br`, entities decoded,
    /// runs of spaces collapsed, empty lines dropped.
    var lineText: String {
        var out = ""
        appendText(to: &out)
        return out.split(separator: "\n").map { HTMLText.collapseWhitespace(String($0)) }.filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    /// Like ``lineText``, but a line that is one emphasised run (`<strong>`, `<b>`, a heading, or
    /// an element whose class names a group's heading, such as `group-head`) and holds no digit
    /// ends with a colon: the name of an ingredient group, as the recipe parser reads it
    /// (`<p><strong>Sauce</strong><br>2 tbsp oil…` → `Sauce:`, `2 tbsp oil`).
    var lineTextMarkingGroupNames: String {
        var out = ""
        appendText(to: &out, markingGroups: true)
        return out.split(separator: "\n").map { Self.resolvingGroupMarks(String($0)) }.filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    /// Marks around an emphasised run while lines are assembled (private-use characters).
    static let groupMarkStart: Character = "\u{E000}"
    static let groupMarkEnd: Character = "\u{E001}"

    /// Whether the element sets its text apart as a group's name: bold, a heading, or a class such
    /// as `group-head`, `ingredient-group-title`.
    var marksGroupName: Bool {
        if ["strong", "b", "h2", "h3", "h4", "h5", "h6"].contains(name) { return true }
        return classes.contains { raw in
            let c = raw.lowercased()
            return c.contains("group") && (c.contains("head") || c.contains("title") || c.contains("name"))
        }
    }

    /// `line` without its marks, ending with a colon when it was all one marked run with no digit
    /// (and shorter than 60 characters).
    static func resolvingGroupMarks(_ line: String) -> String {
        let collapsed = HTMLText.collapseWhitespace(line)
        guard collapsed.contains(groupMarkStart) || collapsed.contains(groupMarkEnd) else { return collapsed }
        let plain = HTMLText.collapseWhitespace(collapsed.filter { $0 != groupMarkStart && $0 != groupMarkEnd })
        guard collapsed.first == groupMarkStart, collapsed.last == groupMarkEnd,
            collapsed.filter({ $0 == groupMarkStart }).count == 1, !plain.isEmpty, plain.count < 60,
            !plain.contains(where: \.isNumber)
        else { return plain }
        return plain.hasSuffix(":") ? plain : plain + ":"
    }

    /// The element's text on one line.
    var flatText: String {
        HTMLText.collapseWhitespace(lineText.replacingAll("\n", with: " "))
    }

    private func appendText(to out: inout String, markingGroups: Bool = false) {
        for child in children {
            switch child {
            case .text(let text): out += text.replacingAll("\n", with: " ")
            case .element(let element):
                guard !Self.hiddenNames.contains(element.name) else { continue }
                let isBlock = Self.blockNames.contains(element.name)
                if isBlock { out += "\n" }
                if markingGroups, element.marksGroupName {
                    out.append(Self.groupMarkStart)
                    out += element.flatText
                    out.append(Self.groupMarkEnd)
                } else {
                    element.appendText(to: &out, markingGroups: markingGroups)
                }
                if isBlock { out += "\n" }
            }
        }
    }

    /// Calls `body` with every descendant element in document order; `body` returns whether to
    /// look inside the element.
    func walk(depth: Int = 0, _ body: (HTMLElement) -> Bool) {
        guard depth < HTMLDocument.maxDepth else { return }
        for case .element(let element) in children where body(element) {
            element.walk(depth: depth + 1, body)
        }
    }

    /// Every descendant element for which `predicate` holds, in document order (not looking
    /// inside a match when `nested` is false).
    func all(nested: Bool = true, where predicate: (HTMLElement) -> Bool) -> [HTMLElement] {
        var found: [HTMLElement] = []
        walk { element in
            guard predicate(element) else { return true }
            found.append(element)
            return nested
        }
        return found
    }

    /// The first descendant element for which `predicate` holds.
    func first(where predicate: (HTMLElement) -> Bool) -> HTMLElement? {
        var found: HTMLElement?
        walk { element in
            if found != nil { return false }
            if predicate(element) {
                found = element
                return false
            }
            return true
        }
        return found
    }

    /// Whether one of the element's classes is `name`.
    func hasClass(_ name: String) -> Bool {
        classes.contains { $0 == name }
    }

    /// Whether one of the element's classes, or its `id`, is `name`.
    func isNamed(_ name: String) -> Bool {
        hasClass(name) || self[attribute: "id"] == name
    }

    /// Whether one of the element's classes starts with `prefix`.
    func hasClass(prefix: String) -> Bool {
        classes.contains { $0.hasPrefix(prefix) }
    }
}

extension Value {
    /// Appends `value` to member `key` of an object: a second value makes the member a list.
    mutating func appendMember(_ key: String, _ value: Value) {
        guard case .object(var fields) = self else { return }
        switch fields[key] {
        case nil: fields[key] = value
        case .array(var list)?:
            list.append(value)
            fields[key] = .array(list)
        case let existing?: fields[key] = .array([existing, value])
        }
        self = .object(fields)
    }
}
