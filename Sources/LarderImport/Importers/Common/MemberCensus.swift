package import LarderCore

/// What an importer does with one member of a structured source field (an author object, a
/// nutrition block, a step of the instructions).
package enum MemberFate: Sendable, Hashable {
    /// The member is itself a list or node of members: take their census one by one.
    case walk
    /// The member's fate.
    case fate(FieldFate)
}

/// The census of the members of a record's structured top-level fields: `author.sameAs`,
/// `recipeInstructions[].url`, `aggregateRating.worstRating`.
///
/// A top-level field the census counts as carried can hold more than the Larder field it is
/// carried to: a step's anchor link, an author's profile links, a review's date. Each member gets
/// its own fate; one kept in extras is stored there under its exact path (`author.sameAs`,
/// `recipeInstructions[2/7].url`: element 2 of a list of 7; a list of one has no index), which ``ExtrasRestore`` puts back
/// in place when the exported record has the same shape, else writes as it is.
package struct MemberCensus {
    /// Decides a member's fate from the top-level field it is under (`root`), the member keys from
    /// there down (list indices left out), its value and the node it is a member of.
    package typealias Decide = (_ root: String, _ keys: [String], _ value: Value, _ node: Fields) -> MemberFate

    let resolve: (Value) -> Value
    let decide: Decide
    private(set) var entries: [FieldCensus.Entry] = []
    private(set) var kept = Fields()

    /// Creates a census; `resolve` follows references (a JSON-LD `{"@id": …}` to its node).
    package init(resolve: @escaping (Value) -> Value = { $0 }, decide: @escaping Decide) {
        self.resolve = resolve
        self.decide = decide
    }

    /// Takes the census of the members of `value`, the value of the top-level field `root`.
    ///
    /// O(members), to a depth of 16.
    mutating func take(_ value: Value, root: String) {
        walk(value, root: root, keys: [], path: root, shown: root, depth: 0)
    }

    private mutating func walk(_ value: Value, root: String, keys: [String], path: String, shown: String, depth: Int) {
        guard depth < 16 else { return }
        switch resolve(value) {
        case .array(let elements):
            // A list of one is the single value (JSON-LD reads them alike): no index in its path.
            for (index, element) in elements.enumerated() {
                let elementPath = elements.count == 1 ? path : "\(path)[\(index)/\(elements.count)]"
                walk(element, root: root, keys: keys, path: elementPath, shown: shown + "[]", depth: depth + 1)
            }
        case .object(let fields):
            for member in fields where !FieldCensus.isEmpty(member.value) {
                let memberKeys = keys + [member.key]
                let memberPath = path + "." + member.key
                let memberShown = shown + "." + member.key
                switch decide(root, memberKeys, member.value, fields) {
                case .walk:
                    walk(
                        member.value, root: root, keys: memberKeys, path: memberPath, shown: memberShown,
                        depth: depth + 1)
                case .fate(let fate):
                    note(memberShown, fate)
                    if fate == .extras, !kept.contains(key: memberPath) {
                        kept.append(key: memberPath, value: member.value)
                    }
                }
            }
        default:
            break
        }
    }

    private mutating func note(_ field: String, _ fate: FieldFate) {
        let entry = FieldCensus.Entry(field: field, fate: fate)
        if !entries.contains(entry) { entries.append(entry) }
    }
}

extension ImportedRecipe {
    /// Takes the census of the members of those top-level `fields` named in `roots` that the
    /// record's census counts as carried (a field kept in extras whole needs none), adds its lines
    /// to ``fieldCensus`` and the members it keeps to `extras[format.rawValue]`.
    package mutating func takeMemberCensus(
        of fields: Fields, roots: Set<String>, format: ImportFormat, census: MemberCensus
    ) {
        var census = census
        for field in fields where roots.contains(field.key) {
            guard case .carried = fieldCensus.fate(of: field.key) else { continue }
            census.take(field.value, root: field.key)
        }
        fieldCensus.entries.append(contentsOf: census.entries)
        keepInExtras(census.kept, format: format)
    }

    /// Adds `kept` to `extras[format.rawValue]` (a key already there keeps its value).
    mutating func keepInExtras(_ kept: Fields, format: ImportFormat) {
        guard !kept.isEmpty else { return }
        var entry = extras[format.rawValue]?.objectValue ?? Fields()
        for field in kept where !entry.contains(key: field.key) { entry.append(key: field.key, value: field.value) }
        if extras.contains(key: format.rawValue) {
            extras[format.rawValue] = .object(entry)
        } else {
            extras.append(key: format.rawValue, value: .object(entry))
        }
    }
}
