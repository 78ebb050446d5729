/// Users, API tokens and server keys of the configuration; reset, export and import.
///
/// Reset is a POST with the CSRF token and the word `reset` typed into a confirmation box (checked on
/// the server); import posts the chosen file to `/_emulator/import` as JSON after the word `import`
/// is typed; export is a download link (it changes nothing).
enum DashboardAdminPage {
    static func render(configuration: EmulatorConfiguration, csrf: String, notice: String?) -> String {
        var body = notice.map { "<p class=\"notice\" id=\"notice\">\(HTML.escape($0))</p>" } ?? ""
        body += "<h2>Users</h2>"
        body += HTML.table(
            ["Name", "Email", "User record name", "Web-auth token"],
            configuration.users.map { user in
                [
                    HTML.escape([user.firstName, user.lastName].compactMap { $0 }.joined(separator: " ")),
                    HTML.escape(user.emailAddress ?? ""), HTML.escape(user.userRecordName),
                    "<code>\(HTML.escape(user.webAuthToken))</code>",
                ]
            }, id: "users")
        body += "<h2>API tokens</h2>"
        body += HTML.table(
            ["API token"], configuration.apiTokens.map { ["<code>\(HTML.escape($0))</code>"] }, id: "tokens")
        body += "<h2>Server keys</h2>"
        body += HTML.table(
            ["Key ID", "Acts as"],
            configuration.serverKeys.map { [HTML.escape($0.keyID), HTML.escape($0.userRecordName ?? "")] },
            id: "server-keys")
        body += "<h2>Containers</h2><p>" + HTML.escape(configuration.containers.joined(separator: ", ")) + "</p>"
        body += "<h2>Reset</h2>"
        body += "<form method=\"post\" action=\"\(DashboardPage.root)/reset\" id=\"reset-form\"><fieldset>"
        body += HTML.hidden("csrf", csrf)
        body += "Deletes every record, zone, share and schema entry, the request log and the fault rules. "
        body += "<label>Type <code>reset</code> to confirm: <input name=\"confirm\" id=\"reset-confirm\"></label> "
        body += "<button type=\"submit\" id=\"reset-button\">Reset the emulator</button></fieldset></form>"
        body += "<h2>Export and import</h2>"
        body += "<p>" + HTML.link("Download the whole state as JSON", "/_emulator/export", id: "export-link") + "</p>"
        body += "<form id=\"import-form\"><fieldset>Replaces the whole state with an exported file. "
        body += "<input type=\"file\" id=\"import-file\" accept=\"application/json\"> "
        body += "<label>Type <code>import</code> to confirm: <input id=\"import-confirm\"></label> "
        body += "<button type=\"submit\" id=\"import-button\">Import</button> <span id=\"import-status\"></span>"
        return body + "</fieldset></form>"
    }
}
