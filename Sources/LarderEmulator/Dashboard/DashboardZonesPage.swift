/// The start page: containers → environments → databases → zones, with owner, change sequence
/// and share status.
enum DashboardZonesPage {
    /// At most this many zones are listed (an index scan of `zone`, never of `record`).
    static let limit = 1000

    /// The page's body for the first ``limit`` zones (`hasMore`: the store has more).
    static func render(zones: [ZoneSummary], hasMore: Bool) -> String {
        var groups: [String: [[String]]] = [:]
        var order: [String] = []
        for zone in zones {
            let key = zone.container + " / " + zone.environment
            if groups[key] == nil { order.append(key) }
            let id = zone.id
            let zoneCell =
                zone.isDeleted
                ? HTML.escape(zone.name) + " <span class=\"muted\">(deleted)</span>"
                : HTML.link(zone.name, DashboardPage.root + "/zone", [("zone", String(id))], id: "zone-\(id)")
            groups[key, default: []].append([
                HTML.escape(zone.database), HTML.escape(zone.owner), zoneCell, HTML.escape("\(zone.changeSeq ?? 0)"),
                zone.isShared ? "shared, \(zone.members) accepted participant(s)" : "not shared",
                zone.isDeleted ? "" : HTML.link("change feed", DashboardPage.root + "/changes", [("zone", String(id))]),
            ])
        }
        var body = ""
        for (index, key) in order.enumerated() {
            body += "<h2>\(HTML.escape(key))</h2>"
            body += HTML.table(
                ["Database", "Owner", "Zone", "Change sequence", "Sharing", ""], groups[key] ?? [], id: "zones-\(index)"
            )
        }
        if hasMore { body += "<p class=\"muted\">Only the first \(limit) zones are listed.</p>" }
        return body.isEmpty ? "<p>No zones yet.</p>" : body
    }
}
