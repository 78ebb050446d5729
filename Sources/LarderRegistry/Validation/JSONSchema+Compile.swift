import Foundation
import LarderCore

/// The JSON types a `type` keyword allows, as a bit set.
struct TypeSet: Sendable, Hashable, CustomStringConvertible {
    var bits: UInt8

    static let null = TypeSet(bits: 1)
    static let boolean = TypeSet(bits: 2)
    static let integer = TypeSet(bits: 4)
    static let number = TypeSet(bits: 8)
    static let string = TypeSet(bits: 16)
    static let array = TypeSet(bits: 32)
    static let object = TypeSet(bits: 64)

    static let names: [(String, TypeSet)] = [
        ("null", .null), ("boolean", .boolean), ("integer", .integer), ("number", .number), ("string", .string),
        ("array", .array), ("object", .object),
    ]

    init(bits: UInt8) { self.bits = bits }

    init?(name: String) {
        guard let match = Self.names.first(where: { $0.0 == name }) else { return nil }
        self = match.1
    }

    func contains(_ other: TypeSet) -> Bool { bits & other.bits == other.bits && other.bits != 0 }
    func union(_ other: TypeSet) -> TypeSet { TypeSet(bits: bits | other.bits) }

    /// Whether `value` has one of the types; integral numbers count as integers, as JSON Schema says.
    func matches(_ value: Value) -> Bool {
        switch value {
        case .null: return bits & 1 != 0
        case .bool: return bits & 2 != 0
        case .int: return bits & 12 != 0
        case .double(let d): return bits & 8 != 0 || (bits & 4 != 0 && d.rounded() == d && d.isFinite)
        case .string: return bits & 16 != 0
        case .array: return bits & 32 != 0
        case .object: return bits & 64 != 0
        }
    }

    /// The type names in this set.
    var typeNames: [String] { Self.names.filter { bits & $0.1.bits != 0 }.map(\.0) }

    /// `a string or null`.
    var description: String {
        let words = typeNames.map { name -> String in
            switch name {
            case "integer": return "an integer"
            case "array": return "a list"
            case "object": return "an object"
            case "null": return "null"
            default: return "a \(name)"
            }
        }
        return words.count <= 1
            ? (words.first ?? "nothing") : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }
}

/// The formats the validator asserts.
enum SchemaFormat: String, Sendable {
    case dateTime = "date-time"
    case date
    case uuid
    case uri
    case email

    /// Whether `text` is valid in this format (RFC 3339 date-time and full-date, RFC 4122 UUID,
    /// RFC 3986 absolute URI, a plain `local@domain` email).
    func accepts(_ text: String) -> Bool {
        switch self {
        case .dateTime: return FormatCheck.isDateTime(Array(text.utf8))
        case .date: return FormatCheck.isDate(Array(text.utf8))
        case .uuid: return FormatCheck.isUUID(Array(text.utf8))
        case .uri: return FormatCheck.isURI(Array(text.utf8))
        case .email:
            guard let at = text.firstIndex(of: "@") else { return false }
            return at != text.startIndex && text.index(after: at) != text.endIndex
        }
    }
}

/// A compiled `pattern`: an ECMA-262 regular expression, searched (not anchored) as JSON Schema says.
struct SchemaPattern: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable after creation and documented as thread-safe.
    let source: String
    private let regex: NSRegularExpression

    init(_ source: String) throws {
        self.source = source
        regex = try NSRegularExpression(pattern: source, options: [])
    }

    func matches(_ text: String) -> Bool {
        regex.firstMatch(in: text, options: [], range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// What `additionalProperties` allows.
enum AdditionalProperties: Sendable {
    case allowed
    case forbidden
    case schema(Int)
}

/// One compiled (sub)schema.
///
/// Children are indexes into ``JSONSchema/nodes`` so `$ref` cycles work.
final class SchemaNode: Sendable {
    let constant: Bool?
    let types: TypeSet?
    let enumValues: [Value]?
    let constValue: Value?
    let minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf: Double?
    let minLength, maxLength: Int?
    let pattern: SchemaPattern?
    let format: SchemaFormat?
    let minItems, maxItems: Int?
    let uniqueItems: Bool
    let items: Int?
    let prefixItems: [Int]
    /// The declared properties' nodes, looked up without hashing (every member of every record
    /// checked goes through it).
    let properties: ShortKeyTable<Int>
    let propertyOrder: [String]
    let required: [String]
    let additional: AdditionalProperties
    let minProperties, maxProperties: Int?
    let ref: Int?
    let allOf, anyOf, oneOf: [Int]
    let not: Int?
    let hasNumericBounds, hasStringChecks, hasArrayChecks, hasObjectChecks: Bool
    /// A short description of what this schema asserts, for "must not match" messages.
    let summary: String

    init(_ s: NodeSpec) {
        constant = s.constant
        types = s.types
        enumValues = s.enumValues
        constValue = s.constValue
        minimum = s.minimum
        maximum = s.maximum
        exclusiveMinimum = s.exclusiveMinimum
        exclusiveMaximum = s.exclusiveMaximum
        multipleOf = s.multipleOf
        minLength = s.minLength
        maxLength = s.maxLength
        pattern = s.pattern
        format = s.format
        minItems = s.minItems
        maxItems = s.maxItems
        uniqueItems = s.uniqueItems
        items = s.items
        prefixItems = s.prefixItems
        properties = ShortKeyTable(s.properties)
        propertyOrder = s.propertyOrder
        required = s.required
        additional = s.additional
        minProperties = s.minProperties
        maxProperties = s.maxProperties
        ref = s.ref
        allOf = s.allOf
        anyOf = s.anyOf
        oneOf = s.oneOf
        not = s.not
        hasNumericBounds =
            s.minimum != nil || s.maximum != nil || s.exclusiveMinimum != nil || s.exclusiveMaximum != nil
            || s.multipleOf != nil
        hasStringChecks = s.minLength != nil || s.maxLength != nil || s.pattern != nil || s.format != nil
        hasArrayChecks =
            s.minItems != nil || s.maxItems != nil || s.uniqueItems || s.items != nil || !s.prefixItems.isEmpty
        var additionalMatters = true
        if case .allowed = s.additional { additionalMatters = false }
        hasObjectChecks =
            !s.properties.isEmpty || !s.required.isEmpty || additionalMatters || s.minProperties != nil
            || s.maxProperties != nil
        summary = s.summary
    }
}

/// The mutable form of a node while compiling.
struct NodeSpec {
    var constant: Bool?
    var types: TypeSet?
    var enumValues: [Value]?
    var constValue: Value?
    var minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf: Double?
    var minLength, maxLength: Int?
    var pattern: SchemaPattern?
    var format: SchemaFormat?
    var minItems, maxItems: Int?
    var uniqueItems = false
    var items: Int?
    var prefixItems: [Int] = []
    var properties: [String: Int] = [:]
    var propertyOrder: [String] = []
    var required: [String] = []
    var additional = AdditionalProperties.allowed
    var minProperties, maxProperties: Int?
    var ref: Int?
    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?
    var summary = "a schema"
}

/// Compiles a schema value into nodes, resolving `$ref`s to local JSON pointers.
struct SchemaCompiler {
    let root: Value
    let name: String
    private var specs: [NodeSpec] = []
    private var indexByPointer: [String: Int] = [:]
    private var pendingRefs: [(node: Int, ref: String, at: String)] = []
    private let rootID: String?

    init(root: Value, name: String) {
        self.root = root
        self.name = name
        rootID = root["$id"]?.stringValue
    }

    mutating func compileAll() throws -> [SchemaNode] {
        _ = try compile(root, pointer: "")
        while let pending = pendingRefs.popLast() {
            specs[pending.node].ref = try resolve(pending.ref, at: pending.at)
        }
        return specs.map(SchemaNode.init)
    }

    private func error(_ message: String, at pointer: String) -> LarderError {
        LarderError(.schema, "schema \(name): \(pointer.isEmpty ? "/" : pointer): \(message)")
    }

    private mutating func resolve(_ ref: String, at pointer: String) throws -> Int {
        var fragment = ref
        if let rootID, fragment.hasPrefix(rootID) { fragment.removeFirst(rootID.count) }
        guard fragment.hasPrefix("#") else {
            throw error("only local references (#/...) are supported, found \"\(ref)\"", at: pointer)
        }
        fragment.removeFirst()
        fragment = fragment.removingPercentEncoding ?? fragment
        var target = root
        if !fragment.isEmpty {
            guard fragment.hasPrefix("/") else { throw error("unsupported reference \"\(ref)\"", at: pointer) }
            for part in fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                if let object = target.objectValue, let next = object[key] {
                    target = next
                } else if let array = target.arrayValue, let index = Int(key), array.indices.contains(index) {
                    target = array[index]
                } else {
                    throw error("$ref \"\(ref)\" points at nothing", at: pointer)
                }
            }
        }
        return try compile(target, pointer: fragment)
    }

    private mutating func compile(_ value: Value, pointer: String) throws -> Int {
        if let existing = indexByPointer[pointer] { return existing }
        let index = specs.count
        specs.append(NodeSpec())
        indexByPointer[pointer] = index
        var spec = NodeSpec()
        switch value {
        case .bool(let b):
            spec.constant = b
            spec.summary = b ? "true" : "false"
        case .object(let fields):
            try fill(&spec, from: fields, pointer: pointer)
        default:
            throw error("a schema must be an object or a boolean, found \(value.kindDescription)", at: pointer)
        }
        specs[index] = spec
        return index
    }

    private func number(_ fields: Fields, _ key: String, _ pointer: String) throws -> Double? {
        guard let value = fields[key] else { return nil }
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: throw error("\(key) must be a number", at: pointer + "/" + key)
        }
    }

    private func count(_ fields: Fields, _ key: String, _ pointer: String) throws -> Int? {
        guard let d = try number(fields, key, pointer) else { return nil }
        guard d >= 0, d.rounded() == d, d < 1e15 else {
            throw error("\(key) must be a non-negative integer", at: pointer + "/" + key)
        }
        return Int(d)
    }

    private mutating func list(_ fields: Fields, _ key: String, _ pointer: String) throws -> [Int] {
        guard let value = fields[key] else { return [] }
        guard let array = value.arrayValue, !array.isEmpty else {
            throw error("\(key) must be a non-empty list of schemas", at: pointer + "/" + key)
        }
        var result: [Int] = []
        for (i, element) in array.enumerated() {
            result.append(try compile(element, pointer: "\(pointer)/\(key)/\(i)"))
        }
        return result
    }

    private static func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Fills `spec` from a schema object's keywords, compiling its subschemas; the summary
    /// names its most telling keyword.
    private mutating func fill(_ spec: inout NodeSpec, from fields: Fields, pointer: String) throws {
        var summaries: [String] = []
        try fillValues(&spec, from: fields, pointer: pointer, summaries: &summaries)
        try fillScalars(&spec, from: fields, pointer: pointer, summaries: &summaries)
        try fillArrays(&spec, from: fields, pointer: pointer)
        try fillObjects(&spec, from: fields, pointer: pointer, summaries: &summaries)
        try fillReferences(&spec, from: fields, pointer: pointer, summaries: &summaries)
        if spec.minimum != nil || spec.maximum != nil { summaries.append("numeric bounds") }
        spec.summary = summaries.first ?? "a schema"
    }

    /// `type`, `enum` and `const`.
    private func fillValues(
        _ spec: inout NodeSpec, from fields: Fields, pointer: String, summaries: inout [String]
    ) throws {
        if let type = fields["type"] {
            var set = TypeSet(bits: 0)
            let names: [Value] = type.arrayValue ?? [type]
            for name in names {
                guard let text = name.stringValue, let one = TypeSet(name: text) else {
                    throw error("unknown type \(name.snippet)", at: pointer + "/type")
                }
                set = set.union(one)
            }
            spec.types = set
            summaries.append("type \(set.typeNames.joined(separator: "|"))")
        }
        if let options = fields["enum"] {
            guard let array = options.arrayValue else { throw error("enum must be a list", at: pointer + "/enum") }
            spec.enumValues = array
            summaries.append("enum")
        }
        if let constant = fields["const"] {
            spec.constValue = constant
            summaries.append("const \(constant.compactText(limit: 30))")
        }
    }

    /// Numeric bounds, string lengths, `pattern` and `format`.
    private func fillScalars(
        _ spec: inout NodeSpec, from fields: Fields, pointer: String, summaries: inout [String]
    ) throws {
        spec.minimum = try number(fields, "minimum", pointer)
        spec.maximum = try number(fields, "maximum", pointer)
        spec.exclusiveMinimum = try number(fields, "exclusiveMinimum", pointer)
        spec.exclusiveMaximum = try number(fields, "exclusiveMaximum", pointer)
        spec.multipleOf = try number(fields, "multipleOf", pointer)
        if let step = spec.multipleOf, step <= 0 {
            throw error("multipleOf must be greater than 0", at: pointer + "/multipleOf")
        }
        spec.minLength = try count(fields, "minLength", pointer)
        spec.maxLength = try count(fields, "maxLength", pointer)
        if let pattern = fields["pattern"] {
            guard let text = pattern.stringValue else {
                throw error("pattern must be a string", at: pointer + "/pattern")
            }
            do {
                spec.pattern = try SchemaPattern(text)
            } catch {
                throw self.error("invalid pattern \(pattern.snippet)", at: pointer + "/pattern")
            }
            summaries.append("pattern \(text)")
        }
        if let format = fields["format"]?.stringValue {
            spec.format = SchemaFormat(rawValue: format)  // unknown formats are annotations
        }
    }

    /// Item counts, `uniqueItems`, `items` and `prefixItems`.
    private mutating func fillArrays(_ spec: inout NodeSpec, from fields: Fields, pointer: String) throws {
        spec.minItems = try count(fields, "minItems", pointer)
        spec.maxItems = try count(fields, "maxItems", pointer)
        if let unique = fields["uniqueItems"] {
            guard case .bool(let b) = unique else {
                throw error("uniqueItems must be a boolean", at: pointer + "/uniqueItems")
            }
            spec.uniqueItems = b
        }
        if let items = fields["items"] {
            if items.arrayValue != nil {
                throw error("items must be a schema (use prefixItems for tuples)", at: pointer + "/items")
            }
            spec.items = try compile(items, pointer: pointer + "/items")
        }
        if fields["prefixItems"] != nil { spec.prefixItems = try list(fields, "prefixItems", pointer) }
    }

    /// `properties`, `required`, `additionalProperties`, property counts and the definitions.
    private mutating func fillObjects(
        _ spec: inout NodeSpec, from fields: Fields, pointer: String, summaries: inout [String]
    ) throws {
        if let properties = fields["properties"] {
            guard let members = properties.objectValue else {
                throw error("properties must be an object", at: pointer + "/properties")
            }
            for member in members {
                spec.properties[member.key] = try compile(
                    member.value, pointer: pointer + "/properties/" + Self.escape(member.key))
                spec.propertyOrder.append(member.key)
            }
        }
        if let required = fields["required"] {
            guard let names = required.arrayValue?.compactMap(\.stringValue), names.count == required.arrayValue?.count
            else {
                throw error("required must be a list of strings", at: pointer + "/required")
            }
            spec.required = names
            summaries.append("required \(names.joined(separator: ", "))")
        }
        if let additional = fields["additionalProperties"] {
            switch additional {
            case .bool(true): spec.additional = .allowed
            case .bool(false): spec.additional = .forbidden
            default: spec.additional = .schema(try compile(additional, pointer: pointer + "/additionalProperties"))
            }
        }
        spec.minProperties = try count(fields, "minProperties", pointer)
        spec.maxProperties = try count(fields, "maxProperties", pointer)
        for container in ["$defs", "definitions"] {
            guard let defs = fields[container] else { continue }
            guard let members = defs.objectValue else {
                throw error("\(container) must be an object", at: pointer + "/" + container)
            }
            for member in members {
                _ = try compile(member.value, pointer: pointer + "/" + container + "/" + Self.escape(member.key))
            }
        }
    }

    /// `$ref` and the combinators `allOf`, `anyOf`, `oneOf`, `not`.
    private mutating func fillReferences(
        _ spec: inout NodeSpec, from fields: Fields, pointer: String, summaries: inout [String]
    ) throws {
        if let ref = fields["$ref"] {
            guard let text = ref.stringValue else { throw error("$ref must be a string", at: pointer + "/$ref") }
            pendingRefs.append(
                (node: specs.count > 0 ? indexByPointer[pointer] ?? 0 : 0, ref: text, at: pointer + "/$ref"))
            summaries.append("$ref \(text)")
        }
        spec.allOf = try list(fields, "allOf", pointer)
        spec.anyOf = try list(fields, "anyOf", pointer)
        spec.oneOf = try list(fields, "oneOf", pointer)
        if let not = fields["not"] { spec.not = try compile(not, pointer: pointer + "/not") }
    }
}
