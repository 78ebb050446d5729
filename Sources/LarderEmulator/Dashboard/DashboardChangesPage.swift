import GRDB

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
        let cells = rows.prefix(pageSize).map { row -> [String] in
            let sequence: Int64 = row["changeSeq"]
            let isDeleted: Bool = row["isDeleted"]
            let created: Int64 = row["createdAt"]
            let modified: Int64 = row["modifiedAt"]
            let name: String = row["name"]
            let kind = isDeleted ? "delete" : created == modified ? "create" : "update"
            return [
                HTML.escape(String(sequence)), kind, HTML.time(modified), HTML.escape(row["modifiedBy"]),
                HTML.link(name, DashboardPage.root + "/record", [("zone", zoneID), ("name", name)]),
                HTML.escape(isDeleted ? "" : row["type"]), HTML.escape(row["changeTag"]),
                "<code>\(HTML.escape(zone.row.token(at: sequence)))</code>",
            ]
        }
        var body = "<p>" + HTML.link("← records of this zone", DashboardPage.root + "/zone", [("zone", zoneID)])
        body += " · zone change sequence \(zone.row.changeSeq); only each record's latest change is kept.</p>"
        body += HTML.table(
            ["Change", "Kind", "When", "By", "Record", "Type", "Change tag", "Token after"], Array(cells),
            id: "changes")
        if rows.count > pageSize, let last = rows.prefix(pageSize).last {
            let sequence: Int64 = last["changeSeq"]
            body += HTML.link(
                "Older changes", DashboardPage.root + "/changes", [("zone", zoneID), ("before", String(sequence))],
                id: "older-changes")
        }
        return body
    }
}
