public import LarderCore

/// The value of an `ASSETID` field: CloudKit's asset dictionary.
///
/// After an upload the client puts `fileChecksum`, `size`, `receipt` (and, where the server gave
/// them, `wrappingKey` and `referenceChecksum`) in the field; records come back with
/// `fileChecksum`, `size` and a `downloadURL` (WSREF/Types "Asset Dictionary"). Every key is optional
/// on the wire; the server decides which combinations it accepts.
public struct Asset: Sendable, Hashable {
    /// The server's identity of the bytes (the emulator: base64 SHA-256).
    public var fileChecksum: String?
    /// Bytes in the file.
    public var size: Int64?
    /// The upload's receipt, sent back when saving the record.
    public var receipt: String?
    /// The wrapping key of an encrypted asset (private database).
    public var wrappingKey: String?
    /// The checksum of the wrapping key (private database).
    public var referenceChecksum: String?
    /// Where the bytes can be fetched (responses only).
    public var downloadURL: String?

    /// Creates an asset dictionary.
    public init(
        fileChecksum: String? = nil, size: Int64? = nil, receipt: String? = nil, wrappingKey: String? = nil,
        referenceChecksum: String? = nil, downloadURL: String? = nil
    ) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.receipt = receipt
        self.wrappingKey = wrappingKey
        self.referenceChecksum = referenceChecksum
        self.downloadURL = downloadURL
    }

    /// Reads an asset dictionary.
    /// - Throws: ``FieldValueError`` when `value` is not an object or a key has the wrong kind.
    public init(value: Value) throws(FieldValueError) {
        guard let fields = value.objectValue else {
            throw FieldValueError("expected an asset dictionary, found \(value.kindDescription)")
        }
        func text(_ key: String) throws(FieldValueError) -> String? {
            switch fields[key] {
            case nil, .null?: return nil
            case .string(let string)?: return string
            case let other?: throw FieldValueError("asset \(key): expected a string, found \(other.kindDescription)")
            }
        }
        fileChecksum = try text("fileChecksum")
        receipt = try text("receipt")
        wrappingKey = try text("wrappingKey")
        referenceChecksum = try text("referenceChecksum")
        downloadURL = try text("downloadURL")
        switch fields["size"] {
        case nil, .null?: size = nil
        case .int(let int)?: size = int
        case .string(let string)?:
            guard let int = Int64(string) else { throw FieldValueError("asset size: expected an integer") }
            size = int
        case let other?: throw FieldValueError("asset size: expected an integer, found \(other.kindDescription)")
        }
    }

    /// The wire dictionary, keys in Apple's order, absent keys left out.
    public var jsonValue: Value {
        var fields = Fields()
        if let fileChecksum { fields.append(key: "fileChecksum", value: .string(fileChecksum)) }
        if let size { fields.append(key: "size", value: .int(size)) }
        if let receipt { fields.append(key: "receipt", value: .string(receipt)) }
        if let wrappingKey { fields.append(key: "wrappingKey", value: .string(wrappingKey)) }
        if let referenceChecksum { fields.append(key: "referenceChecksum", value: .string(referenceChecksum)) }
        if let downloadURL { fields.append(key: "downloadURL", value: .string(downloadURL)) }
        return .object(fields)
    }
}

extension Asset: Codable {
    public init(from decoder: any Decoder) throws {
        do {
            try self.init(value: try Value(from: decoder))
        } catch let error as FieldValueError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws { try jsonValue.encode(to: encoder) }
}

extension Asset: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws { try jsonValue.encode(to: &encoder) }
}
