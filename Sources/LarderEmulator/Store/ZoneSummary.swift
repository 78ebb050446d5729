/// One zone as the dashboard's start page lists it: where it lives, its change sequence and whether it is shared.
struct ZoneSummary: Sendable, Hashable {
    /// The zone's row id (the dashboard's `zone` parameter).
    var id: Int64
    var container: String
    var environment: String
    var database: String
    var owner: String
    var name: String
    /// The zone's change sequence (nil when the column is NULL).
    var changeSeq: Int64?
    var isDeleted: Bool
    /// Accepted participants of the zone's shares.
    var members: Int
    /// Whether the zone holds a live `cloudkit.share` record.
    var isShared: Bool
}
