/// A zone's change feed as a timeline, newest first: creates, updates and deletes with the token
/// after each, paged by a keyset bound on the `(zoneId, changeSeq)` index.
enum DashboardChangesPage {
    static let pageSize = 50

    /// The page's body for `entries` (at most ``pageSize``, newest first) of `zone`'s feed; `hasMore`:
    /// older changes follow.
    static func render(zone: DashboardZone, entries: [ChangeFeedEntry], hasMore: Bool, users: DashboardUsers) -> String
    {
        let zoneID = String(zone.row.id)
        let cells = entries.map { entry -> [String] in
            [
                HTML.escape(String(entry.changeSeq)), entry.kind, HTML.time(entry.modifiedAt),
                users.html(entry.modifiedBy),
                HTML.link(entry.name, DashboardPage.root + "/record", [("zone", zoneID), ("name", entry.name)]),
                HTML.escape(entry.isDeleted ? "" : entry.type), HTML.escape(entry.changeTag),
                "<code>\(HTML.escape(zone.row.token(at: entry.changeSeq)))</code>",
            ]
        }
        var body = "<p>" + HTML.link("← records of this zone", DashboardPage.root + "/zone", [("zone", zoneID)])
        body += " · zone change sequence \(zone.row.changeSeq); only each record's latest change is kept.</p>"
        body += HTML.table(
            ["Change", "Kind", "When", "By", "Record", "Type", "Change tag", "Token after"], cells,
            id: "changes")
        if hasMore, let last = entries.last {
            body += HTML.link(
                "Older changes", DashboardPage.root + "/changes",
                [("zone", zoneID), ("before", String(last.changeSeq))],
                id: "older-changes")
        }
        return body
    }
}
