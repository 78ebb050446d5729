/// A table of a few dozen short string keys, looked up without hashing.
///
/// Record checks look up every member name of every record (a schema's `properties`, the recipe
/// digest's members). Hashing each name with `Hasher` was the biggest single cost of those checks;
/// here a lookup goes to the entries of the key's UTF-8 length, skips those whose first and last
/// bytes differ, and compares at most the one or two that remain.
public struct ShortKeyTable<Element: Sendable>: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let first: UInt8
        @usableFromInline let last: UInt8
        @usableFromInline let key: String
        @usableFromInline let element: Element
    }

    /// Entries by the UTF-8 length of their key (index 0 unused: the empty key is ``empty``).
    @usableFromInline let byLength: [[Entry]]
    /// The element of the empty key.
    @usableFromInline let empty: Element?

    /// A table of `entries`.
    public init(_ entries: [String: Element]) {
        var byLength: [[Entry]] = [[]]
        var empty: Element?
        for (key, element) in entries.sorted(by: { $0.key < $1.key }) {
            let bytes = Array(key.utf8)
            guard let first = bytes.first, let last = bytes.last else {
                empty = element
                continue
            }
            while byLength.count <= bytes.count { byLength.append([]) }
            byLength[bytes.count].append(Entry(first: first, last: last, key: key, element: element))
        }
        self.byLength = byLength
        self.empty = empty
    }

    /// The element of `key`, if the table has it.
    @inlinable
    public subscript(key: String) -> Element? {
        let utf8 = key.utf8
        let count = utf8.count
        guard count < byLength.count else { return nil }
        guard count > 0 else { return empty }
        let first = utf8[utf8.startIndex]
        let last = utf8[utf8.index(before: utf8.endIndex)]
        for entry in byLength[count] where entry.first == first && entry.last == last && entry.key == key {
            return entry.element
        }
        return nil
    }
}
