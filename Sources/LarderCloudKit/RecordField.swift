public import LarderCore

/// One field on the wire: `{"value": <json>, "type": "<TAG>"}`; `type` is optional in requests.
public struct RecordField: Sendable, Hashable, Codable {
    /// The JSON value (`null` removes the field in an update).
    public var value: Value
    /// The tag, when sent.
    public var type: FieldType?

    /// Creates a field.
    public init(value: Value, type: FieldType? = nil) {
        self.value = value
        self.type = type
    }

    private enum CodingKeys: String, CodingKey { case value, type }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decodeIfPresent(Value.self, forKey: .value) ?? .null
        type = try container.decodeIfPresent(FieldType.self, forKey: .type)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encodeIfPresent(type, forKey: .type)
    }

    /// A typed value: `.string("Pancakes")` → `{"value":"Pancakes","type":"STRING"}`.
    public init(_ value: FieldValue) { self = value.recordField }
}
