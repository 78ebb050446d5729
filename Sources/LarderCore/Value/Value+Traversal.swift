extension Value {
    /// The value at `path`, or `nil` when any step is missing.
    public func value(at path: FieldPath) -> Value? {
        var current = self
        for component in path.components {
            switch component {
            case .key(let key):
                guard let next = current[key] else { return nil }
                current = next
            case .index(let index):
                guard let array = current.arrayValue, array.indices.contains(index) else { return nil }
                current = array[index]
            }
        }
        return current
    }

    /// The pre-order index of the node at `path`: the value itself is 0, then each object member's
    /// value and each array element, depth first, in document order.
    ///
    /// Readers record one source position per node in this order while they parse, so a
    /// diagnostic about a field path can be mapped back to its line and column.
    public func preorderIndex(of path: FieldPath) -> Int? {
        var index = 0
        var current = self
        for component in path.components {
            index += 1  // step past the container node itself
            switch component {
            case .key(let key):
                guard let fields = current.objectValue else { return nil }
                var found: Value?
                for field in fields {
                    if field.key == key {
                        found = field.value
                        break
                    }
                    index += field.value.nodeCount
                }
                guard let next = found else { return nil }
                current = next
            case .index(let position):
                guard let array = current.arrayValue, array.indices.contains(position) else { return nil }
                for element in array[..<position] { index += element.nodeCount }
                current = array[position]
            }
        }
        return index
    }

    /// The number of nodes in this value, itself included.
    public var nodeCount: Int {
        switch self {
        case .array(let a): return a.reduce(1) { $0 + $1.nodeCount }
        case .object(let o): return o.reduce(1) { $0 + $1.value.nodeCount }
        default: return 1
        }
    }

    /// The depth of nesting: a scalar is 0, `[1]` is 1.
    public var depth: Int {
        switch self {
        case .array(let a): return 1 + (a.map(\.depth).max() ?? 0)
        case .object(let o): return 1 + (o.map(\.value.depth).max() ?? 0)
        default: return 0
        }
    }
}
