import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The frame every dashboard page shares, and the HTML, CSS and JavaScript responses.
///
/// Pages are rendered on the server by Swift string building through ``HTML/escape(_:)``; the
/// `Content-Security-Policy` allows only the dashboard's own script and stylesheet, so even a
/// markup mistake could not run an injected inline script.
enum DashboardPage {
    static let root = "/_emulator/ui"

    /// The navigation bar and a page body in the shared layout; `refresh` reloads the page after
    /// that many seconds (a `<meta>` refresh: no script needed).
    static func render(title: String, body: String, refresh: Int? = nil) -> Response {
        let links = [
            ("Zones", "/"), ("Requests", "/requests"), ("Faults", "/faults"), ("Users & data", "/admin"),
        ]
        let nav = links.map { label, path in HTML.link(label, root + path) }.joined(separator: " ")
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <title>\(HTML.escape(title)) · Larder emulator</title>
            <link rel="icon" href="data:,">\(refresh.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? "")
            <link rel="stylesheet" href="\(root)/assets/dashboard.css">
            </head><body>
            <header><strong>Larder emulator</strong> \(nav)</header>
            <main><h1>\(HTML.escape(title))</h1>
            \(body)
            </main>
            <script src="\(root)/assets/dashboard.js"></script>
            </body></html>
            """
        return make(page, contentType: "text/html; charset=utf-8")
    }

    /// An error box (escaped) inside the layout, with the status given.
    static func failure(title: String, message: String, status: HTTPResponse.Status = .badRequest) -> Response {
        var response = render(title: title, body: "<p class=\"error\" id=\"page-error\">\(HTML.escape(message))</p>")
        response.status = status
        return response
    }

    /// A 303 to `location` (after a POST, so a reload does not repeat it).
    static func redirect(_ location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Response(status: .seeOther, headers: headers)
    }

    static func make(_ text: String, contentType: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name.constant("X-Content-Type-Options")] = "nosniff"
        headers[HTTPField.Name.constant("Content-Security-Policy")] =
            "default-src 'self'; img-src * data:; script-src 'self'; style-src 'self'; frame-ancestors 'none'"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// A dashboard page before it becomes a response (what the tests read).
enum DashboardContent {
    case page(title: String, body: String, refresh: Int? = nil)
    case failure(title: String, message: String, status: HTTPResponse.Status = .badRequest)

    var response: Response {
        switch self {
        case .page(let title, let body, let refresh): DashboardPage.render(title: title, body: body, refresh: refresh)
        case .failure(let title, let message, let status):
            DashboardPage.failure(title: title, message: message, status: status)
        }
    }
}
