public import Foundation
public import LarderCore
import LarderRegistry

/// A change waiting for the cloud.
///
/// A store keeps at most one per record: a newer local change replaces the older one (keeping the change tag the first
/// was based on).
public struct PendingChange: Sendable, Hashable {
    /// What the cloud is asked to do.
    public struct Kind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Save the full record (a local create or edit).
        ///
        /// Loses to a cloud tombstone.
        public static let save = Kind(rawValue: "save")
        /// Save a minimal tombstone (a delete, or a record set local-only).
        ///
        /// Wins over edits.
        public static let tombstone = Kind(rawValue: "tombstone")
        /// Save the full record over the cloud's tombstone (cloud re-enabled on a local-only record).
        public static let enableCloud = Kind(rawValue: "enableCloud")
        /// Remove a compacted tombstone from the cloud, only if it is still the acknowledged one and
        /// the device registry has not changed since the compaction decided.
        public static let purge = Kind(rawValue: "purge")
    }

    /// Its position in the queue (increasing).
    public var seq: Int64
    /// The record's type.
    public var type: String
    /// The record's id.
    public var id: String
    /// The record's cloud name.
    public var recordName: String
    /// What to do.
    public var kind: Kind
    /// What to upload: the full record, or the cloud tombstone; `nil` for a purge.
    public var payload: Value?
    /// The cloud change tag the change is based on (`nil` for a record the cloud never had).
    public var baseTag: String?
    /// For a purge: the device-registry tag the compaction decided under.
    public var registryTag: String?
    /// When it was queued.
    public var createdAt: Date
}

/// What acknowledging a pending change did.
public enum AcknowledgeOutcome: String, Sendable, Hashable {
    /// The change was confirmed and left the queue.
    case acknowledged
    /// A newer change of the same record replaced it meanwhile; that one is now based on the
    /// confirmed tag.
    case rebased
    /// The change was no longer queued (discarded meanwhile); only the record's cloud state moved.
    case stale
}
