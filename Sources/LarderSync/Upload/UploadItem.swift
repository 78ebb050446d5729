public import LarderCloudKit
public import LarderCore

/// One record to write (or delete) in the target zone.
public struct UploadItem: Sendable {
    /// Save the fields, or delete the record.
    public enum Action: Sendable, Hashable {
        /// Create the record, or replace it when ``UploadItem/baseTag`` is known.
        case save
        /// Delete the record (only if it still has ``UploadItem/baseTag`` when one is given).
        case delete
    }

    /// The CloudKit record name.
    public var recordName: String
    /// The CloudKit record type.
    public var recordType: String
    /// The fields to write (replace semantics: fields not given are removed).
    ///
    /// An item the upload mapped from a record holds its fields encoded only (``encodedFields``);
    /// reading them decodes the bytes (conflicts and images need them, nothing else does).
    /// Setting them drops the encoding, and leaves ``digest`` as it was.
    public var fields: [String: FieldValue] {
        get { typedFields ?? TypedFields.decodeWritten(encodedFields ?? []) }
        set {
            typedFields = newValue
            encodedFields = nil
        }
    }
    /// The fields as given, when the item was made from a dictionary or they were set.
    private var typedFields: [String: FieldValue]?
    /// `fields` as the wire `fields` object an operation sends (``TypedFields``, sorted by name),
    /// while known.
    package private(set) var encodedFields: [UInt8]?
    /// ``FieldsDigest`` of `recordType` and `fields`.
    public var digest: String
    /// The server change tag the write is based on; `nil` for a record new to this client.
    public var baseTag: String?
    /// Save or delete.
    public var action: Action
    /// Overwrite whatever the server holds (`forceReplace`), without conflict checks.
    public var isForced: Bool
    /// The original record, for the dead letters.
    public var record: Value?
    /// Where it came from (`file:record index`), for the dead letters and messages.
    public var origin: String?
    /// The caller's own reference (a pending change's sequence number, an input index).
    public var context: Int64

    /// Creates an item; the digest is computed from the type and fields.
    public init(
        recordName: String, recordType: String, fields: [String: FieldValue], baseTag: String? = nil,
        action: Action = .save,
        isForced: Bool = false, record: Value? = nil, origin: String? = nil, context: Int64 = 0
    ) {
        self.recordName = recordName
        self.recordType = recordType
        let encoded = FieldsDigest.encode(fields)
        self.typedFields = fields
        self.encodedFields = encoded
        self.digest = FieldsDigest.make(recordType: recordType, fields: fields, encoded: encoded)
        self.baseTag = baseTag
        self.action = action
        self.isForced = isForced
        self.record = record
        self.origin = origin
        self.context = context
    }
}

extension UploadItem {
    /// Creates a save of fields already encoded as the wire `fields` object, holding no asset but
    /// checksum-only ones (``RecordMapping/encodedFields(of:type:extra:)``); the digest is taken
    /// over those bytes.
    package init(
        recordName: String, recordType: String, encodedFields: [UInt8], record: Value?, origin: String?
    ) {
        self.recordName = recordName
        self.recordType = recordType
        self.typedFields = nil
        self.encodedFields = encodedFields
        self.digest = FieldsDigest.make(recordType: recordType, encodedFields: encodedFields)
        self.baseTag = nil
        self.action = .save
        self.isForced = false
        self.record = record
        self.origin = origin
        self.context = 0
    }
}

/// What happened to one item.
public enum UploadOutcome: Sendable {
    /// The fields were written; `merged` tells a conflict settled by writing over the server's version.
    case written(changeTag: String?, modified: Int64?, conflict: ConflictPolicy?)
    /// The server already held exactly these fields (an earlier run's write, or equal data).
    case alreadyThere(changeTag: String?, modified: Int64?)
    /// A conflict was settled by keeping the server's version, which is given.
    case keptServer(Record)
    /// The record was deleted (or was already gone).
    case deleted
    /// The record cannot be written: why, and the server's code when it gave one.
    case rejected(reason: String, code: String?)
}

/// What the uploader asks of its caller: how to settle conflicts, and what to record.
public protocol UploadDelegate: Sendable {
    /// Called before a batch is sent (the journal writes its plan here).
    func willSend(_ items: [UploadItem]) async throws
    /// Settles a conflict whose server version differs from ours.
    func resolveConflict(_ item: UploadItem, ours: [String: FieldValue], server: Record) async throws
        -> ConflictResolution
    /// Receives the outcomes of items as they are settled (acknowledge them durably here).
    func didFinish(_ results: [(item: UploadItem, outcome: UploadOutcome)]) async throws
}
