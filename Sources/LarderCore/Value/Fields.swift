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
/// Lookup is a linear scan: records have a few dozen fields at most, and a scan over a
/// contiguous array beats hashing at that size. Setting an existing key replaces it in place.
public struct Fields: Sendable, Hashable, RandomAccessCollection {
    /// The members in order.
    public private(set) var elements: [Field]

    /// Creates an object from members; later duplicates of a key replace earlier ones.
    public init(_ elements: [Field] = []) {
        self.elements = []
        self.elements.reserveCapacity(elements.count)
        for field in elements { self[field.key] = field.value }
    }

    /// Creates an object without checking keys for duplicates (readers that already did).
    public init(uncheckedUniqueElements elements: [Field]) {
        self.elements = elements
    }

    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Field { elements[position] }

    /// The keys in order.
    public var keys: [String] { elements.map(\.key) }

    /// The value for `key`; setting `nil` removes the member.
    public subscript(key: String) -> Value? {
        get {
            // Comparing UTF-8 lengths first is O(1) and skips most of the (slower) string compares.
            // Through the buffer, so the scan reads each key in place instead of copying (and
            // retaining) every member it passes.
            let length = key.utf8.count
            return elements.withUnsafeBufferPointer { members in
                for index in members.indices where members[index].key.utf8.count == length {
                    if members[index].key == key { return members[index].value }
                }
                return nil
            }
        }
        set {
            if let index = elements.firstIndex(where: { $0.key == key }) {
                if let newValue { elements[index].value = newValue } else { elements.remove(at: index) }
            } else if let newValue {
                elements.append(Field(key: key, value: newValue))
            }
        }
    }

    /// Whether a member named `key` exists.
    public func contains(key: String) -> Bool {
        let length = key.utf8.count
        return elements.withUnsafeBufferPointer { members in
            members.contains { $0.key.utf8.count == length && $0.key == key }
        }
    }

    /// Appends a member without checking for an existing key.
    public mutating func append(key: String, value: Value) {
        elements.append(Field(key: key, value: value))
    }

    /// Removes and returns the member named `key`.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> Value? {
        guard let index = elements.firstIndex(where: { $0.key == key }) else { return nil }
        return elements.remove(at: index).value
    }

    /// Renames a member in place, keeping its position; an existing member named `new` is dropped.
    public mutating func renameKey(_ old: String, to new: String) {
        guard old != new, contains(key: old) else { return }
        elements.removeAll { $0.key == new }
        if let index = elements.firstIndex(where: { $0.key == old }) { elements[index].key = new }
    }
}
