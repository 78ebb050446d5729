import LarderCore

/// ``Shape``s compiled for the XML reader's hot loop: each distinct shape gets an index, and an
/// object shape's members are looked up by element-name id through an array rather than by
/// hashing the name for every field of every record.
struct XMLShapeTable {
    enum Kind: UInt8 {
        case string, integer, number, boolean, list, object, any
    }

    private struct Entry {
        var shape: Shape
        var kind: Kind
        /// The element shape of a list.
        var element: Int32
        /// Member shape index by name id; `unknown` until first asked.
        var members: [Int32]
    }

    private static let unknown: Int32 = -1
    /// Name ids above this are looked up without caching, so hostile inputs with millions of
    /// distinct element names cannot grow the tables without bound.
    private static let cachedNames = 4096

    private var entries: [Entry] = []
    private var indexByShape: [Shape: Int32] = [:]

    /// The index of `shape`, compiling it on first use.
    mutating func intern(_ shape: Shape) -> Int32 {
        if let index = indexByShape[shape] { return index }
        let kind: Kind
        var element: Int32 = XMLShapeTable.unknown
        switch shape {
        case .string: kind = .string
        case .integer: kind = .integer
        case .number: kind = .number
        case .boolean: kind = .boolean
        case .object: kind = .object
        case .any: kind = .any
        case .list(let inner):
            kind = .list
            element = intern(inner)
        }
        let index = Int32(entries.count)
        entries.append(Entry(shape: shape, kind: kind, element: element, members: []))
        indexByShape[shape] = index
        return index
    }

    @inline(__always) func kind(_ shape: Int32) -> Kind { entries[Int(shape)].kind }

    /// The element shape of a list shape.
    @inline(__always) func element(_ shape: Int32) -> Int32 { entries[Int(shape)].element }

    /// The shape of member `name` (an id into `names`) of `shape`; `any` for shapes that are not objects.
    mutating func member(_ shape: Int32, name: Int32, names: [String]) -> Int32 {
        let s = Int(shape)
        let n = Int(name)
        if n < entries[s].members.count {
            let cached = entries[s].members[n]
            if cached != XMLShapeTable.unknown { return cached }
        }
        let member = intern(entries[s].shape.member(names[n]))
        if n < XMLShapeTable.cachedNames {
            if n >= entries[s].members.count {
                entries[s].members.append(
                    contentsOf: repeatElement(XMLShapeTable.unknown, count: n + 1 - entries[s].members.count))
            }
            entries[s].members[n] = member
        }
        return member
    }
}
