/// The start page, the hub: the request log's last minute (``DashboardRequestStats``), the latest
/// changes, and containers → environments → databases → zones, with owner (by name), live
/// records by type (each a link to that type's list), last change, change sequence and share status.
enum DashboardZonesPage {
    /// At most this many zones are listed (an index scan of `zone`, never of `record`).
    static let limit = 1000

    /// How many of the zones' latest changes the hub lists.
    static let latestChanges = 10

    /// The page's body for the first ``limit`` zones (`hasMore`: the store has more), their
    /// `activity`, the request figures and the users' names.
    static func render(
        zones: [ZoneSummary], hasMore: Bool, activity: [Int64: ZoneActivity], requests: DashboardRequestStats,
        users: DashboardUsers
    ) -> String {
        var hub = "<h2>Requests</h2>" + requests.render()
        hub += "<h2>Latest changes</h2>" + latest(zones: zones, activity: activity, users: users)
        return hub + list(zones: zones, hasMore: hasMore, activity: activity, users: users)
    }

    /// The latest change of each zone, newest first, ``latestChanges`` at most.
    static func latest(zones: [ZoneSummary], activity: [Int64: ZoneActivity], users: DashboardUsers) -> String {
        let changes = zones.compactMap { zone in activity[zone.id]?.lastChange.map { (zone, $0) } }
            .sorted { $0.1.modifiedAt > $1.1.modifiedAt }.prefix(latestChanges)
        let rows = changes.map { zone, entry -> [String] in
            let zoneID = String(zone.id)
            return [
                HTML.time(entry.modifiedAt), HTML.escape("\(zone.name) · \(zone.database)"), entry.kind,
                HTML.link(entry.name, DashboardPage.root + "/record", [("zone", zoneID), ("name", entry.name)]),
                HTML.escape(entry.isDeleted ? "" : entry.type), users.html(entry.modifiedBy),
            ]
        }
        return HTML.table(["When", "Zone", "Kind", "Record", "Type", "By"], rows, id: "latest-changes")
    }

    /// The zones, grouped by container and environment.
    static func list(
        zones: [ZoneSummary], hasMore: Bool, activity: [Int64: ZoneActivity], users: DashboardUsers
    ) -> String {
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
            let counts = activity[id]?.counts ?? []
            let countCell = counts.map { count in
                HTML.link(
                    "\(count.type) \(count.count)", DashboardPage.root + "/zone",
                    [("zone", String(id)), ("type", count.type)])
                    + (DashboardExport.isLarderType(count.type)
                        ? " " + DashboardExport.link(zone: id, type: count.type, text: "(export)") : "")
            }.joined(separator: "<br>")
            let exportable = !zone.isDeleted && counts.contains { DashboardExport.isLarderType($0.type) }
            let last = activity[id]?.lastChange.map { HTML.time($0.modifiedAt) + " " + $0.kind } ?? ""
            groups[key, default: []].append([
                HTML.escape(zone.database), users.html(zone.owner), zoneCell, countCell, last,
                HTML.escape("\(zone.changeSeq ?? 0)"),
                zone.isShared ? "shared, \(zone.members) accepted participant(s)" : "not shared",
                (zone.isDeleted
                    ? "" : HTML.link("change feed", DashboardPage.root + "/changes", [("zone", String(id))]))
                    + (exportable ? "<br>" + DashboardExport.link(zone: id) : ""),
            ])
        }
        var body = ""
        for (index, key) in order.enumerated() {
            body += "<h2>\(HTML.escape(key))</h2>"
            body += HTML.table(
                ["Database", "Owner", "Zone", "Records by type", "Last change", "Change sequence", "Sharing", ""],
                groups[key] ?? [], id: "zones-\(index)"
            )
        }
        if hasMore { body += "<p class=\"muted\">Only the first \(limit) zones are listed.</p>" }
        return body.isEmpty ? "<h2>Zones</h2><p>No zones yet.</p>" : body
    }
}
