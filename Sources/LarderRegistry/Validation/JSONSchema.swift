import Foundation
public import LarderCore

/// One way a value fails a JSON Schema: where (a field path, rendered as a JSON pointer), which
/// keyword, and what is wrong.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the record.
    public var path: FieldPath
    /// The keyword that failed, such as `required` or `maximum`.
    public var keyword: String
    /// What is wrong, in words.
    public var message: String

    /// Creates a violation.
    public init(path: FieldPath, keyword: String, message: String) {
        self.path = path
        self.keyword = keyword
        self.message = message
    }

    /// `/ingredients/0/quantity: -1 is less than the minimum 0`.
    public var description: String {
        "\(path.isRoot ? "/" : path.jsonPointer): \(message)"
    }
}

/// A compiled JSON Schema (draft 2020-12) that validates ``Value``s.
///
/// Supports the keywords Larder's schemas use: `type`, `properties`, `required`,
/// `additionalProperties`, `items`, `prefixItems`, `enum`, `const`, numeric bounds
/// (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`), length bounds
/// (`minLength`, `maxLength`, `minItems`, `maxItems`, `minProperties`, `maxProperties`),
/// `uniqueItems`, `pattern`, `format` (`date-time`, `date`, `uuid`, `uri`, `email`), `$ref` to
/// `#`, `$defs` or any local JSON pointer, `allOf`, `anyOf`, `oneOf` and `not`. Formats are
/// asserted (as python's jsonschema does with a format checker). Annotations (`title`,
/// `description`, `default`, `contentEncoding`, …) are ignored; unknown keywords are ignored.
///
/// Compiling is done once; validating walks the value once with no allocation on the success
/// path, so it is cheap enough to run on every record of a stream.
///
/// ```swift
/// let schema = try JSONSchema(value: schemaValue, name: "recipe v3")
/// if !schema.isValid(record) { print(schema.validate(record)) }
/// ```
public final class JSONSchema: Sendable {
    /// The schema's name in messages, such as `recipe v3`.
    public let name: String
    let nodes: [SchemaNode]

    /// Compiles `value`.
    /// - Throws: ``LarderError`` `schema-error` naming the keyword's JSON pointer when the schema is
    ///   malformed (a keyword of the wrong kind, an unresolvable `$ref`, an invalid pattern).
    public init(value: Value, name: String) throws {
        var compiler = SchemaCompiler(root: value, name: name)
        self.nodes = try compiler.compileAll()
        self.name = name
    }

    /// Whether `value` is valid.
    ///
    /// Stops at the first failure.
    public func isValid(_ value: Value) -> Bool {
        var context = ValidationContext(collect: false, limit: 0)
        return check(0, value, &context)
    }

    /// Every violation in `value` (up to `limit`), each with its path; empty when valid.
    public func validate(_ value: Value, limit: Int = 50) -> [SchemaViolation] {
        var context = ValidationContext(collect: true, limit: limit)
        _ = check(0, value, &context)
        return context.violations
    }

    // MARK: Walking

    private func check(_ index: Int, _ value: Value, _ ctx: inout ValidationContext) -> Bool {
        let node = nodes[index]
        switch node.constant {
        case .some(true): return true
        case .some(false):
            return ctx.fail("false", "no value is allowed here")
        case .none: break
        }
        var ok = true
        if let types = node.types, !types.matches(value) {
            guard ctx.collect else { return false }
            ok = ctx.fail("type", "expected \(types.description), found \(value.schemaSnippet)")
        }
        if let options = node.enumValues, !options.contains(where: { $0.jsonEquals(value) }) {
            guard ctx.collect else { return false }
            let list = options.prefix(8).map { $0.compactText(limit: 30) }.joined(separator: ", ")
            ok = ctx.fail("enum", "\(value.schemaSnippet) is not one of \(list)\(options.count > 8 ? ", …" : "")")
        }
        if let constant = node.constValue, !constant.jsonEquals(value) {
            guard ctx.collect else { return false }
            ok = ctx.fail("const", "expected \(constant.compactText(limit: 40)), found \(value.schemaSnippet)")
        }
        switch value {
        case .int(let i):
            if node.hasNumericBounds, !checkNumber(node, Double(i), exactInteger: i, value, &ctx) {
                guard ctx.collect else { return false }
                ok = false
            }
        case .double(let d):
            if node.hasNumericBounds, !checkNumber(node, d, exactInteger: nil, value, &ctx) {
                guard ctx.collect else { return false }
                ok = false
            }
        case .string(let s):
            if node.hasStringChecks, !checkString(node, s, &ctx) {
                guard ctx.collect else { return false }
                ok = false
            }
        case .array(let elements):
            if node.hasArrayChecks, !checkArray(node, elements, &ctx) {
                guard ctx.collect else { return false }
                ok = false
            }
        case .object(let fields):
            if node.hasObjectChecks, !checkObject(node, fields, &ctx) {
                guard ctx.collect else { return false }
                ok = false
            }
        default: break
        }
        if let ref = node.ref, !check(ref, value, &ctx) {
            guard ctx.collect else { return false }
            ok = false
        }
        for sub in node.allOf where !check(sub, value, &ctx) {
            guard ctx.collect else { return false }
            ok = false
        }
        if !node.anyOf.isEmpty, !node.anyOf.contains(where: { quietly($0, value) }) {
            guard ctx.collect else { return false }
            ok = reportClosest(node.anyOf, value, "anyOf", "matches none of the \(node.anyOf.count) alternatives", &ctx)
        }
        if !node.oneOf.isEmpty {
            let matches = node.oneOf.lazy.filter { self.quietly($0, value) }.prefix(2).count
            if matches != 1 {
                guard ctx.collect else { return false }
                if matches == 0 {
                    ok = reportClosest(
                        node.oneOf, value, "oneOf", "matches none of the \(node.oneOf.count) alternatives", &ctx)
                } else {
                    ok = ctx.fail("oneOf", "\(value.schemaSnippet) matches more than one of the oneOf alternatives")
                }
            }
        }
        if let not = node.not, quietly(not, value) {
            guard ctx.collect else { return false }
            ok = ctx.fail("not", "\(value.schemaSnippet) matches a schema it must not match (\(nodes[not].summary))")
        }
        return ok
    }

    private func quietly(_ index: Int, _ value: Value) -> Bool {
        var context = ValidationContext(collect: false, limit: 0)
        return check(index, value, &context)
    }

    /// Reports the violations of the alternative with the fewest, so a record missing one field
    /// hears about that field rather than "matches no alternative".
    private func reportClosest(
        _ alternatives: [Int], _ value: Value, _ keyword: String, _ message: String, _ ctx: inout ValidationContext
    ) -> Bool {
        var best: [SchemaViolation]?
        for alternative in alternatives {
            var sub = ValidationContext(collect: true, limit: 20)
            sub.path = ctx.path
            _ = check(alternative, value, &sub)
            if best == nil || sub.violations.count < (best?.count ?? 0) { best = sub.violations }
        }
        if let best, !best.isEmpty, alternatives.count > 1 {
            for violation in best {
                ctx.append(
                    SchemaViolation(
                        path: violation.path, keyword: keyword,
                        message: violation.message + " (\(keyword): closest of \(alternatives.count) alternatives)"))
            }
            return false
        }
        return ctx.fail(keyword, message)
    }

    private func checkNumber(
        _ node: SchemaNode, _ d: Double, exactInteger: Int64?, _ value: Value, _ ctx: inout ValidationContext
    ) -> Bool {
        var ok = true
        if let minimum = node.minimum, d < minimum {
            guard ctx.collect else { return false }
            ok = ctx.fail("minimum", "\(value.schemaSnippet) is less than the minimum \(minimum.schemaText)")
        }
        if let maximum = node.maximum, d > maximum {
            guard ctx.collect else { return false }
            ok = ctx.fail("maximum", "\(value.schemaSnippet) is greater than the maximum \(maximum.schemaText)")
        }
        if let bound = node.exclusiveMinimum, d <= bound {
            guard ctx.collect else { return false }
            ok = ctx.fail("exclusiveMinimum", "\(value.schemaSnippet) must be greater than \(bound.schemaText)")
        }
        if let bound = node.exclusiveMaximum, d >= bound {
            guard ctx.collect else { return false }
            ok = ctx.fail("exclusiveMaximum", "\(value.schemaSnippet) must be less than \(bound.schemaText)")
        }
        if let step = node.multipleOf {
            let isMultiple: Bool
            if let exactInteger, step.rounded() == step, abs(step) < 9.0e15, step != 0 {
                isMultiple = exactInteger % Int64(step) == 0
            } else {
                let quotient = d / step
                isMultiple = quotient.isFinite && quotient.rounded(.towardZero) == quotient
            }
            if !isMultiple {
                guard ctx.collect else { return false }
                ok = ctx.fail("multipleOf", "\(value.schemaSnippet) is not a multiple of \(step.schemaText)")
            }
        }
        return ok
    }

    private func checkString(_ node: SchemaNode, _ s: String, _ ctx: inout ValidationContext) -> Bool {
        var ok = true
        if node.minLength != nil || node.maxLength != nil {
            // The UTF-8 length bounds the scalar count (between bytes / 4 and bytes), so most
            // strings never need counting.
            let bytes = s.utf8.count
            var counted: Int?
            func length() -> Int {
                if let counted { return counted }
                let n = s.unicodeScalars.count
                counted = n
                return n
            }
            if let minimum = node.minLength, bytes < minimum || (bytes < minimum * 4 && length() < minimum) {
                guard ctx.collect else { return false }
                ok = ctx.fail(
                    "minLength",
                    minimum == 1
                        ? "must not be empty" : "\(Value.string(s).schemaSnippet) is shorter than \(minimum) characters"
                )
            }
            if let maximum = node.maxLength, bytes > maximum, length() > maximum {
                guard ctx.collect else { return false }
                ok = ctx.fail("maxLength", "is longer than \(maximum) characters (\(length()))")
            }
        }
        if let pattern = node.pattern, !pattern.matches(s) {
            guard ctx.collect else { return false }
            ok = ctx.fail("pattern", "\(Value.string(s).schemaSnippet) does not match the pattern \(pattern.source)")
        }
        if let format = node.format, !format.accepts(s) {
            guard ctx.collect else { return false }
            ok = ctx.fail("format", "\(Value.string(s).schemaSnippet) is not a valid \(format.rawValue)")
        }
        return ok
    }

    private func checkArray(_ node: SchemaNode, _ elements: [Value], _ ctx: inout ValidationContext) -> Bool {
        var ok = true
        if let minimum = node.minItems, elements.count < minimum {
            guard ctx.collect else { return false }
            ok = ctx.fail(
                "minItems", minimum == 1 ? "must not be empty" : "has \(elements.count) items, fewer than \(minimum)")
        }
        if let maximum = node.maxItems, elements.count > maximum {
            guard ctx.collect else { return false }
            ok = ctx.fail("maxItems", "has \(elements.count) items, more than \(maximum)")
        }
        if node.uniqueItems, elements.count > 1 {
            outer: for i in 1..<elements.count {
                for j in 0..<i where elements[i].jsonEquals(elements[j]) {
                    guard ctx.collect else { return false }
                    ok = ctx.fail("uniqueItems", "items \(j) and \(i) are equal")
                    break outer
                }
            }
        }
        for (position, element) in elements.enumerated() {
            let sub: Int?
            if position < node.prefixItems.count { sub = node.prefixItems[position] } else { sub = node.items }
            guard let sub else { continue }
            ctx.push(.index(position))
            let elementOK = check(sub, element, &ctx)
            ctx.pop()
            if !elementOK {
                guard ctx.collect else { return false }
                ok = false
            }
        }
        return ok
    }

    private func checkObject(_ node: SchemaNode, _ fields: Fields, _ ctx: inout ValidationContext) -> Bool {
        var ok = true
        for key in node.required where !fields.contains(key: key) {
            guard ctx.collect else { return false }
            ctx.push(.key(key))
            ok = ctx.fail("required", "required property \"\(key)\" is missing")
            ctx.pop()
        }
        if let minimum = node.minProperties, fields.count < minimum {
            guard ctx.collect else { return false }
            ok = ctx.fail("minProperties", "has \(fields.count) properties, fewer than \(minimum)")
        }
        if let maximum = node.maxProperties, fields.count > maximum {
            guard ctx.collect else { return false }
            ok = ctx.fail("maxProperties", "has \(fields.count) properties, more than \(maximum)")
        }
        for field in fields {
            let sub: Int?
            if let declared = node.properties[field.key] {
                sub = declared
            } else {
                switch node.additional {
                case .allowed: sub = nil
                case .forbidden:
                    guard ctx.collect else { return false }
                    ctx.push(.key(field.key))
                    ok = ctx.fail("additionalProperties", "property \"\(field.key)\" is not allowed")
                    ctx.pop()
                    sub = nil
                case .schema(let index): sub = index
                }
            }
            guard let sub else { continue }
            ctx.push(.key(field.key))
            let fieldOK = check(sub, field.value, &ctx)
            ctx.pop()
            if !fieldOK {
                guard ctx.collect else { return false }
                ok = false
            }
        }
        return ok
    }
}

/// The walk's state: the path so far and, when collecting, the violations.
struct ValidationContext {
    let collect: Bool
    let limit: Int
    var path: [FieldPath.Component] = []
    var violations: [SchemaViolation] = []

    init(collect: Bool, limit: Int) {
        self.collect = collect
        self.limit = limit
    }

    mutating func push(_ component: FieldPath.Component) {
        if collect { path.append(component) }
    }

    mutating func pop() {
        if collect { path.removeLast() }
    }

    /// Records a violation at the current path; always returns `false`.
    mutating func fail(_ keyword: String, _ message: String) -> Bool {
        if collect { append(SchemaViolation(path: FieldPath(components: path), keyword: keyword, message: message)) }
        return false
    }

    mutating func append(_ violation: SchemaViolation) {
        if violations.count < limit, !violations.contains(violation) { violations.append(violation) }
    }
}

extension Value {
    /// A value as messages quote it.
    var schemaSnippet: String {
        switch self {
        case .string, .int, .double, .bool, .null: return compactText(limit: 50)
        case .array(let a): return "a list of \(a.count)"
        case .object(let o): return "an object of \(o.count) field\(o.count == 1 ? "" : "s")"
        }
    }
}

extension Double {
    /// `3` for integral values, `2.5` otherwise.
    var schemaText: String {
        rounded() == self && abs(self) < 9.0e15 ? String(Int64(self)) : String(self)
    }
}
