public import LarderCore

/// A JSON Schema flattened for comparison: `$ref`s resolved, `allOf` merged, `oneOf`/`anyOf` of
/// "a value or null" folded into a nullable value, and a record's "live or tombstone" `anyOf`
/// read as its first (live) alternative.
public final class SchemaShape: Sendable {
    /// The JSON types allowed (`null` included); empty means any.
    public let types: Set<String>
    /// The allowed values, when an enum (or const).
    public let enumValues: [Value]?
    /// Members, in declaration order.
    public let properties: [(String, SchemaShape)]
    /// Required members.
    public let required: Set<String>
    /// Whether other members are refused (`additionalProperties: false`).
    public let isClosed: Bool
    /// The element shape of a list.
    public let items: SchemaShape?
    /// Whether the schema declares a default.
    public let hasDefault: Bool
    /// Bounds and formats, by keyword (`minimum`, `maxLength`, `pattern`, `format`, …).
    public let constraints: [String: Value]
    /// Keywords this comparison cannot reason about (`not`, alternatives it could not fold).
    public let opaque: [String]

    init(
        types: Set<String>, enumValues: [Value]?, properties: [(String, SchemaShape)], required: Set<String>,
        isClosed: Bool, items: SchemaShape?,
        hasDefault: Bool, constraints: [String: Value], opaque: [String]
    ) {
        self.types = types
        self.enumValues = enumValues
        self.properties = properties
        self.required = required
        self.isClosed = isClosed
        self.items = items
        self.hasDefault = hasDefault
        self.constraints = constraints
        self.opaque = opaque
    }

    /// The member named `name`.
    public func property(_ name: String) -> SchemaShape? { properties.first { $0.0 == name }?.1 }

    /// The types without `null`: what a field "is".
    public var baseTypes: Set<String> {
        var set = types
        set.remove("null")
        if set.contains("number") { set.remove("integer") }
        return set
    }

    /// `string`, `integer|null`, `list of object`.
    public var typeText: String {
        if let enumValues {
            return "one of " + enumValues.prefix(6).map { $0.compactText(limit: 20) }.joined(separator: ", ")
        }
        if types.isEmpty { return "anything" }
        return types.sorted().map { $0 == "array" ? "list of \(items?.typeText ?? "anything")" : $0 }.joined(
            separator: "|")
    }

    static let constraintKeys = [
        "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems",
        "pattern", "format", "multipleOf",
    ]

    /// Flattens `schema`.
    public static func make(from schema: Value) -> SchemaShape {
        var builder = Builder(root: schema)
        return builder.shape(schema, depth: 0)
    }

    private struct Builder {
        let root: Value

        func resolve(_ ref: String) -> Value? {
            guard ref.hasPrefix("#") else { return nil }
            var target = root
            for part in ref.dropFirst().split(separator: "/") {
                guard let next = target[String(part)] else { return nil }
                target = next
            }
            return target
        }

        /// Merges `$ref` and `allOf` members into one object of keywords.
        func merged(_ schema: Value, depth: Int) -> Fields {
            guard var fields = schema.objectValue, depth < 32 else { return Fields() }
            if let ref = fields.removeValue(forKey: "$ref")?.stringValue, let target = resolve(ref) {
                var base = merged(target, depth: depth + 1)
                for field in fields { base[field.key] = field.value }
                fields = base
            }
            if let parts = fields.removeValue(forKey: "allOf")?.arrayValue {
                for part in parts {
                    for field in merged(part, depth: depth + 1) where fields[field.key] == nil {
                        fields[field.key] = field.value
                    }
                }
            }
            return fields
        }

        mutating func shape(_ schema: Value, depth: Int) -> SchemaShape {
            var fields = merged(schema, depth: depth)
            var opaque: [String] = []
            var extraTypes: Set<String> = []
            for keyword in ["oneOf", "anyOf"] {
                guard let alternatives = fields.removeValue(forKey: keyword)?.arrayValue else { continue }
                let resolved = alternatives.map { merged($0, depth: depth + 1) }
                let nonNull = resolved.filter { $0["type"] != .string("null") }
                if nonNull.count < resolved.count { extraTypes.insert("null") }
                if nonNull.count == 1, let only = nonNull.first {
                    for field in only where fields[field.key] == nil { fields[field.key] = field.value }
                } else if let first = nonNull.first, first.keys.allSatisfy({ $0 == "required" }) {
                    // A record's "live record or tombstone": the live alternative's requirements.
                    fields["required"] = first["required"]
                } else if !nonNull.isEmpty {
                    opaque.append(keyword)
                }
            }
            if fields["not"] != nil { opaque.append("not") }
            var types: Set<String> = []
            if let type = fields["type"] {
                for name in type.arrayValue ?? [type] { if let text = name.stringValue { types.insert(text) } }
            }
            var enumValues = fields["enum"]?.arrayValue
            if let constant = fields["const"] { enumValues = [constant] }
            if let values = enumValues, types.isEmpty {
                for value in values { types.insert(Self.typeName(value)) }
            }
            if !types.isEmpty { types.formUnion(extraTypes) }
            if enumValues != nil, extraTypes.contains("null") { enumValues?.append(.null) }
            var properties: [(String, SchemaShape)] = []
            for member in fields["properties"]?.objectValue ?? Fields() {
                properties.append((member.key, shape(member.value, depth: depth + 1)))
            }
            let required = Set(fields["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            var constraints: [String: Value] = [:]
            for key in SchemaShape.constraintKeys { if let value = fields[key] { constraints[key] = value } }
            let items = fields["items"].map { shape($0, depth: depth + 1) }
            return SchemaShape(
                types: types, enumValues: enumValues, properties: properties, required: required,
                isClosed: fields["additionalProperties"] == .bool(false), items: items,
                hasDefault: fields["default"] != nil,
                constraints: constraints, opaque: opaque)
        }

        static func typeName(_ value: Value) -> String {
            switch value {
            case .null: "null"
            case .bool: "boolean"
            case .int: "integer"
            case .double: "number"
            case .string: "string"
            case .array: "array"
            case .object: "object"
            }
        }
    }
}
