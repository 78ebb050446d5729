/// `Value` as JSON through `Codable`: integers that fit in 64 bits decode as `.int`, other
/// numbers as `.double`; objects keep the order the decoder reports their keys in.
extension Value: Codable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        if let source = decoder as? any ValueCarryingDecoder {
            self = source.carriedValue
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var fields = Fields()
            for key in object.allKeys {
                fields.append(key: key.stringValue, value: try object.decode(Value.self, forKey: key))
            }
            self = .object(fields)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [Value] = []
            if let count = array.count { elements.reserveCapacity(count) }
            while !array.isAtEnd { elements.append(try array.decode(Value.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? single.decode(Int64.self) {
            self = .int(int)
        } else if let double = try? single.decode(Double.self) {
            self = .double(double)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .int(let int):
            var single = encoder.singleValueContainer()
            try single.encode(int)
        case .double(let double):
            var single = encoder.singleValueContainer()
            try single.encode(double)
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let fields):
            var object = encoder.container(keyedBy: AnyKey.self)
            for field in fields { try object.encode(field.value, forKey: AnyKey(stringValue: field.key)) }
        }
    }
}

/// A decoder that already holds the `Value` it decodes from, so `Value(from:)` takes it as it is
/// instead of probing each JSON type in turn.
public protocol ValueCarryingDecoder: Decoder {
    /// The value at this decoder's coding path.
    var carriedValue: Value { get }
}
