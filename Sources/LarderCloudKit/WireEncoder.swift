package import LarderCore
import LarderFormats

/// Writes CloudKit wire types as JSON bytes: the one encoder the emulator (answers, stored
/// fields) and the client (requests) share.
///
/// Each wire type writes itself through ``WireEncodable`` straight into ``bytes``, with no
/// intermediate `Value` tree, in the key order of its `Codable` conformance; optional members
/// that are nil are left out, as `encodeIfPresent` does, and the fields of a record are written
/// sorted by name, so the same record always gives the same bytes. ``WireDecoder`` reads what this
/// writes; the agreement tests hold both to the types' `Codable` round trip.
///
/// ```swift
/// let body = try WireEncoder.encode(ZonesLookupRequest(zones: [zoneID]))
/// ```
package struct WireEncoder {
    /// The JSON written so far.
    package private(set) var bytes: [UInt8]
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    /// Creates an encoder with room for `capacity` bytes.
    package init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Encodes one value as a JSON document.
    /// - Parameters:
    ///   - value: the wire value.
    ///   - capacity: the bytes to reserve up front.
    /// - Returns: the JSON bytes.
    /// - Throws: ``LarderError`` `unrepresentable` for a NaN or infinite number.
    package static func encode(_ value: some WireEncodable, capacity: Int = 1024) throws -> [UInt8] {
        var encoder = WireEncoder(capacity: capacity)
        try value.encode(to: &encoder)
        return encoder.bytes
    }

    /// Appends `value` (a member's value after ``key(_:)-(StaticString)``, or an array element).
    /// - Throws: ``LarderError`` `unrepresentable` for a NaN or infinite number.
    package mutating func encode(_ value: some WireEncodable) throws {
        try value.encode(to: &self)
    }

    // MARK: Structure

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    /// Opens an object.
    package mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Closes the object opened last.
    package mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array.
    package mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Closes the array opened last.
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes a member name from the source (it must need no escaping); its value comes next.
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member name; its value comes next.
    package mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Scalars

    /// Writes a string.
    package mutating func encode(_ text: String) {
        separate()
        appendQuoted(text)
        needsComma = true
    }

    /// Writes an integer.
    package mutating func encode(_ number: Int64) {
        separate()
        var text = String(number)
        text.withUTF8 { bytes.append(contentsOf: $0) }
        needsComma = true
    }

    /// Writes a number, as ``JSONWriter`` writes it (`description`).
    /// - Throws: ``LarderError`` `unrepresentable` for NaN or an infinity.
    package mutating func encode(_ number: Double) throws {
        guard number.isFinite else { throw LarderError(.unrepresentable, "JSON cannot hold the number \(number)") }
        separate()
        var text = number.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
        needsComma = true
    }

    /// Writes `true` or `false`.
    package mutating func encode(_ flag: Bool) {
        separate()
        append(flag ? "true" : "false")
        needsComma = true
    }

    /// Writes `null`.
    package mutating func encodeNull() {
        separate()
        append("null")
        needsComma = true
    }

    /// Writes a JSON value tree (objects in their key order).
    /// - Throws: ``LarderError`` `unrepresentable` for a NaN or infinite number.
    package mutating func encode(_ value: Value) throws {
        switch value {
        case .null: encodeNull()
        case .bool(let flag): encode(flag)
        case .int(let number): encode(number)
        case .double(let number): try encode(number)
        case .string(let text): encode(text)
        case .array(let elements):
            beginArray()
            for element in elements { try encode(element) }
            endArray()
        case .object(let fields):
            beginObject()
            for field in fields {
                key(field.key)
                try encode(field.value)
            }
            endObject()
        }
    }

    /// Writes the compact JSON text of `value` as a string (a `STRING` field holding JSON), escaped
    /// straight from the value: the bytes `encode(JSONWriter.string(value))` writes; a value JSON
    /// cannot hold (NaN) is written as the text `null`, as ``RecordMapping`` maps it.
    package mutating func encodeJSONText(_ value: Value) {
        separate()
        do {
            try JSONWriter.appendQuotedJSON(value, to: &bytes)
        } catch {
            append("\"null\"")
        }
        needsComma = true
    }

    /// Starts a value of its own: the next value or member is written without a comma before it
    /// (values written one after another into one buffer, to be spliced apart later).
    package mutating func startDetachedValue() { needsComma = false }

    /// Splices a value this encoder wrote earlier (see ``Encoded``).
    package mutating func encode(encoded json: [UInt8]) {
        json.withUnsafeBufferPointer { encode(encoded: $0) }
    }

    /// Splices a value this encoder wrote earlier, from a buffer.
    package mutating func encode(encoded json: UnsafeBufferPointer<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` quoted; strings with a quote, a backslash or a control character are
    /// escaped by ``JSONWriter``, the rest (nearly all) are copied as they are.
    private mutating func appendQuoted(_ text: String) {
        var text = text
        let isPlain = text.withUTF8 { utf8 in
            guard JSONWriter.needsNoEscape(utf8) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !isPlain { JSONWriter.appendString(text, to: &bytes) }
    }

    // MARK: Members

    /// Writes `"name":value`, or nothing when `value` is nil (`encodeIfPresent`).
    /// - Throws: ``LarderError`` `unrepresentable` for a NaN or infinite number.
    package mutating func member(_ name: StaticString, _ value: (some WireEncodable)?) throws {
        guard let value else { return }
        key(name)
        try value.encode(to: &self)
    }

    /// Member names in the order objects are written.
    package static func sortedNames(_ names: [String]) -> [String] { names.sorted() }

    /// A value already encoded by a ``WireEncoder``, spliced in as it is (the uploader encodes each
    /// operation once and reuses the bytes in retried and split batches).
    package struct Encoded: WireEncodable {
        /// The JSON of one value.
        package var json: [UInt8]

        /// Wraps JSON written by a ``WireEncoder``.
        package init(_ json: [UInt8]) { self.json = json }

        package func encode(to encoder: inout WireEncoder) { encoder.encode(encoded: json) }
    }
}

/// A CloudKit wire type that writes its JSON through a ``WireEncoder``, in the member order and
/// with the optional members of its `Codable` encoding.
package protocol WireEncodable {
    /// Writes this value.
    /// - Throws: ``LarderError`` `unrepresentable` for a NaN or infinite number.
    func encode(to encoder: inout WireEncoder) throws
}

extension WireEncodable where Self: RawRepresentable, RawValue == String {
    /// Writes the raw string, as `Codable` does for string-backed types.
    package func encode(to encoder: inout WireEncoder) { encoder.encode(rawValue) }
}

extension String: WireEncodable {
    package func encode(to encoder: inout WireEncoder) { encoder.encode(self) }
}

extension Bool: WireEncodable {
    package func encode(to encoder: inout WireEncoder) { encoder.encode(self) }
}

extension Int: WireEncodable {
    package func encode(to encoder: inout WireEncoder) { encoder.encode(Int64(self)) }
}

extension Int64: WireEncodable {
    package func encode(to encoder: inout WireEncoder) { encoder.encode(self) }
}

extension Double: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws { try encoder.encode(self) }
}

extension Value: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws { try encoder.encode(self) }
}

extension Array: WireEncodable where Element: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginArray()
        for element in self { try element.encode(to: &encoder) }
        encoder.endArray()
    }
}

extension Dictionary: WireEncodable where Key == String, Value: WireEncodable {
    /// Writes an object with the members sorted by name (record fields: the same fields always
    /// give the same bytes).
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        // Sorting the names alone (in a non-generic function, so the sort is specialised for
        // String) and looking each value up is several times cheaper than sorting (name, value)
        // pairs, which copies every value through its generic witness on each move.
        for name in WireEncoder.sortedNames(Array(keys)) {
            guard let value = self[name] else { continue }
            encoder.key(name)
            try value.encode(to: &encoder)
        }
        encoder.endObject()
    }
}

/// Typed record fields, written like any `[String: FieldValue]`: a wire `fields` object, sorted by name.
///
/// The code is specialised for them: the generic dictionary encoding looks each sorted name up
/// again through the unspecialised lookup, a twentieth of an upload client's CPU. Every upload
/// operation and every stored record is written through it.
package struct TypedFields: WireEncodable {
    /// The fields.
    package var fields: [String: FieldValue]

    /// Wraps `fields`.
    package init(_ fields: [String: FieldValue]) { self.fields = fields }

    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try fields.forEachInWritingOrder { name, value in
            encoder.key(name)
            try value.encode(to: &encoder)
        }
        encoder.endObject()
    }
}

extension Dictionary where Key == String, Value == FieldValue {
    /// Calls `body` with each member in the order objects are written: by name.
    ///
    /// Sorts positions by name, never moving or copying a value (each copy of a ``FieldValue``
    /// goes through its outlined copy, which made sorting the pairs slower than the lookups).
    package func forEachInWritingOrder(_ body: (String, FieldValue) throws -> Void) rethrows {
        let names = Array(keys)
        let values = Array(self.values)
        for position in names.indices.sorted(by: { names[$0] < names[$1] }) {
            try body(names[position], values[position])
        }
    }
}
