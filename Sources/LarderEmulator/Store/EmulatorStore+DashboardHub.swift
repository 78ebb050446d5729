import GRDB
import LarderSQLite

/// The dashboard hub's reads: records by zone and type, and each zone's latest change.
extension EmulatorStore {
    /// The activity of each zone in `zoneIDs`, by zone row id (zones without records are absent).
    ///
    /// Counts scan the `(zoneId, type, isDeleted)` index once (no table rows are read); the latest
    /// change is one probe of the `(zoneId, changeSeq)` index per zone.
    /// - Throws: ``CloudKitServerError`` `INTERNAL_ERROR` for a damaged row; the store's error.
    func zoneActivity(zoneIDs: [Int64]) async throws -> [Int64: ZoneActivity] {
        let wanted = Set(zoneIDs)
        return try await writer.read { db in
            var activity: [Int64: ZoneActivity] = [:]
            let counts = try Row.fetchAll(
                db,
                sql: """
                    SELECT zoneId, type, count(*) FROM record INDEXED BY recordType
                    WHERE isDeleted = 0 GROUP BY zoneId, type
                    """)
            for row in counts {
                let zone: Int64 = try row.decode(atIndex: 0, in: .record)
                guard wanted.contains(zone) else { continue }
                let count = ZoneActivity.TypeCount(
                    type: try row.decode(atIndex: 1, in: .record), count: try row.decode(atIndex: 2, in: .record))
                activity[zone, default: ZoneActivity()].counts.append(count)
            }
            for zone in activity.keys {
                activity[zone]?.counts.sort { ($0.count, $1.type) > ($1.count, $0.type) }
            }
            for zone in wanted {
                let sql =
                    "SELECT \(ChangeFeedEntry.columns) FROM record WHERE zoneId = ? ORDER BY changeSeq DESC LIMIT 1"
                guard let row = try Row.fetchOne(db, sql: sql, arguments: [zone]) else { continue }
                activity[zone, default: ZoneActivity()].lastChange = try ChangeFeedEntry(row: row)
            }
            return activity
        }
    }
}

extension ChangeFeedEntry {
    /// The `record` columns ``init(row:)`` reads, in order.
    static let columns = "name, type, changeSeq, changeTag, isDeleted, createdAt, modifiedAt, modifiedBy"

    /// The entry a row of ``columns`` holds.
    /// - Throws: `INTERNAL_ERROR` for a damaged row.
    init(row: Row) throws {
        self.init(
            name: try row.decode(atIndex: 0, in: .record), type: try row.decode(atIndex: 1, in: .record),
            changeSeq: try row.decode(atIndex: 2, in: .record), changeTag: try row.decode(atIndex: 3, in: .record),
            isDeleted: try row.decode(atIndex: 4, in: .record), createdAt: try row.decode(atIndex: 5, in: .record),
            modifiedAt: try row.decode(atIndex: 6, in: .record), modifiedBy: try row.decode(atIndex: 7, in: .record))
    }
}
