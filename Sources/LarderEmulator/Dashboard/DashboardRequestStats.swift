/// The request log's last minute, for the hub: requests and errors (status 400 and up), in all and
/// per database, and the latest failed requests.
///
/// The hub's script recomputes the same figures from `GET /_emulator/requests` every two seconds.
struct DashboardRequestStats {
    /// The window counted, in milliseconds.
    static let window: Int64 = 60_000
    /// At most this many failed requests are listed.
    static let errorsListed = 10

    /// Requests and errors in one database (`-` for requests that name none).
    struct Tally: Hashable {
        /// Requests logged in the window.
        var requests = 0
        /// Those answered with status 400 or up.
        var errors = 0
    }

    /// All requests of the window.
    var total = Tally()
    /// The window's requests by database.
    var byDatabase: [String: Tally] = [:]
    /// The latest failed requests of the whole log, newest first.
    var recentErrors: [RequestLogEntry] = []

    /// The figures of `entries` (oldest first, as the log keeps them) as of `now` (epoch ms).
    init(entries: [RequestLogEntry], now: Int64) {
        for entry in entries where entry.timestamp > now - Self.window {
            let failed = entry.status >= 400 ? 1 : 0
            total.requests += 1
            total.errors += failed
            byDatabase[entry.database ?? "-", default: Tally()].requests += 1
            byDatabase[entry.database ?? "-", default: Tally()].errors += failed
        }
        recentErrors = Array(entries.reversed().lazy.filter { $0.status >= 400 }.prefix(Self.errorsListed))
    }

    /// Requests per second over the window.
    var rate: Double { Double(total.requests) / Double(Self.window / 1000) }

    /// The section's HTML: the rate line (which the script keeps current), the table per database,
    /// and the latest failed requests.
    func render() -> String {
        let rateText = "\(total.requests) requests in the last minute (\(Self.format(rate))/s), \(total.errors) errors"
        var out = "<p id=\"request-rate\" class=\"rate\">\(HTML.escape(rateText))</p>"
        let rows = byDatabase.keys.sorted().map { name -> [String] in
            let tally = byDatabase[name] ?? Tally()
            return [HTML.escape(name), String(tally.requests), String(tally.errors)]
        }
        out += HTML.table(["Database", "Requests", "Errors"], rows, id: "request-databases")
        out += "<h3>Latest errors</h3>"
        let errors = recentErrors.map { entry -> [String] in
            [
                HTML.time(entry.timestamp), HTML.escape(entry.operation ?? entry.path),
                HTML.escape(entry.database ?? ""),
                HTML.escape(String(entry.status)), HTML.escape(entry.serverErrorCode ?? ""),
                HTML.escape(entry.faultRule ?? ""),
            ]
        }
        out += HTML.table(
            ["When", "Operation", "Database", "Status", "Server error code", "Fault rule"], errors, id: "recent-errors")
        return out + "<p>" + HTML.link("All requests, live", DashboardPage.root + "/requests") + "</p>"
    }

    /// `value` with one decimal.
    static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
