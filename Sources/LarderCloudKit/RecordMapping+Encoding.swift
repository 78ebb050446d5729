package import LarderCore
import LarderFormats

extension RecordMapping {
    /// The CloudKit fields of `record`, written as the wire `fields` object: byte for byte what
    /// ``fields(of:type:)`` (with `extra` added) encodes to through ``TypedFields``, fields sorted
    /// by name, but without the dictionary in between, and with each member holding JSON escaped
    /// straight from its value (no `String` of its JSON).
    ///
    /// The uploader sends these bytes and takes its fields digest over them, so a record is mapped
    /// into one representation only. O(n) in the record's size, plus sorting its member names.
    /// - Parameters:
    ///   - record: The Larder record, an object.
    ///   - type: the record's type, whose shape settles ambiguous kinds (nil: no shape).
    ///   - extra: fields added to the record's own (the uploader's images field); their names must be
    ///     valid field names that no member maps to.
    /// - Returns: The JSON object `{"name":{"value":…,"type":"…"},…}`.
    /// - Throws: ``MappingError`` as ``fields(of:type:)`` throws it, for the same member.
    package func encodedFields(
        of record: Value, type: RecordType?, extra: [(name: String, value: FieldValue)] = []
    ) throws(MappingError) -> [UInt8] {
        guard case .object(let members) = record else {
            throw MappingError(path: "", "a record must be an object, found \(record.kindDescription)")
        }
        let shape = type?.shape ?? .any
        // Each field's value is written into `values` in member order (so errors come in the order
        // the dictionary path gives them), then spliced into the object in name order.
        var values = WireEncoder(capacity: 4096)
        var spans: [(name: String, range: Range<Int>)] = []
        spans.reserveCapacity(members.count + extra.count + 1)
        func write(_ name: String, _ body: (inout WireEncoder) -> Void) {
            let start = values.bytes.count
            values.startDetachedValue()
            body(&values)
            spans.append((name, start..<values.bytes.count))
        }
        var hints: [(String, String)] = []
        for member in members {
            let key = member.key
            guard try Self.isMapped(key) else { continue }
            let (field, hint) = try map(member.value, key: key, shape: shape.member(key))
            switch field {
            // Every number here is finite (`map` refuses NaN), so writing cannot fail.
            case .value(let value)?: write(key) { try? value.encode(to: &$0) }
            case .json(let value)?: write(key) { $0.encodeJSONStringField(value) }
            case nil: break
            }
            if let hint { hints.append((key, hint)) }
        }
        if !hints.isEmpty { write(Self.hintsField) { $0.encodeJSONStringField(Self.hintsObject(hints)) } }
        for (name, value) in extra { write(name) { try? value.encode(to: &$0) } }
        spans.sort { $0.name < $1.name }
        var object = WireEncoder(capacity: values.bytes.count + spans.count * 24 + 2)
        object.beginObject()
        values.bytes.withUnsafeBufferPointer { written in
            for span in spans {
                object.key(span.name)
                object.encode(encoded: UnsafeBufferPointer(rebasing: written[span.range]))
            }
        }
        object.endObject()
        return object.bytes
    }
}

extension WireEncoder {
    /// Writes `{"value":"<compact JSON of value>","type":"STRING"}`: the field
    /// `FieldValue.string(RecordMapping.compactJSON(value))` encodes to.
    fileprivate mutating func encodeJSONStringField(_ value: Value) {
        beginObject()
        key("value")
        encodeJSONText(value)
        key("type")
        encode(FieldType.string.rawValue)
        endObject()
    }
}

extension TypedFields {
    /// The typed fields a ``WireEncoder`` wrote as a wire `fields` object (``TypedFields`` or
    /// ``RecordMapping/encodedFields(of:type:extra:)``): the inverse of writing them.
    ///
    /// Only bytes this module wrote are read here, so bytes that do not decode are a programmer error.
    package static func decodeWritten(_ bytes: [UInt8]) -> [String: FieldValue] {
        let json = bytes.withUnsafeBytes { try? JSONScanner.parseDocument($0, name: "fields") }
        guard let json, let wire = RecordField.fastFields(json) else {
            preconditionFailure("encoded fields that do not decode: \(String(decoding: bytes, as: UTF8.self))")
        }
        var fields: [String: FieldValue] = [:]
        fields.reserveCapacity(wire.count)
        for (name, field) in wire {
            guard let type = field.type, let value = try? FieldValue(value: field.value, type: type) else {
                preconditionFailure("encoded field \(name) does not decode")
            }
            fields[name] = value
        }
        return fields
    }
}
