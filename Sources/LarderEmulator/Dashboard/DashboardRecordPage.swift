import LarderCloudKit
import LarderCore

/// One record: every field with its CloudKit type (``DashboardValueHTML/full(_:)``: assets
/// previewed, JSON strings folded, times readable), change tag, created/modified stamps with the
/// users' names, parent and share, a share's participants, and its entry in the zone's change feed;
/// forms to edit a field and to delete the record (``DashboardRecordEditor``, through
/// `records/modify`'s own code, each form carrying the CSRF token).
///
/// The store keeps the latest version of a record (as CloudKit's change feed reports it), so the
/// history is the record's last change with the token just before and after it, not every version.
struct DashboardRecordPage {
    let zone: DashboardZone
    let row: RecordRow
    let services: EmulatorServices
    /// This run's CSRF token, written into the edit and delete forms.
    let csrf: String
    /// The outcome of the edit or delete that led here, if any.
    var notice: String?

    /// The page's body.
    /// - Throws: `INTERNAL_ERROR` for damaged stored fields.
    func render() throws -> String {
        let renderer = RecordRenderer(call: zone.call(services: services))
        let record = try renderer.record(row, zone: zone.row, desiredKeys: nil)
        let fields = row.isDeleted ? [:] : record.fields ?? [:]
        let users = DashboardUsers(services.configuration.users)
        var body = notice.map { "<p class=\"notice\" id=\"notice\">\(HTML.escape($0))</p>" } ?? ""
        body += "<p>" + HTML.link("← records of \(zone.row.name)", DashboardPage.root + "/zone", zoneQuery) + "</p>"
        body += HTML.table(["Property", "Value"], properties(users: users), id: "record-properties")
        body += "<h2>Fields</h2>"
        let editor = DashboardRecordEditor.Form(zone: zone, row: row, csrf: csrf)
        let fieldRows = fields.keys.sorted().map { name -> [String] in
            let field = fields[name]
            return [
                HTML.escape(name), HTML.escape(field?.type?.rawValue ?? ""),
                DashboardValueHTML.full(field) { target, zoneName in
                    zoneName == nil || zoneName == zone.row.name ? recordLink(target) : nil
                },
                editor.editField(name, field),
            ]
        }
        body += HTML.table(["Field", "Type", "Value", ""], fieldRows, id: "record-fields")
        if !row.isDeleted { body += editor.delete() }
        if row.isShare, let text = row.share, StoredShare(json: text) == nil {
            body += "<h2>Share participants</h2><p class=\"error\">The stored state of this share is damaged.</p>"
        }
        if row.isShare, let text = row.share, let share = StoredShare(json: text) {
            body += "<h2>Share participants</h2>"
            body += HTML.table(
                ["User", "Type", "Permission", "Acceptance"],
                share.participants.map { participant in
                    [
                        users.html(participant.userIdentity?.userRecordName ?? ""),
                        HTML.escape(participant.type ?? ""),
                        HTML.escape(participant.permission?.rawValue ?? ""),
                        HTML.escape(participant.acceptanceStatus ?? ""),
                    ]
                }, id: "share-participants")
        }
        body += "<h2 id=\"history\">History</h2>" + history()
        return body
    }

    var zoneQuery: [(String, String)] { [("zone", String(zone.row.id))] }

    private func properties(users: DashboardUsers) -> [[String]] {
        var rows: [[String]] = [
            ["Record name", HTML.escape(row.name)], ["Record type", HTML.escape(row.type)],
            ["Change tag", HTML.escape(row.changeTag)],
            [
                "Created",
                HTML.time(row.createdAt) + " by " + users.html(row.createdBy) + " on "
                    + HTML.escape(row.createdDevice),
            ],
            [
                "Modified",
                HTML.time(row.modifiedAt) + " by " + users.html(row.modifiedBy) + " on "
                    + HTML.escape(row.modifiedDevice),
            ],
            ["Deleted", row.isDeleted ? "yes (tombstone)" : "no"],
            ["Zone", HTML.escape("\(zone.row.name) · \(zone.row.database) · ") + users.html(zone.row.owner)],
        ]
        if let parent = row.parent { rows.append(["Parent", recordLink(parent)]) }
        if let shareName = row.shareName { rows.append(["Share", recordLink(shareName)]) }
        if let guid = row.shortGUID { rows.append(["Short GUID", HTML.escape(guid)]) }
        return rows
    }

    private func recordLink(_ name: String) -> String {
        HTML.link(name, DashboardPage.root + "/record", zoneQuery + [("name", name)])
    }

    private func history() -> String {
        let kind = row.isDeleted ? "delete" : row.createdAt == row.modifiedAt ? "create" : "update"
        let entry = [
            HTML.escape(String(row.changeSeq)), kind, HTML.time(row.modifiedAt),
            DashboardUsers(services.configuration.users).html(row.modifiedBy),
            HTML.escape(row.changeTag), "<code>\(HTML.escape(zone.row.token(at: row.changeSeq - 1)))</code>",
            "<code>\(HTML.escape(zone.row.token(at: row.changeSeq)))</code>",
        ]
        var out = HTML.table(
            ["Zone change", "Kind", "When", "By", "Change tag", "Token before", "Token after"], [entry],
            id: "record-history")
        out += "<p class=\"muted\">The store keeps each record's latest version, as CloudKit's change feed reports "
        out += "it; earlier versions are not kept. "
        out += HTML.link(
            "Zone change feed around this change", DashboardPage.root + "/changes",
            zoneQuery + [("before", String(row.changeSeq + 1))], id: "feed-link")
        return out + "</p>"
    }

    /// A field value as HTML (``DashboardValueHTML/full(_:)``).
    static func valueHTML(_ field: RecordField?) -> String { DashboardValueHTML.full(field) }
}
