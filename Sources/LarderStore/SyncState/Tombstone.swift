import Foundation
public import LarderCore
import LarderFormats
import LarderRegistry

/// Minimal tombstones (seed 003, option A): a deleted record keeps only its identity and dates.
///
/// The local tombstone keeps `id`, `recordName`, `isDeleted`, `deletedAt`, `updatedAt` and, once
/// the cloud confirmed it, `changeTag` (sync metadata, not data); its schema version stays in the
/// store's `version` column. The cloud copy (what a pending change uploads) carries
/// `schemaVersion` instead of the change tag. Every personal field is gone in both.
public enum Tombstone {
    /// The fields a local tombstone may keep.
    public static let localFieldNames: Set<String> = [
        "id", "recordName", "isDeleted", "deletedAt", "updatedAt", "changeTag",
    ]
    /// The fields the cloud tombstone carries.
    public static let cloudFieldNames: Set<String> = [
        "id", "recordName", "isDeleted", "deletedAt", "updatedAt", "schemaVersion",
    ]

    /// The record name a record has when its body names none: `type-id` (as ``LarderRecord``).
    public static func recordName(type: String, id: String, explicit: String?) -> String {
        explicit ?? "\(type)-\(id)"
    }

    /// The local tombstone body.
    public static func localBody(
        id: String, recordName: String, deletedAt: String?, updatedAt: String?, changeTag: String?
    ) -> Value {
        var builder = identity(id: id, recordName: recordName, deletedAt: deletedAt, updatedAt: updatedAt)
        builder.set("changeTag", changeTag)
        return builder.value
    }

    /// The tombstone the cloud receives.
    public static func cloudPayload(
        id: String, recordName: String, deletedAt: String?, updatedAt: String?, schemaVersion: Int?
    ) -> Value {
        var builder = identity(id: id, recordName: recordName, deletedAt: deletedAt, updatedAt: updatedAt)
        builder.set("schemaVersion", schemaVersion)
        return builder.value
    }

    private static func identity(id: String, recordName: String, deletedAt: String?, updatedAt: String?) -> ValueBuilder
    {
        var builder = ValueBuilder()
        builder.set("id", id)
        builder.set("recordName", recordName)
        builder.set("isDeleted", true)
        builder.set("deletedAt", deletedAt)
        builder.set("updatedAt", updatedAt)
        return builder
    }

    /// Whether a stored body is a tombstone holding nothing beyond the minimal fields.
    public static func isMinimal(_ value: Value) -> Bool {
        guard let fields = value.objectValue, value["isDeleted"] == .bool(true) else { return false }
        return fields.keys.allSatisfy(localFieldNames.contains)
    }

    /// The canonical minimal body text for a stored tombstone's columns.
    static func localBodyText(
        id: String, recordName: String, deletedAt: String?, updatedAt: String?, changeTag: String?
    ) throws -> String {
        try JSONWriter.string(
            localBody(id: id, recordName: recordName, deletedAt: deletedAt, updatedAt: updatedAt, changeTag: changeTag))
    }
}

extension Date {
    /// Milliseconds since 1970, as the maintenance tables store times; `Int64.max` (`.min`) for a
    /// date past them, as one read from a store edited by hand can be (`Int64(_:)` would trap).
    var milliseconds: Int64 {
        let value = (timeIntervalSince1970 * 1000).rounded()
        return Int64(exactly: value) ?? (value > 0 ? .max : .min)
    }

    /// The date `milliseconds` after 1970.
    init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
