import Hummingbird
import LarderCloudKit

extension DashboardController {
    /// `POST record/edit` and `POST record/delete` (``DashboardRecordEditor``): CSRF-checked forms
    /// that answer a 303 back to the record page, or the page's error box.
    func registerEditing(on group: RouterGroup<EmulatorRequestContext>) {
        group.post("record/edit") { request, _ in
            let form = try await self.checkedForm(request)
            return try await self.changeRecord(form, done: "edited \(form["field"] ?? "")") { editor, row, tag in
                try await editor.edit(row, field: form["field"] ?? "", text: form["value"] ?? "", changeTag: tag)
            }
        }
        group.post("record/delete") { request, _ in
            let form = try await self.checkedForm(request)
            guard form["confirm"] == "delete" else {
                return DashboardPage.failure(
                    title: "Delete", message: "Not deleted: tick the box to confirm the delete.")
            }
            return try await self.changeRecord(form, done: "deleted") { editor, row, tag in
                try await editor.delete(row, changeTag: tag)
            }
        }
    }

    /// Finds the form's record, runs `change` on it, and redirects to the record page (which then
    /// shows the tombstone after a delete); a refused change is an error page naming the reason.
    private func changeRecord(
        _ form: [String: String], done: String,
        _ change: (DashboardRecordEditor, RecordRow, String) async throws -> Void
    ) async throws -> Response {
        let name = form["name"] ?? ""
        let zoneID = form["zone"].flatMap { Int64($0) }
        guard let (zone, row) = try await services.store.dashboardRecord(zoneID: zoneID, name: name), !row.isDeleted
        else {
            return DashboardPage.failure(
                title: "Record", message: "No record '\(name)' in that zone.", status: .notFound)
        }
        do {
            try await change(DashboardRecordEditor(zone: zone, services: services), row, form["changeTag"] ?? "")
        } catch let error as CloudKitServerError {
            return DashboardPage.failure(
                title: "\(row.type) \(row.name)", message: "Not changed: \(error.code.rawValue): \(error.reason)",
                status: error.code == .conflict ? .conflict : .badRequest)
        }
        let target = HTML.url(
            DashboardPage.root + "/record", [("zone", String(zone.row.id)), ("name", name), ("done", done)])
        return DashboardPage.redirect(target)
    }
}
