public import Foundation

/// Reads typed fields out of an object value, throwing errors that name the field path.
///
/// Used by the model types' `init(value:)`. Numbers are accepted where the field is a
/// number; an integral double such as `4.0` is accepted where an integer is expected.
public struct ValueReader: Sendable {
    /// The object's members.
    public let fields: Fields
    /// Where the object is in its record.
    public let path: FieldPath

    /// Creates a reader for `value`, which must be an object.
    public init(_ value: Value, at path: FieldPath = .root) throws {
        guard let fields = value.objectValue else {
            throw ValueReader.mismatch("an object", value, at: path)
        }
        self.fields = fields
        self.path = path
    }

    /// The error for a value of the wrong kind.
    public static func mismatch(_ expected: String, _ found: Value, at path: FieldPath) -> LarderError {
        LarderError(
            .malformedRecord, "expected \(expected), found \(found.snippet)", location: SourceLocation(fieldPath: path))
    }

    /// The error for a missing required field.
    public func missing(_ key: String) -> LarderError {
        LarderError(
            .malformedRecord, "required field is missing", location: SourceLocation(fieldPath: path.appending(key)))
    }

    private func present(_ key: String) -> Value? {
        guard let value = fields[key], !value.isNull else { return nil }
        return value
    }

    /// A required string.
    public func string(_ key: String) throws -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    /// An optional string.
    public func optionalString(_ key: String) throws -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let s) = value else { throw Self.mismatch("a string", value, at: path.appending(key)) }
        return s
    }

    /// An optional integer.
    public func optionalInt(_ key: String) throws -> Int? {
        guard let value = present(key) else { return nil }
        return try Self.int(value, at: path.appending(key))
    }

    /// A required integer.
    public func int(_ key: String) throws -> Int {
        guard let value = try optionalInt(key) else { throw missing(key) }
        return value
    }

    /// Converts one value to an integer.
    public static func int(_ value: Value, at path: FieldPath) throws -> Int {
        switch value {
        case .int(let i):
            guard let narrowed = Int(exactly: i) else { throw mismatch("an integer", value, at: path) }
            return narrowed
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15:
            return Int(d)
        default:
            throw mismatch("an integer", value, at: path)
        }
    }

    /// An optional number.
    public func optionalDouble(_ key: String) throws -> Double? {
        guard let value = present(key) else { return nil }
        return try Self.double(value, at: path.appending(key))
    }

    /// A required number.
    public func double(_ key: String) throws -> Double {
        guard let value = try optionalDouble(key) else { throw missing(key) }
        return value
    }

    /// Converts one value to a number.
    public static func double(_ value: Value, at path: FieldPath) throws -> Double {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: throw mismatch("a number", value, at: path)
        }
    }

    /// A boolean with a default for when it is absent.
    public func bool(_ key: String, default defaultValue: Bool) throws -> Bool {
        guard let value = present(key) else { return defaultValue }
        guard case .bool(let b) = value else { throw Self.mismatch("a boolean", value, at: path.appending(key)) }
        return b
    }

    /// An optional ISO 8601 timestamp.
    public func optionalDate(_ key: String) throws -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard let date = Timestamp.parse(text) else {
            throw LarderError(
                .malformedRecord, "expected an ISO 8601 date-time, found \"\(text)\"",
                location: SourceLocation(fieldPath: path.appending(key)))
        }
        return date
    }

    /// A required ISO 8601 timestamp.
    public func date(_ key: String) throws -> Date {
        guard let value = try optionalDate(key) else { throw missing(key) }
        return value
    }

    /// An optional value of a string-backed enumeration.
    public func optionalEnum<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws -> E?
    where E.RawValue == String {
        guard let raw = try optionalString(key) else { return nil }
        guard let value = E(rawValue: raw) else {
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw LarderError(
                .malformedRecord, "expected one of \(allowed), found \"\(raw)\"",
                location: SourceLocation(fieldPath: path.appending(key)))
        }
        return value
    }

    /// An optional object member converted by `decode` (given the member and its path); absent or
    /// `null` means `nil`.
    /// - Throws: ``LarderError`` `malformed-record` when the member is not an object, or `decode`'s error.
    public func optionalObject<T>(_ key: String, _ decode: (Value, FieldPath) throws -> T) throws -> T? {
        guard let value = present(key) else { return nil }
        guard case .object = value else { throw Self.mismatch("an object", value, at: path.appending(key)) }
        return try decode(value, path.appending(key))
    }

    /// A list whose elements are converted by `element`; absent means empty.
    public func list<T>(_ key: String, _ element: (Value, FieldPath) throws -> T) throws -> [T] {
        guard let value = present(key) else { return [] }
        guard case .array(let array) = value else { throw Self.mismatch("a list", value, at: path.appending(key)) }
        let listPath = path.appending(key)
        var result: [T] = []
        result.reserveCapacity(array.count)
        for (index, item) in array.enumerated() {
            result.append(try element(item, listPath.appending(index: index)))
        }
        return result
    }

    /// A list of strings; absent means empty.
    public func stringList(_ key: String) throws -> [String] {
        try list(key) { value, path in
            guard case .string(let s) = value else { throw Self.mismatch("a string", value, at: path) }
            return s
        }
    }
}

/// Builds an object value member by member, leaving out absent optionals.
public struct ValueBuilder {
    /// The members so far.
    public private(set) var fields = Fields()

    /// Creates an empty builder.
    public init() {}

    /// Adds a string member (nothing when `nil`).
    public mutating func set(_ key: String, _ value: String?) {
        if let value { fields.append(key: key, value: .string(value)) }
    }
    /// Adds an integer member (nothing when `nil`).
    public mutating func set(_ key: String, _ value: Int?) {
        if let value { fields.append(key: key, value: .int(Int64(value))) }
    }
    /// Adds a number member (nothing when `nil`); integral numbers stay numbers (`15.0`).
    public mutating func set(_ key: String, _ value: Double?) {
        if let value { fields.append(key: key, value: .double(value)) }
    }
    /// Adds a boolean member.
    public mutating func set(_ key: String, _ value: Bool) {
        fields.append(key: key, value: .bool(value))
    }
    /// Adds a timestamp member (nothing when `nil`).
    public mutating func set(_ key: String, _ value: Date?) {
        if let value { fields.append(key: key, value: .string(Timestamp.format(value))) }
    }
    /// Adds a member value as it is.
    public mutating func set(_ key: String, value: Value) {
        fields.append(key: key, value: value)
    }
    /// Adds a list of strings (always, empty included).
    public mutating func set(_ key: String, _ values: [String]) {
        fields.append(key: key, value: .array(values.map(Value.string)))
    }

    /// The object.
    public var value: Value { .object(fields) }
}
