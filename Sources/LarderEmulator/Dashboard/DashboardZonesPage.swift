import GRDB
import LarderSQLite

/// The start page: containers → environments → databases → zones, with owner, change sequence
/// and share status.
enum DashboardZonesPage {
    /// At most this many zones are listed (an index scan of `zone`, never of `record`).
    static let limit = 1000

    static func render(db: Database) throws -> String {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT z.id, z.container, z.environment, z.database, z.owner, z.name, z.changeSeq, z.isDeleted,
                  (SELECT count(*) FROM shareMember s WHERE s.zoneId = z.id AND s.status = 'ACCEPTED') AS members,
                  EXISTS (SELECT 1 FROM record r WHERE r.zoneId = z.id AND r.type = 'cloudkit.share'
                          AND r.isDeleted = 0) AS shared
                FROM zone z ORDER BY z.container, z.environment, z.database, z.owner, z.name LIMIT ?
                """, arguments: [limit + 1])
        var groups: [String: [[String]]] = [:]
        var order: [String] = []
        for row in rows.prefix(limit) {
            let container: String = try row.decode(atIndex: 1, in: .zone)
            let environment: String = try row.decode(atIndex: 2, in: .zone)
            let key = container + " / " + environment
            if groups[key] == nil { order.append(key) }
            let id: Int64 = try row.decode(atIndex: 0, in: .zone)
            let name: String = try row.decode(atIndex: 5, in: .zone)
            let isDeleted: Bool = try row.decode(atIndex: 7, in: .zone)
            let shared: Bool = try row.decode(atIndex: 9, in: .zone)
            let members: Int = try row.decode(atIndex: 8, in: .zone)
            let database: String = try row.decode(atIndex: 3, in: .zone)
            let owner: String = try row.decode(atIndex: 4, in: .zone)
            let changeSeq: Int64? = try row.decode(atIndex: 6, in: .zone)
            let zoneCell =
                isDeleted
                ? HTML.escape(name) + " <span class=\"muted\">(deleted)</span>"
                : HTML.link(name, DashboardPage.root + "/zone", [("zone", String(id))], id: "zone-\(id)")
            groups[key, default: []].append([
                HTML.escape(database), HTML.escape(owner), zoneCell, HTML.escape("\(changeSeq ?? 0)"),
                shared ? "shared, \(members) accepted participant(s)" : "not shared",
                isDeleted ? "" : HTML.link("change feed", DashboardPage.root + "/changes", [("zone", String(id))]),
            ])
        }
        var body = ""
        for (index, key) in order.enumerated() {
            body += "<h2>\(HTML.escape(key))</h2>"
            body += HTML.table(
                ["Database", "Owner", "Zone", "Change sequence", "Sharing", ""], groups[key] ?? [], id: "zones-\(index)"
            )
        }
        if rows.count > limit { body += "<p class=\"muted\">Only the first \(limit) zones are listed.</p>" }
        return body.isEmpty ? "<p>No zones yet.</p>" : body
    }
}
