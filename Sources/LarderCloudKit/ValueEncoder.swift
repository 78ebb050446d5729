package import LarderCore

/// Encodes `Encodable` types into a ``Value`` tree (serialise it with LarderFormats' `JSONWriter`).
/// Faster than `JSONEncoder` for the emulator's responses, and `Value` members pass through as they are.
package struct ValueEncoder {
    package init() {}

    /// Encodes `value`.
    /// - Throws: whatever `value.encode(to:)` throws.
    package func encode<T: Encodable>(_ value: T) throws -> Value {
        let node = EncodingNode()
        try ValueEncoding(node: node).put(value)
        return node.resolve()
    }
}

/// One value under construction.
private final class EncodingNode {
    var value: Value?
    var object: [(key: String, node: EncodingNode)]?
    var array: [EncodingNode]?

    func child(forKey key: String) -> EncodingNode {
        let node = EncodingNode()
        if object == nil { object = [] }
        if let index = object?.firstIndex(where: { $0.key == key }) {
            object?[index].node = node
        } else {
            object?.append((key, node))
        }
        return node
    }

    func appendChild() -> EncodingNode {
        let node = EncodingNode()
        if array == nil { array = [] }
        array?.append(node)
        return node
    }

    func resolve() -> Value {
        if let object {
            var fields = Fields()
            for entry in object { fields.append(key: entry.key, value: entry.node.resolve()) }
            return .object(fields)
        }
        if let array { return .array(array.map { $0.resolve() }) }
        return value ?? .object(Fields())
    }
}

/// Coding paths are not tracked (always empty): nothing the emulator encodes reads them, and
/// building them cost a copy per nested value.
private struct ValueEncoding: Encoder {
    let node: EncodingNode
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func put<T: Encodable>(_ value: T) throws {
        switch value {
        case let value as Value: node.value = value
        case let value as String: node.value = .string(value)
        case let value as Bool: node.value = .bool(value)
        case let value as Int: node.value = .int(Int64(value))
        case let value as Int64: node.value = .int(value)
        case let value as Double: node.value = .double(value)
        default: try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.object == nil { node.object = [] }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.array == nil { node.array = [] }
        return UnkeyedContainer(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    var codingPath: [any CodingKey] { [] }

    func encoder(for key: Key) -> ValueEncoding { ValueEncoding(node: node.child(forKey: key.stringValue)) }

    mutating func encodeNil(forKey key: Key) throws { encoder(for: key).node.value = .null }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder(for: key).put(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { ValueEncoding(node: node) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(for: key) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey] { [] }
    var count: Int { node.array?.count ?? 0 }

    func next() -> ValueEncoding { ValueEncoding(node: node.appendChild()) }

    mutating func encodeNil() throws { next().node.value = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().put(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { next() }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: ValueEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node.value = .null }
    mutating func encode(_ value: Bool) throws { encoder.node.value = .bool(value) }
    mutating func encode(_ value: String) throws { encoder.node.value = .string(value) }
    mutating func encode(_ value: Double) throws { encoder.node.value = .double(value) }
    mutating func encode(_ value: Float) throws { encoder.node.value = .double(Double(value)) }
    mutating func encode(_ value: Int) throws { encoder.node.value = .int(Int64(value)) }
    mutating func encode(_ value: Int8) throws { encoder.node.value = .int(Int64(value)) }
    mutating func encode(_ value: Int16) throws { encoder.node.value = .int(Int64(value)) }
    mutating func encode(_ value: Int32) throws { encoder.node.value = .int(Int64(value)) }
    mutating func encode(_ value: Int64) throws { encoder.node.value = .int(value) }
    mutating func encode(_ value: UInt) throws { encoder.node.value = .int(Int64(truncatingIfNeeded: value)) }
    mutating func encode(_ value: UInt8) throws { encoder.node.value = .int(Int64(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.node.value = .int(Int64(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.node.value = .int(Int64(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.node.value = .int(Int64(truncatingIfNeeded: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.put(value) }
}
