package import LarderCore

/// Decodes `Decodable` types from a parsed ``Value`` (``WireDecoder`` parses one), with the same
/// `DecodingError`s and coding paths as `JSONDecoder`.
///
/// A `Value` member is handed over as it is.
package struct ValueDecoder {
    package init() {}

    /// Decodes `type` from `value`.
    /// - Throws: `DecodingError` naming the coding path.
    package func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        try T(from: ValueDecoding(value: value, path: nil))
    }
}

/// A coding path as a chain of parents: extending it costs one small allocation, and the array
/// `codingPath` wants is built only when something asks (an error).
final class CodingPathNode: Sendable {
    let parent: CodingPathNode?
    let key: String
    let index: Int?

    init(parent: CodingPathNode?, key: String, index: Int? = nil) {
        self.parent = parent
        self.key = key
        self.index = index
    }

    var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: CodingPathNode? = self
        while let current = node {
            keys.append(current.index.map { AnyCodingKey(intValue: $0) } ?? AnyCodingKey(stringValue: current.key))
            node = current.parent
        }
        return keys.reversed()
    }
}

struct ValueDecoding: ValueCarryingDecoder {
    let value: Value
    var carriedValue: Value { value }
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            .init(
                codingPath: codingPath,
                debugDescription: "Expected \(expected) but found \(value.kindDescription) instead."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else {
            throw mismatch([String: Any].self, "to decode Dictionary<String, Any>")
        }
        return KeyedDecodingContainer(KeyedValueContainer<Key>(fields: fields, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self, "to decode Array<Any>") }
        return UnkeyedValueContainer(elements: elements, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }
}

struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.intValue = intValue
        stringValue = String(intValue)
    }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: Fields
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { path?.keys ?? [] }

    var allKeys: [Key] { fields.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { fields.contains(key: key.stringValue) }

    func member(_ key: Key) throws -> ValueDecoding {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue).")
            )
        }
        return ValueDecoding(value: value, path: CodingPathNode(parent: path, key: key.stringValue))
    }

    func decodeNil(forKey key: Key) throws -> Bool { fields[key.stringValue]?.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let decoder = try member(key)
        if decoder.value.isNull, !(T.self == Value.self) {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: decoder.codingPath, debugDescription: "Found null."))
        }
        return try T(from: decoder)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = fields[key.stringValue], !value.isNull else { return nil }
        return try T(from: ValueDecoding(value: value, path: CodingPathNode(parent: path, key: key.stringValue)))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoding(value: .object(fields), path: path) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
}

private struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let elements: [Value]
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var currentIndex = 0

    init(elements: [Value], path: CodingPathNode?) {
        self.elements = elements
        self.path = path
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next() throws -> ValueDecoding {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath, debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return ValueDecoding(
            value: elements[currentIndex],
            path: CodingPathNode(parent: path, key: String(currentIndex), index: currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: try next()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoding
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value.isNull }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = decoder.value else { throw decoder.mismatch(type, "to decode Bool") }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = decoder.value else { throw decoder.mismatch(type, "to decode String") }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch decoder.value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: throw decoder.mismatch(type, "to decode Double")
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch decoder.value {
        case .int(let int):
            guard let value = T(exactly: int) else { throw decoder.mismatch(type, "a number that fits \(type)") }
            return value
        case .double(let double):
            guard let value = T(exactly: double) else { throw decoder.mismatch(type, "to decode \(type)") }
            return value
        default:
            throw decoder.mismatch(type, "to decode \(type)")
        }
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
}
