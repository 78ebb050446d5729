import LarderCloudKit
import LarderCore

/// One record: every field with its CloudKit type (assets previewed inline), change tag,
/// created/modified stamps, parent and share, a share's participants, and its entry in the zone's
/// change feed.
///
/// The store keeps the latest version of a record (as CloudKit's change feed reports it), so the
/// history is the record's last change with the token just before and after it, not every version.
struct DashboardRecordPage {
    let zone: DashboardZone
    let row: RecordRow
    let services: EmulatorServices

    func render() throws -> String {
        let renderer = RecordRenderer(call: zone.call(services: services))
        let fields = row.isDeleted ? [:] : try renderer.fields(of: row)
        var body = "<p>" + HTML.link("← records of \(zone.title)", DashboardPage.root + "/zone", zoneQuery) + "</p>"
        body += HTML.table(["Property", "Value"], properties(), id: "record-properties")
        body += "<h2>Fields</h2>"
        let fieldRows = fields.keys.sorted().map { name -> [String] in
            let field = fields[name]
            return [HTML.escape(name), HTML.escape(field?.type?.rawValue ?? ""), Self.valueHTML(field)]
        }
        body += HTML.table(["Field", "Type", "Value"], fieldRows, id: "record-fields")
        if row.isShare, let text = row.share, StoredShare(json: text) == nil {
            body += "<h2>Share participants</h2><p class=\"error\">The stored state of this share is damaged.</p>"
        }
        if row.isShare, let text = row.share, let share = StoredShare(json: text) {
            body += "<h2>Share participants</h2>"
            body += HTML.table(
                ["User", "Type", "Permission", "Acceptance"],
                share.participants.map { participant in
                    [
                        HTML.escape(participant.userIdentity?.userRecordName ?? ""),
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

    private func properties() -> [[String]] {
        var rows: [[String]] = [
            ["Record name", HTML.escape(row.name)], ["Record type", HTML.escape(row.type)],
            ["Change tag", HTML.escape(row.changeTag)],
            [
                "Created",
                HTML.time(row.createdAt) + " by " + HTML.escape(row.createdBy) + " on "
                    + HTML.escape(row.createdDevice),
            ],
            [
                "Modified",
                HTML.time(row.modifiedAt) + " by " + HTML.escape(row.modifiedBy) + " on "
                    + HTML.escape(row.modifiedDevice),
            ],
            ["Deleted", row.isDeleted ? "yes (tombstone)" : "no"],
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
            HTML.escape(String(row.changeSeq)), kind, HTML.time(row.modifiedAt), HTML.escape(row.modifiedBy),
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

    /// A field value as HTML: text, or an `<img>` for an asset with an http(s) `downloadURL`.
    static func valueHTML(_ field: RecordField?) -> String {
        guard let field else { return "" }
        if field.type == .asset || field.type == .assetID, case .object = field.value {
            let url = field.value["downloadURL"]?.stringValue ?? ""
            let size = field.value["size"].map(DashboardValueText.json) ?? "?"
            let lowered = url.lowercased()
            let text = "<pre>\(HTML.escape(DashboardValueText.json(field.value)))</pre>"
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("/") else {
                return text
            }
            return "<img class=\"asset\" alt=\"asset, \(HTML.escape(size)) bytes\" src=\"\(HTML.escape(url))\">" + text
        }
        return HTML.escape(DashboardValueText.text(field))
    }
}
