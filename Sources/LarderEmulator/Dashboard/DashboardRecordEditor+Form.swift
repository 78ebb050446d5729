import Foundation
import LarderCloudKit
import LarderCore

extension DashboardRecordEditor {
    /// The edit and delete forms of one record page; each carries the CSRF token and the change
    /// tag the page showed.
    struct Form {
        /// The record's zone.
        let zone: DashboardZone
        /// The record as the page shows it (its change tag goes into the forms).
        let row: RecordRow
        /// This run's CSRF token.
        let csrf: String

        /// The hidden fields every form of the record carries.
        private var hiddenFields: String {
            HTML.hidden("csrf", csrf) + HTML.hidden("zone", String(zone.row.id)) + HTML.hidden("name", row.name)
                + HTML.hidden("changeTag", row.changeTag)
        }

        /// A folded form that sets `name` to a new value, for the field types
        /// ``DashboardRecordEditor/editable`` lists; empty for any other field or a deleted record.
        func editField(_ name: String, _ field: RecordField?) -> String {
            guard !row.isDeleted, let field, let type = field.type?.canonical, editable.contains(type) else {
                return ""
            }
            let current = Self.formText(field)
            let rows = min(max(current.split(separator: "\n").count, 1), 16)
            var out = "<details class=\"edit\"><summary>edit</summary>"
            out +=
                "<form method=\"post\" action=\"\(DashboardPage.root)/record/edit\" id=\"\(HTML.escape("edit-" + name))\">"
            out += hiddenFields + HTML.hidden("field", name)
            out += "<textarea name=\"value\" rows=\"\(rows)\" cols=\"60\">\(HTML.escape(current))</textarea><br>"
            if type == .timestamp { out += "<span class=\"muted\">ISO-8601 or epoch milliseconds</span> " }
            return out + "<button type=\"submit\">Save</button></form></details>"
        }

        /// The delete form: a checkbox to confirm (checked again on the server) and the button.
        func delete() -> String {
            var out =
                "<form method=\"post\" action=\"\(DashboardPage.root)/record/delete\" id=\"delete-form\"><fieldset>"
            out += hiddenFields
            out += "<label><input type=\"checkbox\" name=\"confirm\" value=\"delete\" id=\"delete-confirm\"> "
            out += "delete this record (as records/modify does: the change feed reports it)</label> "
            return out + "<button type=\"submit\" id=\"delete-button\">Delete record</button></fieldset></form>"
        }

        /// The text a form shows for `field`'s value: a timestamp in ISO-8601 (milliseconds kept).
        static func formText(_ field: RecordField) -> String {
            switch (field.type?.canonical, field.value) {
            case (.timestamp?, .int(let milliseconds)):
                return Timestamp.format(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            case (.timestamp?, .double(let milliseconds)):
                return Timestamp.format(Date(timeIntervalSince1970: milliseconds / 1000))
            case (_, .string(let text)): return text
            default: return DashboardValueText.text(field)
            }
        }
    }
}
