/// A format-neutral record value: what every reader produces and every writer consumes.
///
/// Objects keep their keys in document order, so a record converted from one format to
/// another keeps its field order. Integers that fit in 64 bits stay integers; other numbers
/// are doubles.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([Value])
    case object(Fields)

    /// The name of this value's kind, for diagnostics ("an integer", "a string").
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// A short rendering of the value for diagnostics: strings quoted, containers summarised.
    public var snippet: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): String(d)
        case .string(let s):
            s.count > 40 ? "\"\(s.prefix(40))…\"" : "\"\(s)\""
        case .array(let a): "a list of \(a.count)"
        case .object(let o): "an object of \(o.count) fields"
        }
    }

    /// The fields when this is an object.
    public var objectValue: Fields? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// The string when this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The elements when this is an array.
    public var arrayValue: [Value]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key` when this is an object.
    public subscript(key: String) -> Value? {
        objectValue?[key]
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(Fields(elements.map { Field(key: $0.0, value: $0.1) }))
    }
}

extension Value {
    /// Whether the value says nothing: null, an empty string, list or object.
    package var saysNothing: Bool {
        switch self {
        case .null: true
        case .string(let text): text.isEmpty
        case .array(let items): items.isEmpty
        case .object(let fields): fields.isEmpty
        default: false
        }
    }
}
