import Foundation
public import LarderCloudKit

/// A short, stable digest of a record's type and fields, to tell whether the server already
/// holds exactly what an upload would write.
///
/// Fields are compared by value as CloudKit types them: the order of fields, `200` versus
/// `200.0` in a `DOUBLE`, and how the server spells a timestamp do not matter; an asset counts by
/// its `fileChecksum` alone.
public enum FieldsDigest {
    /// The digest of typed fields (32 hex digits, from SHA-256).
    ///
    /// The hashed text is built as bytes (no `String` growing member by member): the record type,
    /// then per field in name order `1E name 1F` and the value's tagged text. Those bytes are the
    /// digest's definition; a test pins them, as journals written by earlier builds hold digests.
    public static func make(recordType: String, fields: [String: FieldValue]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        bytes.append(contentsOf: recordType.utf8)
        fields.forEachInWritingOrder { key, value in
            bytes.append(0x1E)
            bytes.append(contentsOf: key.utf8)
            bytes.append(0x1F)
            append(value, to: &bytes)
        }
        return hex(AssetDigest.sha256(bytes))
    }

    /// The digest of wire fields (a server's answer); fields whose value does not fit their
    /// type count by their raw JSON.
    public static func make(recordType: String, wireFields: [String: RecordField]) -> String {
        var typed: [String: FieldValue] = [:]
        for (key, field) in wireFields {
            guard let type = field.type ?? FieldValue.inferredType(of: field.value),
                let value = try? FieldValue(value: field.value, type: type)
            else {
                typed[key] = .string("\u{0}raw:\(field.value)")
                continue
            }
            typed[key] = value
        }
        return make(recordType: recordType, fields: typed)
    }

    private static func append(_ value: FieldValue, to bytes: inout [UInt8]) {
        switch value {
        case .string(let string):
            bytes.append(UInt8(ascii: "s"))
            bytes.append(contentsOf: String(string.utf8.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: string.utf8)
        case .int64(let int):
            bytes.append(UInt8(ascii: "i"))
            bytes.append(contentsOf: String(int).utf8)
        case .double(let double):
            bytes.append(UInt8(ascii: "d"))
            bytes.append(contentsOf: double.description.utf8)
        case .timestamp(let ms):
            bytes.append(UInt8(ascii: "t"))
            bytes.append(contentsOf: ms.description.utf8)
        case .bytes(let base64):
            bytes.append(UInt8(ascii: "b"))
            bytes.append(contentsOf: base64.utf8)
        case .list(let elementType, let elements):
            bytes.append(UInt8(ascii: "["))
            bytes.append(contentsOf: elementType.rawValue.utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: String(elements.count).utf8)
            for element in elements {
                bytes.append(UInt8(ascii: ","))
                append(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .asset(let asset):
            // An asset is its bytes: the receipt, download URL and keys differ between a write and its answer.
            bytes.append(UInt8(ascii: "a"))
            bytes.append(contentsOf: ((try? Asset(value: asset))?.fileChecksum ?? "?").utf8)
        default: bytes.append(contentsOf: "j\(value.jsonValue)".utf8)
        }
    }

    private static func hex(_ digest: Data) -> String {
        var text = ""
        text.reserveCapacity(32)
        for byte in digest.prefix(16) {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0xF)])
        }
        return text
    }

    private static let hexDigits = Array("0123456789abcdef")
}
