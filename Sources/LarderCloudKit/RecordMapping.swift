import Foundation
public import LarderCore
import LarderFormats

/// Maps Larder records to CloudKit records and back, losslessly.
///
/// **Record.** `recordType` is the Larder type (`recipe`, `brewRecipe`, `brewLog`);
/// `recordName` is the record's own `recordName` member when it has one, else `TYPE-ID`
/// (as ``LarderRecord/recordName`` and the store derive it), else, for an id that is not
/// printable ASCII or too long, `TYPE-h` followed by 32 hex digits of the id's SHA-256. The
/// same record therefore always gets the same name, so uploading it twice updates instead of
/// duplicating.
///
/// **Fields.** Every top-level member becomes a field of the same name, except `changeTag`
/// (the client's note of the server's version, which travels as `recordChangeTag`):
///
/// | member | CloudKit field |
/// |---|---|
/// | string | `STRING`; in a member whose name ends in `At` and that holds an RFC 3339 date-time, `TIMESTAMP` (milliseconds) |
/// | integer | `INT64` (`DOUBLE` where the type's shape says the member is any number) |
/// | number | `DOUBLE` |
/// | boolean | `INT64` 0 / 1 (CloudKit has no boolean) |
/// | list of strings / integers / numbers / booleans | `STRING_LIST` / `INT64_LIST` / `DOUBLE_LIST` / `INT64_LIST` |
/// | empty list | the list type the shape gives its elements (`STRING_LIST` when unknown) |
/// | object, list of objects or lists, mixed list | `STRING` holding compact JSON |
/// | null | no field |
///
/// **Back.** A field is read back by its CloudKit type and the record type's ``Shape``:
/// `TIMESTAMP` becomes the UTC date-time text, `INT64` a boolean where the shape says boolean,
/// a `STRING` is parsed as JSON where the shape says object or list of objects. Where the
/// type and shape cannot tell (a boolean the shape does not know, JSON in a member the shape
/// calls text, a null, a date written with an offset), the record carries one extra `STRING`
/// field, `larderTypes`, a JSON object naming each such member's original kind. So
/// download(upload(record)) gives the same members with the same values; only their order
/// follows CloudKit's (the id first, then by name).
///
/// It lives here, beside the wire types, because both sides read it: LarderSync uploads and downloads
/// with it, and the emulator's dashboard exports a zone as the Larder JSON `larder` reads.
public struct RecordMapping: Sendable {
    /// The field that records kinds the CloudKit types cannot tell apart.
    public static let hintsField = "larderTypes"
    /// The field the uploader keeps a record's image files in (not a member of the record).
    public static let imagesField = "larderImages"
    /// Members that are not uploaded as fields.
    public static let excludedMembers: Set<String> = ["changeTag"]
    /// ``excludedMembers`` as a list.
    private static let excludedList = Array(excludedMembers)

    /// Creates the mapping.
    public init() {}

    // MARK: Names

    /// The record name of `record` of `type`: its `recordName` member, else `TYPE-ID`, else a
    /// hashed name for ids CloudKit cannot carry in a name.
    /// - Throws: ``MappingError`` when the record has no string id or an invalid `recordName`.
    public static func recordName(for record: Value, type: String) throws(MappingError) -> String {
        if let explicit = record["recordName"] {
            guard let name = explicit.stringValue, isValidRecordName(name) else {
                throw MappingError(
                    path: "recordName",
                    "\(explicit.snippet) is not a valid CloudKit record name (1-255 printable ASCII)")
            }
            return name
        }
        let id: String
        switch record["id"] {
        case .string(let text)?: id = text
        case .int(let number)?: id = String(number)
        default: throw MappingError(path: "id", "a record needs an id (a string) to get a record name")
        }
        return derivedRecordName(type: type, id: id)
    }

    /// `TYPE-ID`, or `TYPE-h<32 hex>` when that is not a valid record name.
    public static func derivedRecordName(type: String, id: String) -> String {
        let plain = "\(type)-\(id)"
        if isValidRecordName(plain) { return plain }
        let digest = AssetDigest.sha256(Data(id.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return "\(type)-h\(digest)"
    }

    /// Whether `name` is 1-255 printable ASCII characters.
    public static func isValidRecordName(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= 255 && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Whether `name` can be a CloudKit field name: a letter, then letters, digits and `_`, at most 255.
    public static func isValidFieldName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= 255, isLetter(first) else { return false }
        return bytes.allSatisfy { isLetter($0) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) }

    // MARK: To CloudKit

    /// The CloudKit fields of `record`.
    /// - Parameters:
    ///   - record: The Larder record, an object.
    ///   - type: the record's type, whose shape settles ambiguous kinds (nil: no shape).
    /// - Returns: One CloudKit field per member, with the hints field when a kind needs one.
    /// - Throws: ``MappingError`` naming the member: not an object, an invalid field name, a
    ///   member named like the hints field, a value CloudKit cannot hold (NaN).
    public func fields(of record: Value, type: RecordType?) throws(MappingError) -> [String: FieldValue] {
        guard case .object(let members) = record else {
            throw MappingError(path: "", "a record must be an object, found \(record.kindDescription)")
        }
        let shape = type?.shape ?? .any
        var fields: [String: FieldValue] = [:]
        fields.reserveCapacity(members.count + 1)
        var hints: [(String, String)] = []
        for member in members {
            let key = member.key
            guard try Self.isMapped(key) else { continue }
            let (field, hint) = try map(member.value, key: key, shape: shape.member(key))
            switch field {
            case .value(let value)?: fields[key] = value
            case .json(let value)?: fields[key] = .string(Self.compactJSON(value))
            case nil: break
            }
            if let hint { hints.append((key, hint)) }
        }
        if !hints.isEmpty { fields[Self.hintsField] = .string(Self.compactJSON(Self.hintsObject(hints))) }
        return fields
    }

    /// Whether member `key` is mapped (it is not excluded), after checking that its name is neither
    /// reserved nor invalid as a field name.
    /// - Throws: ``MappingError`` for a reserved or invalid name.
    static func isMapped(_ key: String) throws(MappingError) -> Bool {
        // A comparison per excluded name: hashing every member's name cost more than the set saves.
        if excludedList.contains(key) { return false }
        guard key != hintsField, key != imagesField else {
            throw MappingError(path: key, "the member name \(key) is reserved for the upload")
        }
        guard isValidFieldName(key) else {
            throw MappingError(
                path: key, "\"\(key)\" is not a valid CloudKit field name (a letter, then letters, digits or _)")
        }
        return true
    }

    /// The hints field's object: each hinted member's original kind, in member order.
    static func hintsObject(_ hints: [(String, String)]) -> Value {
        var object = Fields()
        for (key, hint) in hints { object.append(key: key, value: .string(hint)) }
        return .object(object)
    }

    /// A member as CloudKit holds it: a typed value, or a value written as compact JSON in a `STRING`.
    enum Mapped {
        case value(FieldValue)
        case json(Value)
    }

    /// Maps one member: its field (nil for null) and the hint its kind needs, if any.
    func map(_ value: Value, key: String, shape: Shape) throws(MappingError) -> (Mapped?, String?) {
        let impliesJSON = Self.impliesJSON(shape)
        switch value {
        case .null:
            return (nil, "null")
        case .bool(let flag):
            return (.value(.int64(flag ? 1 : 0)), shape == .boolean ? nil : "bool")
        case .int(let number):
            if shape == .number { return (.value(.double(Double(number))), "int") }
            return (.value(.int64(number)), shape == .boolean ? "int" : nil)
        case .double(let number):
            guard number.isFinite else { throw MappingError(path: key, "\(number) cannot be stored in CloudKit") }
            return (.value(.double(number)), nil)
        case .string(let text):
            if key.hasSuffix("At"), let date = Timestamp.parse(text) {
                let ms = (date.timeIntervalSince1970 * 1000).rounded()
                return (.value(.timestamp(ms)), Timestamp.format(date) == text ? nil : "text:" + text)
            }
            return (.value(.string(text)), impliesJSON ? "text" : nil)
        case .array(let elements):
            if elements.isEmpty {
                if impliesJSON { return (.value(.string("[]")), nil) }
                let elementType: FieldType =
                    switch shape {
                    case .list(.integer), .list(.boolean): .int64
                    case .list(.number): .double
                    default: .string
                    }
                return (.value(.list(elementType: elementType, [])), nil)
            }
            if let (list, hint) = Self.homogeneousList(elements, shape: shape) { return (.value(list), hint) }
            return (.json(value), impliesJSON ? nil : "json")
        case .object:
            return (.json(value), impliesJSON ? nil : "json")
        }
    }

    /// A typed list for lists of one scalar kind, with its hint; nil for anything else.
    private static func homogeneousList(_ elements: [Value], shape: Shape) -> (FieldValue, String?)? {
        switch elements[0] {
        case .string:
            var strings: [FieldValue] = []
            strings.reserveCapacity(elements.count)
            for element in elements {
                guard case .string(let text) = element else { return nil }
                strings.append(.string(text))
            }
            return (.list(elementType: .string, strings), nil)
        case .bool:
            var flags: [FieldValue] = []
            for element in elements {
                guard case .bool(let flag) = element else { return nil }
                flags.append(.int64(flag ? 1 : 0))
            }
            return (.list(elementType: .int64, flags), shape == .list(.boolean) ? nil : "bool")
        case .int:
            var ints: [Int64] = []
            for element in elements {
                guard case .int(let number) = element else { return nil }
                ints.append(number)
            }
            if shape == .list(.number) { return (.list(elementType: .double, ints.map { .double(Double($0)) }), "int") }
            return (.list(elementType: .int64, ints.map { .int64($0) }), shape == .list(.boolean) ? "int" : nil)
        case .double:
            var doubles: [FieldValue] = []
            for element in elements {
                guard case .double(let number) = element, number.isFinite else { return nil }
                doubles.append(.double(number))
            }
            return (.list(elementType: .double, doubles), nil)
        default:
            return nil
        }
    }

    /// Whether a `STRING` field of this shape holds JSON.
    package static func impliesJSON(_ shape: Shape) -> Bool {
        switch shape {
        case .object: true
        case .list(let element):
            switch element {
            case .object, .list: true
            default: false
            }
        default: false
        }
    }

    // MARK: From CloudKit

    /// The Larder record a CloudKit record holds: the inverse of ``fields(of:type:)``.
    /// - Parameters:
    ///   - record: The CloudKit record.
    ///   - type: the record type (nil: from `record.recordType`, no shape when unknown).
    /// - Returns: The Larder record, an object.
    /// - Throws: ``MappingError`` naming the field whose value does not fit its type or hint.
    public func value(of record: Record, type: RecordType? = nil) throws(MappingError) -> Value {
        let type = type ?? record.recordType.flatMap(RecordType.init(rawValue:))
        let shape = type?.shape ?? .any
        let wire = record.fields ?? [:]
        var hints: [String: String] = [:]
        if let hintText = wire[Self.hintsField]?.value.stringValue {
            guard case .object(let object)? = try? Self.parseJSON(hintText) else {
                throw MappingError(path: Self.hintsField, "the type hints are not a JSON object")
            }
            for member in object { if let hint = member.value.stringValue { hints[member.key] = hint } }
        }
        var members: [Field] = []
        members.reserveCapacity(wire.count + hints.count)
        for (key, field) in wire where key != Self.hintsField && key != Self.imagesField {
            members.append(
                Field(key: key, value: try decode(field, key: key, shape: shape.member(key), hint: hints[key])))
        }
        for (key, hint) in hints where hint == "null" && wire[key] == nil {
            members.append(Field(key: key, value: .null))
        }
        members.sort { lhs, rhs in
            if lhs.key == "id" || rhs.key == "id" { return lhs.key == "id" && rhs.key != "id" }
            return lhs.key < rhs.key
        }
        return .object(Fields(uncheckedUniqueElements: members))
    }

    private func decode(_ field: RecordField, key: String, shape: Shape, hint: String?) throws(MappingError) -> Value {
        guard let type = field.type ?? FieldValue.inferredType(of: field.value) else {
            return field.value
        }
        let typed: FieldValue
        do {
            typed = try FieldValue(value: field.value, type: type)
        } catch {
            throw MappingError(path: key, error.message)
        }
        if let hint, hint.hasPrefix("text:"), case .timestamp = typed { return .string(String(hint.dropFirst(5))) }
        switch typed {
        case .string(let text):
            let isJSON = hint == "json" || (Self.impliesJSON(shape) && hint != "text")
            guard isJSON else { return .string(text) }
            do {
                return try Self.parseJSON(text)
            } catch {
                throw MappingError(path: key, "holds JSON that does not parse: \(error)")
            }
        case .int64(let number):
            if hint == "bool" || (shape == .boolean && hint != "int") { return .bool(number != 0) }
            return .int(number)
        case .double(let number):
            if hint == "int", let exact = Int64(exactly: number) { return .int(exact) }
            return .double(number)
        case .timestamp(let ms):
            return .string(Timestamp.format(Date(timeIntervalSince1970: ms / 1000)))
        case .list(_, let elements):
            let elementShape: Shape = if case .list(let inner) = shape { inner } else { .any }
            return .array(
                elements.map { element in
                    switch element {
                    case .string(let text): return .string(text)
                    case .int64(let number):
                        if hint == "bool" || (elementShape == .boolean && hint != "int") { return .bool(number != 0) }
                        return .int(number)
                    case .double(let number):
                        if hint == "int", let exact = Int64(exactly: number) { return .int(exact) }
                        return .double(number)
                    case .timestamp(let ms): return .string(Timestamp.format(Date(timeIntervalSince1970: ms / 1000)))
                    default: return element.jsonValue
                    }
                })
        default:
            return typed.jsonValue
        }
    }

    // MARK: JSON helpers

    /// Compact JSON text of a value (the project's writer: numbers keep their kind).
    package static func compactJSON(_ value: Value) -> String {
        (try? JSONWriter.string(value)) ?? "null"
    }

    /// Parses one JSON value of any kind with the project's reader.
    package static func parseJSON(_ text: String) throws -> Value {
        var bytes = Array("{\"v\":".utf8)
        bytes.append(contentsOf: text.utf8)
        bytes.append(contentsOf: "}\n".utf8)
        let reader = JSONReader(source: MemoryByteSource(bytes, name: "field"), lineMode: true)
        guard let item = try reader.next(), let value = item.value["v"], try reader.next() == nil else {
            throw LarderError(.syntax, "not one JSON value")
        }
        return value
    }
}

/// A record that cannot be mapped to CloudKit (or back): which member, and why.
public struct MappingError: Error, Sendable, CustomStringConvertible {
    /// The member (field) path, empty for the whole record.
    public var path: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
