package import LarderCore
import LarderFormats

/// Finds schema.org `Recipe` nodes inside a JSON-LD block, the way the pages are written:
/// a top-level object or array member, a member of `@graph`, a page's `mainEntity`, and
/// failing those anywhere in the tree; and indexes every node with an `@id` so references
/// (`"author": {"@id": "#person"}`) can be resolved.
package struct SchemaOrgNodeFinder: Sendable {
    /// Every node of the block that has an `@id`, by id.
    package private(set) var nodesByID: [String: Value] = [:]

    /// Creates a finder, indexing `blocks` (the parsed `application/ld+json` blocks of one page).
    package init(blocks: [Value]) {
        for block in blocks { index(block, depth: 0) }
    }

    private mutating func index(_ value: Value, depth: Int) {
        guard depth < 64 else { return }
        switch value {
        case .object(let fields):
            if let id = fields["@id"]?.stringValue, fields.count > 1, nodesByID[id] == nil { nodesByID[id] = value }
            for field in fields { index(field.value, depth: depth + 1) }
        case .array(let elements):
            for element in elements { index(element, depth: depth + 1) }
        default: break
        }
    }

    /// Whether `node`'s `@type` is `typeName` (case-insensitive, also in a type list and with a
    /// `schema:` or URL prefix).
    package static func hasType(_ node: Value, _ typeName: String) -> Bool {
        guard let type = node["@type"] else { return false }
        let names: [String] = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
        let wanted = typeName.lowercased()
        return names.contains { name in
            var n = name.lowercased()
            if let slash = n.lastIndex(where: { $0 == "/" || $0 == ":" || $0 == "#" }) {
                n = String(n[n.index(after: slash)...])
            }
            return n == wanted
        }
    }

    /// The `Recipe` nodes of `block`, in document order: top level first, then `@graph`
    /// members, then `mainEntity`/`mainEntityOfPage`; a deep search only when those find none.
    package func recipes(in block: Value) -> [Value] {
        var found: [Value] = []
        let top = block.arrayValue ?? [block]
        for node in top where Self.hasType(node, "Recipe") { found.append(node) }
        for node in top {
            for member in node["@graph"].map(Self.elements) ?? [] {
                for inner in Self.elements(member) where Self.hasType(inner, "Recipe") { found.append(inner) }
            }
        }
        if found.isEmpty {
            for node in top {
                for key in ["mainEntity", "mainEntityOfPage"] {
                    guard let entity = node[key] else { continue }
                    for inner in Self.elements(entity) {
                        let resolved = resolve(inner)
                        if Self.hasType(resolved, "Recipe") { found.append(resolved) }
                    }
                }
            }
        }
        if found.isEmpty { deepSearch(block, into: &found, depth: 0) }
        return found
    }

    private func deepSearch(_ value: Value, into found: inout [Value], depth: Int) {
        guard depth < 64 else { return }
        switch value {
        case .object(let fields):
            if Self.hasType(value, "Recipe") {
                found.append(value)
                return
            }
            for field in fields { deepSearch(field.value, into: &found, depth: depth + 1) }
        case .array(let elements):
            for element in elements { deepSearch(element, into: &found, depth: depth + 1) }
        default: break
        }
    }

    /// The node a reference `{"@id": …}` (with no other members) points to, else the value itself.
    package func resolve(_ value: Value) -> Value {
        guard let fields = value.objectValue, let id = fields["@id"]?.stringValue else { return value }
        let isBareReference = fields.allSatisfy { $0.key == "@id" || $0.key == "@type" }
        guard isBareReference, let node = nodesByID[id] else { return value }
        return node
    }

    /// A list's elements, or the value itself as a one-element list.
    static func elements(_ value: Value) -> [Value] {
        value.arrayValue ?? [value]
    }
}
