import LarderCore
import LarderFormats

extension XMLElementNode {
    /// The element as a record value for ``PlainRecipe``, and the line of each field.
    ///
    /// A leaf is its text; an element with children is an object of them (a repeated child is a
    /// list), with its attributes as fields too; an element whose children are all the same item
    /// (`<ingredients><ingredient>…`, `<tags><tag>…`, `<steps><li>…`) is a list of them. An element
    /// with text around its children (`<step>Mix <b>well</b></step>`) is its text. `nil="true"` is
    /// null and `empty="true"` an empty list (as Larder's XML writes them).
    /// - Parameters:
    ///   - path: the element's path in the record.
    ///   - lines: receives the line of every field, for diagnostics.
    /// - Returns: the element as a string, list or object.
    func plainValue(at path: FieldPath = .root, lines: inout [FieldPath: Int]) -> Value {
        lines[path] = line
        if attributes["nil"] == "true" { return .null }
        if attributes["empty"] == "true" { return .array([]) }
        let ownAttributes = attributes.filter { !Self.markupAttributes.contains($0.key) }
        if children.isEmpty {
            guard !ownAttributes.isEmpty else { return .string(ownText) }
            var fields = Fields()
            for (key, value) in ownAttributes.sorted(by: { $0.key < $1.key }) {
                fields.append(key: key, value: .string(value))
            }
            if !ownText.trimmingWhitespace.isEmpty { fields.append(key: "text", value: .string(ownText)) }
            return .object(fields)
        }
        if !ownText.trimmingWhitespace.isEmpty { return .string(allText) }  // mixed content: markup in text
        if !path.isRoot, ownAttributes.isEmpty, isList {
            return .array(
                children.enumerated().map { index, child in
                    child.plainValue(at: path.appending(index: index), lines: &lines)
                })
        }
        var fields = Fields()
        for (key, value) in ownAttributes.sorted(by: { $0.key < $1.key }) {
            fields.append(key: key, value: .string(value))
        }
        var order: [String] = []
        var groups: [String: [XMLElementNode]] = [:]
        for child in children {
            if groups[child.name] == nil { order.append(child.name) }
            groups[child.name, default: []].append(child)
        }
        for name in order {
            let group = groups[name] ?? []
            let fieldPath = path.appending(name)
            if group.count == 1, let only = group.first {
                fields.append(key: name, value: only.plainValue(at: fieldPath, lines: &lines))
            } else {
                lines[fieldPath] = group.first?.line
                fields.append(
                    key: name,
                    value: .array(
                        group.enumerated().map { index, child in
                            child.plainValue(at: fieldPath.appending(index: index), lines: &lines)
                        }))
            }
        }
        return .object(fields)
    }

    /// Attributes that are markup, not data: namespace declarations and schema hints.
    private static let markupAttributes: Set<String> = [
        "nil", "empty", "xmlns", "xsi", "larder", "schemalocation", "nonamespaceschemalocation",
    ]

    /// Whether the children are the items of a list: all named alike, and either several or named as
    /// an item of this element (`ingredient` in `ingredients`, `li`, `item`).
    private var isList: Bool {
        guard let first = children.first?.name, children.allSatisfy({ $0.name == first }) else { return false }
        if children.count > 1 { return true }
        return ["item", "li", "entry", "value"].contains(first) || name == first + "s" || name == first + "es"
            || (name.hasSuffix("ies") && first == name.dropLast(3) + "y")
    }
}
