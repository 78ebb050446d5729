package import LarderCore

/// A compact binary encoding of ``Value`` for the dedupe spill file.
///
/// A tag byte, then LEB128 lengths, zigzag integers and raw IEEE doubles. Encoding and decoding
/// are a single pass each, without any of JSON's escaping or number parsing.
package enum ValueBinaryCoding {
    private enum Tag: UInt8 {
        case null = 0
        case falseValue
        case trueValue
        case int
        case double
        case string
        case array
        case object
    }

    /// Appends the encoding of `value` to `out`.
    package static func encode(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(Tag.null.rawValue)
        case .bool(let b): out.append(b ? Tag.trueValue.rawValue : Tag.falseValue.rawValue)
        case .int(let i):
            out.append(Tag.int.rawValue)
            appendVarint(UInt64(bitPattern: (i << 1) ^ (i >> 63)), to: &out)
        case .double(let d):
            out.append(Tag.double.rawValue)
            var bits = d.bitPattern.littleEndian
            withUnsafeBytes(of: &bits) { out.append(contentsOf: $0) }
        case .string(let s):
            out.append(Tag.string.rawValue)
            appendString(s, to: &out)
        case .array(let elements):
            out.append(Tag.array.rawValue)
            appendVarint(UInt64(elements.count), to: &out)
            for element in elements { encode(element, into: &out) }
        case .object(let fields):
            out.append(Tag.object.rawValue)
            appendVarint(UInt64(fields.count), to: &out)
            for field in fields {
                appendString(field.key, to: &out)
                encode(field.value, into: &out)
            }
        }
    }

    private static func appendString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            appendVarint(UInt64(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        }
    }

    @inline(__always)
    private static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Decodes one value from `bytes`.
    /// - Throws: ``LarderError`` `io-error` when the bytes are truncated or corrupt (a damaged
    ///   spill file).
    package static func decode(_ bytes: UnsafeRawBufferPointer) throws -> Value {
        var cursor = Cursor(bytes: bytes)
        let value = try cursor.value(depth: 0)
        guard cursor.offset == bytes.count else { throw Cursor.corrupt }
        return value
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        static let corrupt = LarderError(.io, "the dedupe spill file is damaged (truncated or overwritten)")

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw Self.corrupt }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = try byte()
                result |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return result }
                shift += 7
                guard shift < 64 else { throw Self.corrupt }
            }
        }

        mutating func string() throws -> String {
            let count = Int(try varint())
            guard count <= bytes.count - offset else { throw Self.corrupt }
            defer { offset += count }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
        }

        mutating func value(depth: Int) throws -> Value {
            guard depth < 512, let tag = Tag(rawValue: try byte()) else { throw Self.corrupt }
            switch tag {
            case .null: return .null
            case .falseValue: return .bool(false)
            case .trueValue: return .bool(true)
            case .int:
                let z = try varint()
                return .int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
            case .double:
                guard offset + 8 <= bytes.count else { throw Self.corrupt }
                let bits = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
                return .double(Double(bitPattern: UInt64(littleEndian: bits)))
            case .string:
                return .string(try string())
            case .array:
                let count = Int(try varint())
                guard count <= bytes.count - offset else { throw Self.corrupt }
                var elements: [Value] = []
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
                return .array(elements)
            case .object:
                let count = Int(try varint())
                guard count <= bytes.count - offset else { throw Self.corrupt }
                var fields: [Field] = []
                fields.reserveCapacity(count)
                for _ in 0..<count {
                    let key = try string()
                    fields.append(Field(key: key, value: try value(depth: depth + 1)))
                }
                return .object(Fields(uncheckedUniqueElements: fields))
            }
        }
    }
}
