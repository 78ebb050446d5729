/// The live request log: the page is a frame that `dashboard.js` fills by polling
/// `GET /_emulator/requests` (the control plane's own log), newest first; clicking a row shows
/// the whole entry.
enum DashboardRequestsPage {
    static func render() -> String {
        let headers = [
            "#", "Time", "Method", "Operation", "Database", "Auth and user", "Status", "Server error code",
            "Latency", "Fault rule",
        ]
        var body = "<p>Updates live (polls every 0.7 s). Click a row for the whole entry, its request body "
        body += "and its answer (each cut to 4 KiB). "
        body += HTML.link("Fault rules", DashboardPage.root + "/faults") + "</p>"
        body += HTML.table(headers, [], id: "live-log")
        body += "<h2>Selected request</h2><pre id=\"request-detail\">click a row</pre>"
        return body
    }
}
