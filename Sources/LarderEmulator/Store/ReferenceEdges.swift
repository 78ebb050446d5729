import GRDB
import LarderCloudKit

/// The `recordRef` index: which live record holds a `DELETE_SELF` or `VALIDATE` reference to
/// which record name of its own zone.
///
/// References to another zone (a `zoneID` naming a different zone) are not indexed: CloudKit's
/// reference actions work inside one zone, and the emulator ignores them across zones.
enum ReferenceEdges {
    /// Apple's limit on `DELETE_SELF` source references to one target (WSREF/PropertyMetrics).
    static let maxDeleteSelfSources = 750

    static let deleteSelf = "DELETE_SELF"
    static let validate = "VALIDATE"

    /// One indexed reference.
    struct Edge: Hashable {
        var targetName: String
        var action: String
    }

    /// The same-zone `DELETE_SELF`/`VALIDATE` references in `fields`.
    static func edges(in fields: [String: FieldValue], zone: ZoneRow) -> Set<Edge> {
        var result = Set<Edge>()
        for value in fields.values { collect(value, zone: zone, into: &result) }
        return result
    }

    private static func collect(_ value: FieldValue, zone: ZoneRow, into result: inout Set<Edge>) {
        switch value {
        case .reference(let reference):
            guard let action = reference.action, action == deleteSelf || action == validate else { return }
            if let other = reference.zoneID, other.zoneName != zone.name { return }
            result.insert(Edge(targetName: reference.recordName, action: action))
        case .list(_, let elements):
            for element in elements { collect(element, zone: zone, into: &result) }
        default:
            return
        }
    }

    /// Replaces the edges of `sourceID` with `edges`.
    static func replace(sourceID: Int64, zoneID: Int64, edges: Set<Edge>, db: Database) throws {
        try remove(sourceID: sourceID, db: db)
        for edge in edges {
            try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO recordRef (sourceId, zoneId, targetName, action) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [sourceID, zoneID, edge.targetName, edge.action])
        }
    }

    /// Removes every edge `sourceID` holds (the record was deleted).
    static func remove(sourceID: Int64, db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM recordRef WHERE sourceId = ?").execute(arguments: [sourceID])
    }

    /// How many records other than `excluding` hold a `DELETE_SELF` reference to `targetName`.
    static func deleteSelfCount(zoneID: Int64, targetName: String, excluding sourceID: Int64?, db: Database) throws
        -> Int
    {
        try Int.fetchOne(
            db,
            sql: "SELECT COUNT(*) FROM recordRef WHERE zoneId = ? AND targetName = ? AND action = ? AND sourceId != ?",
            arguments: [zoneID, targetName, deleteSelf, sourceID ?? 0]) ?? 0
    }

    /// The live records that reference `targetName` with `action`.
    static func sources(zoneID: Int64, targetName: String, action: String, db: Database) throws -> [RecordRow] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT \(RecordRow.columns) FROM record
                WHERE id IN (SELECT sourceId FROM recordRef WHERE zoneId = ? AND targetName = ? AND action = ?)
                    AND isDeleted = 0
                ORDER BY id
                """,
            arguments: [zoneID, targetName, action])
        return try rows.map(RecordRow.init(row:))
    }

    /// Recomputes the whole index from the live records (after the migration that adds it, and an import).
    static func rebuild(db: Database) throws {
        try db.execute(sql: "DELETE FROM recordRef")
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO recordRef (sourceId, zoneId, targetName, action)
                SELECT r.id, r.zoneId, json_extract(t.value, '$.recordName'), json_extract(t.value, '$.action')
                FROM record r JOIN zone z ON z.id = r.zoneId, json_tree(r.fields) t
                WHERE r.isDeleted = 0 AND t.type = 'object'
                    AND json_extract(t.value, '$.action') IN ('DELETE_SELF', 'VALIDATE')
                    AND json_type(t.value, '$.recordName') = 'text'
                    AND coalesce(json_extract(t.value, '$.zoneID.zoneName'), z.name) = z.name
                """)
    }
}
