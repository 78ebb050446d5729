public import Foundation

/// The sync state every record carries: its CloudKit name, whether it may leave the device,
/// whether it is a tombstone, and the change tag the cloud last confirmed.
public struct SyncMetadata: Sendable, Hashable {
    /// The CloudKit record name; derived from the id when absent.
    public var recordName: String?
    /// `false` for a local-only record, which no remote change may touch (seed 003).
    public var isCloudEnabled: Bool
    /// Whether the record is a tombstone.
    public var isDeleted: Bool
    /// When it was deleted, for tombstones.
    public var deletedAt: Date?
    /// The server change tag of the version this record was last synced as.
    public var changeTag: String?

    /// Creates sync metadata; a new record is cloud-enabled and live.
    public init(
        recordName: String? = nil, isCloudEnabled: Bool = true, isDeleted: Bool = false, deletedAt: Date? = nil,
        changeTag: String? = nil
    ) {
        self.recordName = recordName
        self.isCloudEnabled = isCloudEnabled
        self.isDeleted = isDeleted
        self.deletedAt = deletedAt
        self.changeTag = changeTag
    }

    /// The field names sync metadata occupies in a record.
    public static let fieldNames: Set<String> = ["recordName", "isCloudEnabled", "isDeleted", "deletedAt", "changeTag"]

    /// The shapes of the sync fields.
    public static let shapeMembers: [String: Shape] = [
        "recordName": .string, "isCloudEnabled": .boolean, "isDeleted": .boolean, "deletedAt": .string,
        "changeTag": .string,
    ]

    /// Reads the sync fields of a record.
    public init(reading reader: ValueReader) throws {
        self.init(
            recordName: try reader.optionalString("recordName"),
            isCloudEnabled: try reader.bool("isCloudEnabled", default: true),
            isDeleted: try reader.bool("isDeleted", default: false),
            deletedAt: try reader.optionalDate("deletedAt"),
            changeTag: try reader.optionalString("changeTag")
        )
    }

    /// Appends the sync fields to a record being built.
    public func write(to builder: inout ValueBuilder) {
        builder.set("recordName", recordName)
        builder.set("isCloudEnabled", isCloudEnabled)
        builder.set("isDeleted", isDeleted)
        builder.set("deletedAt", deletedAt)
        builder.set("changeTag", changeTag)
    }
}
