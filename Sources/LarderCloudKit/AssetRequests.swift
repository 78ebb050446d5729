/// `assets/upload`: `{zoneID?, tokens: [{recordName?, recordType?, fieldName}]}` (WSREF/UploadAssets).
public struct AssetUploadRequest: Sendable, Hashable, Codable {
    /// One asset field to upload into.
    public struct Token: Sendable, Hashable, Codable {
        /// The record the asset is for; the server makes a name when absent.
        public var recordName: String?
        /// The record's type.
        public var recordType: String?
        /// The `ASSETID` field.
        public var fieldName: String

        /// Creates a token request.
        public init(recordName: String? = nil, recordType: String? = nil, fieldName: String) {
            self.recordName = recordName
            self.recordType = recordType
            self.fieldName = fieldName
        }
    }

    /// The zone (default: the default zone).
    public var zoneID: RecordZoneID?
    /// The fields to upload into (at most 200).
    public var tokens: [Token]

    /// Creates a request.
    public init(zoneID: RecordZoneID? = nil, tokens: [Token]) {
        self.zoneID = zoneID
        self.tokens = tokens
    }
}

/// The answer to `assets/upload`: `{tokens: [{recordName, fieldName, url}]}`.
public struct AssetUploadResponse: Sendable, Hashable, Codable {
    /// Where to send one field's bytes.
    public struct Token: Sendable, Hashable, Codable {
        public var recordName: String
        public var fieldName: String
        /// POST the bytes here.
        public var url: String

        /// Creates a token.
        public init(recordName: String, fieldName: String, url: String) {
            self.recordName = recordName
            self.fieldName = fieldName
            self.url = url
        }
    }

    /// One token per requested field, in order.
    public var tokens: [Token]

    /// Creates a response.
    public init(tokens: [Token]) { self.tokens = tokens }
}

/// The answer to POSTing bytes to an upload URL: `{singleFile: {fileChecksum, size, receipt, …}}`.
public struct AssetUploadReceipt: Sendable, Hashable, Codable {
    /// What to put in the record's `ASSETID` field.
    public var singleFile: Asset

    /// Creates a receipt answer.
    public init(singleFile: Asset) { self.singleFile = singleFile }
}

/// `assets/rereference`: `{zoneID?, assets: [{recordName, fieldName}]}` (WSREF/RereferenceAssets).
public struct AssetRereferenceRequest: Sendable, Hashable, Codable {
    /// An existing record's asset field.
    public struct Field: Sendable, Hashable, Codable {
        public var recordName: String
        public var fieldName: String

        /// Names a field.
        public init(recordName: String, fieldName: String) {
            self.recordName = recordName
            self.fieldName = fieldName
        }
    }

    /// The zone of the records (default: the default zone).
    public var zoneID: RecordZoneID?
    /// The fields whose assets to reference again.
    public var assets: [Field]

    /// Creates a request.
    public init(zoneID: RecordZoneID? = nil, assets: [Field]) {
        self.zoneID = zoneID
        self.assets = assets
    }
}

/// The answer to `assets/rereference`: one entry per field, in order: the asset dictionary with a
/// fresh `receipt` (to save into another record), or an error dictionary.
public struct AssetRereferenceResponse: Sendable, Hashable, Codable {
    /// One field's answer.
    public struct Entry: Sendable, Hashable, Codable {
        public var recordName: String
        public var fieldName: String
        /// The asset (with a new receipt), when the field has one.
        public var value: Asset?
        public var serverErrorCode: String?
        public var reason: String?

        /// Creates an entry.
        public init(
            recordName: String, fieldName: String, value: Asset? = nil, serverErrorCode: String? = nil,
            reason: String? = nil
        ) {
            self.recordName = recordName
            self.fieldName = fieldName
            self.value = value
            self.serverErrorCode = serverErrorCode
            self.reason = reason
        }
    }

    /// One entry per requested field.
    public var assets: [Entry]

    /// Creates a response.
    public init(assets: [Entry]) { self.assets = assets }
}

extension AssetUploadRequest: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("zoneID", zoneID)
        try encoder.member("tokens", tokens)
        encoder.endObject()
    }
}

extension AssetUploadRequest.Token: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("recordName", recordName)
        try encoder.member("recordType", recordType)
        try encoder.member("fieldName", fieldName)
        encoder.endObject()
    }
}

extension AssetUploadResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("tokens", tokens)
        encoder.endObject()
    }
}

extension AssetUploadResponse.Token: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("recordName", recordName)
        try encoder.member("fieldName", fieldName)
        try encoder.member("url", url)
        encoder.endObject()
    }
}

extension AssetUploadReceipt: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("singleFile", singleFile)
        encoder.endObject()
    }
}

extension AssetRereferenceResponse: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("assets", assets)
        encoder.endObject()
    }
}

extension AssetRereferenceResponse.Entry: WireEncodable {
    package func encode(to encoder: inout WireEncoder) throws {
        encoder.beginObject()
        try encoder.member("recordName", recordName)
        try encoder.member("fieldName", fieldName)
        try encoder.member("value", value)
        try encoder.member("serverErrorCode", serverErrorCode)
        try encoder.member("reason", reason)
        encoder.endObject()
    }
}
