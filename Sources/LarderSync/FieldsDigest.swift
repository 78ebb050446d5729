import Crypto
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
    public static func make(recordType: String, fields: [String: FieldValue]) -> String {
        var text = recordType
        for key in fields.keys.sorted() {
            text += "\u{1E}" + key + "\u{1F}"
            if let value = fields[key] { append(value, to: &text) }
        }
        return hex(SHA256.hash(data: Data(text.utf8)))
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

    private static func append(_ value: FieldValue, to text: inout String) {
        switch value {
        case .string(let string): text += "s\(string.utf8.count):" + string
        case .int64(let int): text += "i\(int)"
        case .double(let double): text += "d\(double)"
        case .timestamp(let ms): text += "t\(ms)"
        case .bytes(let base64): text += "b" + base64
        case .list(let elementType, let elements):
            text += "[\(elementType.rawValue):\(elements.count)"
            for element in elements {
                text += ","
                append(element, to: &text)
            }
            text += "]"
        case .asset(let asset):
            // An asset is its bytes: the receipt, download URL and keys differ between a write and its answer.
            text += "a" + ((try? Asset(value: asset))?.fileChecksum ?? "?")
        default: text += "j\(value.jsonValue)"
        }
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
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
