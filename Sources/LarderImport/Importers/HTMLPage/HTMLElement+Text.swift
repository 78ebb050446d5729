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

    /// The element's text on one line.
    var flatText: String {
        HTMLText.collapseWhitespace(lineText.replacingAll("\n", with: " "))
    }

    private func appendText(to out: inout String) {
        for child in children {
            switch child {
            case .text(let text): out += text.replacingAll("\n", with: " ")
            case .element(let element):
                guard !Self.hiddenNames.contains(element.name) else { continue }
                let isBlock = Self.blockNames.contains(element.name)
                if isBlock { out += "\n" }
                element.appendText(to: &out)
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
