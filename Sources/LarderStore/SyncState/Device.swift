public import Foundation
import LarderCore
import LarderRegistry

/// A device of the sync group, as this store knows it.
///
/// The watermark is the cloud time the device has fetched changes up to: every change the cloud
/// confirmed at or before it has reached the device. Compaction drops a tombstone only when
/// every live device's watermark is past the tombstone's acknowledgement.
public struct Device: Sendable, Hashable, Codable {
    /// The device's identifier.
    public var id: String
    /// A human name ("Anna's iPhone").
    public var name: String
    /// The cloud time the device has fetched changes up to; `nil` when it never fetched.
    public var watermark: Date?
    /// When the device last synced.
    public var lastSeen: Date
    /// Whether compaction stopped waiting for it (unseen longer than the horizon).
    public var isExpired: Bool
    /// When it was marked expired.
    public var expiredAt: Date?
    /// Incremented each time the device resets; an expired device comes back with a higher one.
    public var epoch: Int
    /// Whether this is the device the store belongs to (never expires, never blocks).
    public var isSelf: Bool

    /// Creates a device.
    public init(
        id: String, name: String, watermark: Date? = nil, lastSeen: Date, isExpired: Bool = false,
        expiredAt: Date? = nil, epoch: Int = 0,
        isSelf: Bool = false
    ) {
        self.id = id
        self.name = name
        self.watermark = watermark
        self.lastSeen = lastSeen
        self.isExpired = isExpired
        self.expiredAt = expiredAt
        self.epoch = epoch
        self.isSelf = isSelf
    }

    /// `name (id)`, or the id alone when they are the same.
    public var label: String { name == id ? id : "\(name) (\(id))" }
}

/// What recording a device's sync told the store.
public enum DeviceStatus: Sendable, Hashable {
    /// The device was not known before.
    case registered
    /// A known, live device advanced.
    case active
    /// The device came back after it was marked expired and has not reset: it must discard its
    /// cloud data and fetch everything again before it syncs (tombstones it missed may be gone).
    case mustReset(expiredAt: Date)
    /// An expired device came back after resetting: it counts again, from its new watermark.
    case reactivated

    /// A sentence for reports.
    public func message(for device: String) -> String {
        switch self {
        case .registered: "device \(device) registered"
        case .active: "device \(device) advanced"
        case .mustReset(let expiredAt):
            "device \(device) came back after it expired at \(Timestamp.format(expiredAt)): it must reset (discard its cloud data and fetch everything again) before it syncs"
        case .reactivated: "device \(device) came back after a reset and counts again"
        }
    }
}
