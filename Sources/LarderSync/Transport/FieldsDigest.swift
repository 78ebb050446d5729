import Foundation
public import LarderCloudKit

/// A short, stable digest of a record's type and fields, to tell whether the server already
/// holds exactly what an upload would write.
///
/// Fields are compared by value as CloudKit types them: the order of fields, `200` versus
/// `200.0` in a `DOUBLE`, and how the server spells a timestamp do not matter; an asset counts by
/// its `fileChecksum` alone.
///
/// **Definition (version 2).** The first 16 bytes of the SHA-256 of the record type, `1E`, and
/// the fields as the wire `fields` object an upload sends (``TypedFields``: sorted by name, each
/// `{"value":…,"type":"…"}`), with each asset reduced to `{"fileChecksum":…}`, in hex. The
/// uploader maps a record straight into those bytes (``RecordMapping/encodedFields(of:type:extra:)``),
/// so the digest costs one hash. Journals record the version; ``legacy(recordType:fields:)`` is
/// version 1, for journals written by earlier builds.
public enum FieldsDigest {
    /// The definition ``make(recordType:fields:)`` computes (upload journals record it).
    public static let version = 2

    /// The digest of typed fields (32 hex digits, from SHA-256).
    public static func make(recordType: String, fields: [String: FieldValue]) -> String {
        make(recordType: recordType, encodedFields: encode(canonical(fields)))
    }

    /// The digest of fields already encoded as the wire `fields` object (holding no asset but
    /// checksum-only ones): the bytes ``RecordMapping/encodedFields(of:type:extra:)`` writes.
    package static func make(recordType: String, encodedFields: [UInt8]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(recordType.utf8.count + 1 + encodedFields.count)
        bytes.append(contentsOf: recordType.utf8)
        bytes.append(0x1E)
        bytes.append(contentsOf: encodedFields)
        return hex(AssetDigest.sha256(bytes))
    }

    /// The digest of `fields` whose encoding is `encoded` (saves encoding them again when they hold no asset).
    package static func make(recordType: String, fields: [String: FieldValue], encoded: [UInt8]) -> String {
        guard fields.values.contains(where: \.holdsAsset) else {
            return make(recordType: recordType, encodedFields: encoded)
        }
        return make(recordType: recordType, fields: fields)
    }

    /// The wire `fields` object of `fields`.
    package static func encode(_ fields: [String: FieldValue]) -> [UInt8] {
        // Fields from a mapping or a server's answer hold finite numbers only; a NaN gets a digest of its own.
        (try? WireEncoder.encode(TypedFields(fields), capacity: 1024)) ?? Array("\u{0}unencodable".utf8)
    }

    /// `fields` with every asset reduced to its checksum.
    private static func canonical(_ fields: [String: FieldValue]) -> [String: FieldValue] {
        guard fields.values.contains(where: \.holdsAsset) else { return fields }
        return fields.mapValues(\.checksumOnly)
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

    /// The version 1 digest of typed fields, which journals of earlier builds hold.
    ///
    /// The hashed text is built as bytes: the record type, then per field in name order
    /// `1E name 1F` and the value's tagged text. A test pins them.
    public static func legacy(recordType: String, fields: [String: FieldValue]) -> String {
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

extension FieldValue {
    /// Whether this is an asset or a list of them.
    fileprivate var holdsAsset: Bool {
        switch self {
        case .asset: true
        case .list(let elementType, _): elementType == .assetID
        default: false
        }
    }

    /// This value with every asset reduced to `{"fileChecksum":…}` (the digest's view of an asset).
    fileprivate var checksumOnly: FieldValue {
        switch self {
        case .asset(let asset):
            .asset(Asset(fileChecksum: (try? Asset(value: asset))?.fileChecksum ?? "?").jsonValue)
        case .list(let elementType, let elements) where elementType == .assetID:
            .list(elementType: elementType, elements.map(\.checksumOnly))
        default: self
        }
    }
}
