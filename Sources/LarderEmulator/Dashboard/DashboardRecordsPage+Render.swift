import LarderCloudKit
import LarderCore

extension DashboardRecordsPage {
    /// The filter form, the page of records as a table, and the pager.
    ///
    /// The first column after the record name is the display field (``DashboardDisplayField``: of
    /// the type, or of each record when no type is chosen); then the picked columns, else the
    /// fields most often filled on this page.
    func render(records: [Record], next: [(String, String)]?, schema: [String: [String: FieldType]]) -> String {
        let typeFields = schema[recordType] ?? [:]
        let fields = typeFields.keys.sorted()
        let display = recordType.isEmpty ? nil : DashboardDisplayField.choose(typeFields)
        let columns = chosenColumns(fields: fields.filter { $0 != display }, records: records)
        var body = "<p>" + HTML.link("change feed of this zone", DashboardPage.root + "/changes", zoneQuery)
        body +=
            " · "
            + DashboardExport.link(zone: zone.row.id, type: DashboardExport.isLarderType(recordType) ? recordType : nil)
        body += "</p>"
        body += form(schema: schema, fields: fields, columns: columns)
        let zoneID = String(zone.row.id)
        let rows = records.map { record -> [String] in
            let name = record.recordName ?? ""
            let shown = display ?? DashboardDisplayField.choose(in: record)
            var cells = [
                HTML.link(name, DashboardPage.root + "/record", [("zone", zoneID), ("name", name)]),
                "<span class=\"display\">\(shown.map { DashboardValueHTML.cell(record.fields?[$0]) } ?? "")</span>",
                HTML.escape(record.recordType ?? ""), record.modified.map { HTML.time($0.timestamp) } ?? "",
            ]
            cells += columns.map { DashboardValueHTML.cell(record.fields?[$0]) }
            return cells
        }
        let headers = ["Record name", display.map { "\($0) (title)" } ?? "Title", "Type", "Modified"] + columns
        body += HTML.table(headers, rows, id: "records")
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

    /// The columns to show besides the display field: the picked ones, else the
    /// ``defaultColumns`` fields of `fields` filled most often in `records` (ties by name; fields
    /// that no record on the page fills are left out).
    func chosenColumns(fields: [String], records: [Record]) -> [String] {
        let picked = fields.filter { parameters["col.\($0)"] != nil }
        guard picked.isEmpty else { return picked }
        var filled: [String: Int] = [:]
        for record in records {
            for (name, field) in record.fields ?? [:] where !field.value.saysNothing { filled[name, default: 0] += 1 }
        }
        let ranked = fields.filter { filled[$0] != nil }.sorted { (filled[$0] ?? 0, $1) > (filled[$1] ?? 0, $0) }
        return Array(ranked.prefix(Self.defaultColumns))
    }

    /// How many columns a list shows when none are picked.
    static let defaultColumns = 3

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
