public import LarderCore

/// A typed CloudKit field value.
///
/// On the wire a field is `{"value": <json>, "type": "<TAG>"}` (see ``RecordField``). Timestamps
/// are milliseconds since 1970 and may be fractional; bytes stay in their base64 form; lists are
/// homogeneous and carry their element type, so an empty list keeps its tag.
public enum FieldValue: Sendable, Hashable {
    case string(String)
    case int64(Int64)
    case double(Double)
    /// Milliseconds since 1970-01-01 UTC.
    case timestamp(Double)
    /// Base64 text, as sent.
    case bytes(String)
    case reference(Reference)
    /// The asset dictionary (`fileChecksum`, `size`, `receipt`, `downloadURL`, …), kept as JSON.
    case asset(Value)
    case location(Location)
    /// A list of values of `elementType`.
    case list(elementType: FieldType, [FieldValue])

    /// The wire tag of this value (`STRING`, `INT64_LIST`, …).
    public var type: FieldType {
        switch self {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .timestamp: .timestamp
        case .bytes: .bytes
        case .reference: .reference
        case .asset: .assetID
        case .location: .location
        case .list(let elementType, _): elementType.listType
        }
    }

    /// The JSON `value` this field has on the wire.
    public var jsonValue: Value {
        switch self {
        case .string(let string): .string(string)
        case .int64(let int): .int(int)
        case .double(let double): .double(double)
        case .timestamp(let ms): ms.rounded() == ms && abs(ms) < 9e15 ? .int(Int64(ms)) : .double(ms)
        case .bytes(let base64): .string(base64)
        case .reference(let reference): reference.jsonValue
        case .asset(let asset): asset
        case .location(let location): location.jsonValue
        case .list(_, let elements): .array(elements.map(\.jsonValue))
        }
    }

    /// The wire form `{value, type}`.
    public var recordField: RecordField { RecordField(value: jsonValue, type: type) }

    /// Parses a wire value as `type`.
    ///
    /// Accepts what CloudKit accepts: integers for `DOUBLE` and `TIMESTAMP`, fractional milliseconds
    /// for `TIMESTAMP`, numeric strings for `INT64` (`numbersAsStrings`), booleans for `INT64` (0/1).
    /// - Throws: ``FieldValueError`` naming what was expected and what was found.
    public init(value: Value, type: FieldType) throws(FieldValueError) {
        let type = type.canonical
        guard type.isKnown else { throw FieldValueError("unknown field type \(type.rawValue)") }
        if type.isList {
            guard case .array(let elements) = value else {
                throw FieldValueError("expected a list for \(type.rawValue), found \(value.kindDescription)")
            }
            var parsed: [FieldValue] = []
            parsed.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                do {
                    parsed.append(try FieldValue(value: element, type: type.elementType))
                } catch {
                    throw FieldValueError("[\(index)]: \(error.message)")
                }
            }
            self = .list(elementType: type.elementType, parsed)
            return
        }
        switch (type, value) {
        case (.string, .string(let string)): self = .string(string)
        case (.int64, .int(let int)): self = .int64(int)
        case (.int64, .bool(let bool)): self = .int64(bool ? 1 : 0)
        case (.int64, .string(let text)):
            guard let int = Int64(text) else {
                throw FieldValueError("expected an integer for INT64, found \"\(text)\"")
            }
            self = .int64(int)
        case (.int64, .double(let double)):
            guard double.rounded() == double, let int = Int64(exactly: double) else {
                throw FieldValueError("expected an integer for INT64, found \(double)")
            }
            self = .int64(int)
        case (.double, .int(let int)): self = .double(Double(int))
        case (.double, .double(let double)): self = .double(double)
        case (.double, .string(let text)):
            guard let double = Double(text) else {
                throw FieldValueError("expected a number for DOUBLE, found \"\(text)\"")
            }
            self = .double(double)
        case (.timestamp, .int(let int)): self = .timestamp(Double(int))
        case (.timestamp, .double(let double)) where double.isFinite: self = .timestamp(double)
        case (.bytes, .string(let base64)):
            guard Base64.isValid(base64) else { throw FieldValueError("expected base64 text for BYTES") }
            self = .bytes(base64)
        case (.reference, .object):
            self = .reference(try Reference(value: value))
        case (.assetID, .object): self = .asset(value)
        case (.location, .object):
            self = .location(try Location(value: value))
        default:
            throw FieldValueError(
                "expected \(FieldValue.expectation(for: type)) for \(type.rawValue), found \(value.kindDescription)")
        }
    }

    private static func expectation(for type: FieldType) -> String {
        switch type {
        case .string, .bytes: "a string"
        case .int64: "an integer"
        case .double, .timestamp: "a number"
        default: "an object"
        }
    }

    /// The type a wire value would have if it came without a tag, or nil when it cannot be told
    /// (an empty list, `null`).
    public static func inferredType(of value: Value) -> FieldType? {
        switch value {
        case .string: .string
        case .int, .bool: .int64
        case .double: .double
        case .object(let fields):
            if fields.contains(key: "recordName") {
                .reference
            } else if fields.contains(key: "latitude") && fields.contains(key: "longitude") {
                .location
            } else if fields.contains(key: "fileChecksum") || fields.contains(key: "receipt")
                || fields.contains(key: "downloadURL")
            {
                .assetID
            } else {
                nil
            }
        case .array(let elements):
            elements.first.flatMap(inferredType(of:))?.listType
        case .null: nil
        }
    }
}

/// Why a wire value does not fit its field type.
public struct FieldValueError: Error, Sendable, CustomStringConvertible {
    /// What was expected and what was found.
    public var message: String

    /// Creates an error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Base64 validation without decoding into a buffer.
enum Base64 {
    static func isValid(_ text: String) -> Bool {
        var count = 0
        var padding = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                if padding > 0 { return false }
            case UInt8(ascii: "="):
                padding += 1
                if padding > 2 { return false }
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            default:
                return false
            }
            count += 1
        }
        return padding == 0 || count % 4 == 0
    }
}
