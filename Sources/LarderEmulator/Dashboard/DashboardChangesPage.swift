import GRDB
import LarderSQLite

/// A zone's change feed as a timeline, newest first: creates, updates and deletes with the token
/// after each, paged by a keyset bound on the `(zoneId, changeSeq)` index.
enum DashboardChangesPage {
    static let pageSize = 50

    static func render(zone: DashboardZone, before: Int64?, db: Database) throws -> String {
        let bound = before ?? Int64.max
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT name, type, changeSeq, changeTag, isDeleted, createdAt, modifiedAt, modifiedBy FROM record
                WHERE zoneId = ? AND changeSeq < ? ORDER BY changeSeq DESC LIMIT ?
                """, arguments: [zone.row.id, bound, pageSize + 1])
        let zoneID = String(zone.row.id)
        let cells = try rows.prefix(pageSize).map { row -> [String] in
            let name: String = try row.decode(atIndex: 0, in: .record)
            let type: String = try row.decode(atIndex: 1, in: .record)
            let sequence: Int64 = try row.decode(atIndex: 2, in: .record)
            let changeTag: String = try row.decode(atIndex: 3, in: .record)
            let isDeleted: Bool = try row.decode(atIndex: 4, in: .record)
            let created: Int64 = try row.decode(atIndex: 5, in: .record)
            let modified: Int64 = try row.decode(atIndex: 6, in: .record)
            let modifiedBy: String = try row.decode(atIndex: 7, in: .record)
            let kind = isDeleted ? "delete" : created == modified ? "create" : "update"
            return [
                HTML.escape(String(sequence)), kind, HTML.time(modified), HTML.escape(modifiedBy),
                HTML.link(name, DashboardPage.root + "/record", [("zone", zoneID), ("name", name)]),
                HTML.escape(isDeleted ? "" : type), HTML.escape(changeTag),
                "<code>\(HTML.escape(zone.row.token(at: sequence)))</code>",
            ]
        }
        var body = "<p>" + HTML.link("← records of this zone", DashboardPage.root + "/zone", [("zone", zoneID)])
        body += " · zone change sequence \(zone.row.changeSeq); only each record's latest change is kept.</p>"
        body += HTML.table(
            ["Change", "Kind", "When", "By", "Record", "Type", "Change tag", "Token after"], Array(cells),
            id: "changes")
        if rows.count > pageSize, let last = rows.prefix(pageSize).last {
            let sequence: Int64 = try last.decode(atIndex: 2, in: .record)
            body += HTML.link(
                "Older changes", DashboardPage.root + "/changes", [("zone", zoneID), ("before", String(sequence))],
                id: "older-changes")
        }
        return body
    }
}
