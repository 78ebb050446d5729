/// What the dashboard's hub shows of one zone besides its summary: live records by type and the
/// zone's latest change.
struct ZoneActivity: Sendable, Hashable {
    /// Live records by record type, most first (ties by type).
    var counts: [TypeCount] = []
    /// The zone's latest change (the record with the highest change sequence), if any.
    var lastChange: ChangeFeedEntry?

    /// The number of live records of one type.
    struct TypeCount: Sendable, Hashable {
        /// The record type.
        var type: String
        /// Its live records.
        var count: Int
    }

    /// All live records of the zone.
    var total: Int { counts.reduce(0) { $0 + $1.count } }
}
