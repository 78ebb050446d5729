/// One member of an object value.
public struct Field: Sendable, Hashable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: Value

    /// Creates a member.
    public init(key: String, value: Value) {
        self.key = key
        self.value = value
    }
}

/// The members of an object value, in document order.
///
/// Lookup is a linear scan while an object is small: records have a few dozen fields at most, and
/// a scan over a contiguous array beats hashing at that size. An object of ``indexedCount`` members
/// or more also keeps a key → position table, so a hostile object of 100,000 members costs
/// 100,000 lookups to build or read, not billions of comparisons. Setting an existing key
/// replaces it in place.
public struct Fields: Sendable, Hashable, RandomAccessCollection {
    /// The members in order.
    public private(set) var elements: [Field]
    /// Key → position, for objects of ``indexedCount`` members or more (nil below).
    private var index: KeyIndex?

    /// Members from which an object keeps its key table.
    public static let indexedCount = 48

    /// Creates an object from members; later duplicates of a key replace earlier ones.
    public init(_ elements: [Field] = []) {
        self.elements = []
        self.elements.reserveCapacity(elements.count)
        if elements.count >= Self.indexedCount { index = KeyIndex() }
        for field in elements { self[field.key] = field.value }
    }

    /// Creates an object without checking keys for duplicates (readers that already did).
    public init(uncheckedUniqueElements elements: [Field]) {
        self.elements = elements
        if elements.count >= Self.indexedCount { index = KeyIndex(elements) }
    }

    public static func == (lhs: Fields, rhs: Fields) -> Bool { lhs.elements == rhs.elements }

    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Field { elements[position] }

    /// The keys in order.
    public var keys: [String] { elements.map(\.key) }

    /// The position of the member named `key`.
    private func position(of key: String) -> Int? {
        if let index { return index.positions[key] }
        // Comparing UTF-8 lengths first is O(1) and skips most of the (slower) string compares.
        // Through the buffer, so the scan reads each key in place instead of copying (and
        // retaining) every member it passes.
        let length = key.utf8.count
        return elements.withUnsafeBufferPointer { members in
            for index in members.indices where members[index].key.utf8.count == length {
                if members[index].key == key { return index }
            }
            return nil
        }
    }

    /// The key table, unshared (copied when another value holds it), or nil for a small object.
    private mutating func uniqueIndex() -> KeyIndex? {
        guard index != nil || elements.count + 1 >= Self.indexedCount else { return nil }
        if !isKnownUniquelyReferenced(&index) { index = KeyIndex(elements) }
        return index
    }

    /// The value for `key`; setting `nil` removes the member.
    public subscript(key: String) -> Value? {
        get { position(of: key).map { elements[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    elements[position].value = newValue
                } else {
                    elements.remove(at: position)
                    reindex()
                }
            } else if let newValue {
                append(key: key, value: newValue)
            }
        }
    }

    /// Whether a member named `key` exists.
    public func contains(key: String) -> Bool { position(of: key) != nil }

    /// Appends a member without checking for an existing key.
    public mutating func append(key: String, value: Value) {
        let table = uniqueIndex()
        elements.append(Field(key: key, value: value))
        // As a scan would, a lookup finds the first of two members of one name.
        if let table, table.positions[key] == nil { table.positions[key] = elements.count - 1 }
    }

    /// Removes and returns the member named `key`.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> Value? {
        guard let position = position(of: key) else { return nil }
        let removed = elements.remove(at: position).value
        reindex()
        return removed
    }

    /// Renames a member in place, keeping its position; an existing member named `new` is dropped.
    public mutating func renameKey(_ old: String, to new: String) {
        guard old != new, contains(key: old) else { return }
        elements.removeAll { $0.key == new }
        if let position = elements.firstIndex(where: { $0.key == old }) { elements[position].key = new }
        reindex()
    }

    /// Rebuilds the key table after members moved (or drops it below ``indexedCount``).
    private mutating func reindex() {
        index = elements.count >= Self.indexedCount ? KeyIndex(elements) : nil
    }
}

/// Key → position of an object's members (the first member of a name), shared between copies
/// of a ``Fields`` value and copied before a write when shared (copy on write): only a value
/// holding the sole reference writes to it, so it is never written while another thread reads.
private final class KeyIndex: @unchecked Sendable {
    var positions: [String: Int]

    init() { positions = [:] }

    init(_ elements: [Field]) {
        positions = Dictionary(minimumCapacity: elements.count)
        for (position, field) in elements.enumerated() where positions[field.key] == nil {
            positions[field.key] = position
        }
    }
}

extension Fields: CustomReflectable {
    /// The members alone, as before the key table existed: `String(describing:)` of a value (which
    /// some digests journals keep were made of) must not change with a cache.
    public var customMirror: Mirror { Mirror(self, children: ["elements": elements], displayStyle: .struct) }
}
