import LarderCloudKit

extension DashboardRecordsPage {
    /// The filter form, the page of records as a table, and the pager.
    func render(records: [Record], next: [(String, String)]?, schema: [String: [String: FieldType]]) -> String {
        let fields = (schema[recordType] ?? [:]).keys.sorted()
        let columns = chosenColumns(fields: fields)
        var body = "<p>" + HTML.link("change feed of this zone", DashboardPage.root + "/changes", zoneQuery) + "</p>"
        body += form(schema: schema, fields: fields, columns: columns)
        let zoneID = String(zone.row.id)
        let rows = records.map { record -> [String] in
            let name = record.recordName ?? ""
            var cells = [
                HTML.link(name, DashboardPage.root + "/record", [("zone", zoneID), ("name", name)]),
                HTML.escape(record.recordType ?? ""), record.modified.map { HTML.time($0.timestamp) } ?? "",
                HTML.escape(record.recordChangeTag ?? ""),
            ]
            cells += columns.map { HTML.escape(DashboardValueText.text(record.fields?[$0])) }
            return cells
        }
        body += HTML.table(["Record name", "Type", "Modified", "Change tag"] + columns, rows, id: "records")
        body += "<nav class=\"pager\">"
        body += HTML.link("First page", DashboardPage.root + "/zone", carried(dropping: ["marker", "after"]))
        if let next {
            body += HTML.link(
                "Next page", DashboardPage.root + "/zone", carried(dropping: ["marker", "after"]) + next,
                id: "next-page")
        } else {
            body += "<span class=\"muted\" id=\"last-page\">last page</span>"
        }
        return body + " <span class=\"muted\">\(records.count) record(s) on this page</span></nav>"
    }

    var zoneQuery: [(String, String)] { [("zone", String(zone.row.id))] }

    /// The columns to show: the picked ones, else the first four fields of the type.
    func chosenColumns(fields: [String]) -> [String] {
        let picked = fields.filter { parameters["col.\($0)"] != nil }
        return picked.isEmpty ? Array(fields.prefix(4)) : picked
    }

    /// The current parameters (sorted, so links are stable) without `dropping`.
    func carried(dropping: Set<String>) -> [(String, String)] {
        parameters.filter { !dropping.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private func form(schema: [String: [String: FieldType]], fields: [String], columns: [String]) -> String {
        let types = [("", "all types (by record name)")] + schema.keys.sorted().map { ($0, $0) }
        let system = ["___recordID", "___createTime", "___modTime", "___createdBy", "___modifiedBy"]
        let fieldOptions = [("", "no filter")] + (fields + system).map { ($0, $0) }
        let sortOptions = [("", "record id")] + (fields + system).map { ($0, $0) }
        var out = "<form method=\"get\" action=\"\(DashboardPage.root)/zone\" id=\"filter-form\"><fieldset>"
        out += HTML.hidden("zone", String(zone.row.id))
        out += "<label>Type " + HTML.select("type", types, selected: recordType) + "</label> "
        out += "<label>Filter " + HTML.select("field", fieldOptions, selected: parameters["field"] ?? "") + "</label> "
        out += HTML.select(
            "cmp", Self.comparators.map { ($0.rawValue, $0.rawValue) }, selected: parameters["cmp"] ?? "EQUALS")
        out += " <input name=\"value\" id=\"value\" value=\"\(HTML.escape(parameters["value"] ?? ""))\"> "
        out += "<label>Sort " + HTML.select("sort", sortOptions, selected: parameters["sort"] ?? "") + "</label> "
        let descending = parameters["desc"] == "1" ? " checked" : ""
        out += "<label><input type=\"checkbox\" name=\"desc\" value=\"1\"\(descending)> descending</label> "
        let sizes = [Self.pageSize, 100, Self.maxPageSize].map { (String($0), "\($0) per page") }
        out += HTML.select("size", sizes, selected: String(limit))
        if !fields.isEmpty {
            out += "<br>Columns: "
            for field in fields {
                let mark = columns.contains(field) ? " checked" : ""
                let name = HTML.escape("col.\(field)")
                out +=
                    "<label><input type=\"checkbox\" name=\"\(name)\" value=\"1\"\(mark)> \(HTML.escape(field))</label> "
            }
        }
        out += " <button type=\"submit\" id=\"apply\">Apply</button>"
        out += "<p class=\"muted\">Filters and sorts need a record type; they use the same comparators as "
        out += "records/query. Changing the type keeps the filter only if the field exists.</p>"
        return out + "</fieldset></form>"
    }
}
