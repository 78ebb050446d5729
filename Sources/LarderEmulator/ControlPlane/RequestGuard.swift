import Foundation
import HTTPTypes
import Hummingbird
import LarderCloudKit

/// Keeps web pages out: DNS rebinding (a foreign `Host`) and cross-origin requests cannot reach the
/// emulator, and the `/_emulator/` control plane needs a JSON body and, off loopback, the admin token.
///
/// - Control plane: `Host` must be a loopback name or address (`localhost`, `127.x.x.x`, `[::1]`, any
///   port) or the configured non-loopback `host` (any `Host` when bound to a wildcard address), else
///   403 `ACCESS_DENIED`; an `Origin`, when present, must be a loopback origin, else 403; a
///   `Content-Type` other than `application/json`, or a body without one, is 415; the admin token
///   (`Authorization: Bearer …` or `X-Larder-Admin-Token`) is required, 401 `AUTHENTICATION_FAILED`
///   without it, unless the peer and the `Host` are both loopback and the server is bound to loopback.
/// - CloudKit API: a foreign `Host` is 403 when the server is bound to loopback.
struct RequestGuard: RouterMiddleware {
    typealias Context = EmulatorRequestContext
    let policy: Policy

    /// The decision, apart from the transport so it can be tested alone.
    struct Policy: Sendable {
        /// The configured bind address.
        var host: String
        /// The admin token.
        var adminToken: String

        static let adminTokenHeader = "X-Larder-Admin-Token"
        static let adminTokenField = HTTPField.Name.constant(adminTokenHeader)

        /// The server listens on loopback only.
        var isLoopbackBinding: Bool { Policy.isLoopback(hostName: host) }

        /// Bound to every address (`0.0.0.0`, `::`): any `Host` may name it.
        var isWildcardBinding: Bool { ["0.0.0.0", "::", "[::]", ""].contains(host) }

        struct Refusal: Error, Equatable {
            var status: Int
            var code: ServerErrorCode
            var reason: String
        }

        /// Why a request must be refused, or nil.
        func refusal(
            path: String, authority: String?, origin: String?, contentType: String?, hasBody: Bool,
            authorization: String?, adminTokenHeader: String?, isLoopbackPeer: Bool, cookieToken: String? = nil,
            method: String = "GET"
        ) -> Refusal? {
            // One spelling for the decision: `//_emulator/reset` reaches the reset handler (the router
            // drops empty segments), so it must meet the control plane's rules too.
            let path = Policy.canonicalPath(path)
            let isControlPlane = path == "/_emulator" || path.hasPrefix("/_emulator/")
            let hostName = authority.map(Policy.hostName(ofAuthority:))
            let isLoopbackHost = hostName.map(Policy.isLoopback(hostName:)) ?? false
            let isConfiguredHost =
                !isLoopbackBinding && (isWildcardBinding || hostName == Policy.hostName(ofAuthority: host))
            guard isControlPlane else {
                // DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends `Host: evil.example`.
                if isLoopbackBinding, authority != nil, !isLoopbackHost {
                    return Refusal(
                        status: 403, code: .accessDenied, reason: "Host '\(authority ?? "")' is not this emulator")
                }
                return nil
            }
            guard isLoopbackHost || isConfiguredHost else {
                return Refusal(
                    status: 403, code: .accessDenied,
                    reason:
                        "the control plane answers only to a loopback Host (localhost, 127.0.0.1, [::1]); got '\(authority ?? "")'"
                )
            }
            if let origin, !Policy.isLoopbackOrigin(origin) {
                return Refusal(
                    status: 403, code: .accessDenied,
                    reason: "cross-origin requests to the control plane are refused (Origin '\(origin)')")
            }
            var given = adminTokenHeader
            if given == nil, let authorization, authorization.lowercased().hasPrefix("bearer ") {
                given = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
            }
            let hasToken = (given ?? cookieToken).map { Policy.constantTimeEquals($0, adminToken) } ?? false
            let changesState = !["GET", "HEAD", "OPTIONS"].contains(method.uppercased())
            // A page on another loopback port is another origin: it may not change the emulator.
            if changesState, let origin, !Policy.isSameOrigin(origin, authority: authority) {
                return Refusal(
                    status: 403, code: .accessDenied,
                    reason:
                        "the control plane takes changes only from the emulator's own pages (Origin '\(origin)' is another origin)"
                )
            }
            if let refusal = Policy.mediaTypeRefusal(path: path, contentType: contentType, hasBody: hasBody) {
                return refusal
            }
            // A POST is the one change a page can send without a CORS preflight (a bodiless no-cors
            // form post has no Content-Type): it needs `application/json`, which forces the
            // preflight, or the admin token. The dashboard's own form posts carry a CSRF token.
            if method.uppercased() == "POST", !hasToken, !path.hasPrefix(DashboardPage.root + "/"),
                !Policy.isJSON(contentType)
            {
                return Refusal(
                    status: 415, code: .badRequest,
                    reason: "a control-plane POST needs Content-Type: application/json (or the admin token)")
            }
            // The dashboard's sign-in form checks the token itself. The admin page shows every token
            // of the emulator: on loopback too it needs the token or the dashboard's sign-in (any
            // local account could read it before).
            let exempt =
                (isLoopbackBinding && isLoopbackPeer && isLoopbackHost && !Policy.isAdminPage(path))
                || path == DashboardLogin.path
            if !exempt {
                guard hasToken else {
                    return Refusal(
                        status: 401, code: .authenticationFailed,
                        reason:
                            "the control plane needs the admin token (Authorization: Bearer <token> or \(Policy.adminTokenHeader)); `larder serve` prints it; browsers sign in at \(DashboardLogin.path)"
                    )
                }
            }
            return nil
        }

        /// `path` in the one spelling the guard decides on: percent-escapes decoded (until none is left),
        /// empty and `.` segments dropped, `..` taking the previous segment away, ASCII letters lowercased.
        ///
        /// The router drops empty segments (`//_emulator/reset` reaches the reset handler) and matches
        /// case-sensitively; this spelling maps every path the router could send to a control-plane
        /// handler, and some it would not (those answer 404 behind the guard), onto `/_emulator/…`.
        static func canonicalPath(_ path: String) -> String {
            var text = path
            // Each round decodes one layer (`%252F` → `%2F` → `/`); a path has few layers.
            for _ in 0..<8 {
                guard text.contains("%"), let decoded = text.removingPercentEncoding, decoded != text else { break }
                text = decoded
            }
            var segments: [Substring] = []
            for segment in text.split(whereSeparator: { $0 == "/" || $0 == "\\" }) {
                switch segment {
                case ".": continue
                case "..": _ = segments.popLast()
                default: segments.append(segment)
                }
            }
            return "/" + segments.joined(separator: "/").lowercased()
        }

        /// Whether `path` (canonical) is the dashboard's admin page, which lists every token.
        static func isAdminPage(_ path: String) -> Bool { path == DashboardPage.root + "/admin" }

        /// Whether `contentType` names `application/json`.
        static func isJSON(_ contentType: String?) -> Bool {
            contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                == "application/json"
        }

        /// Whether `origin` (`scheme://host[:port]`) names the same host and port as the request's `Host`.
        static func isSameOrigin(_ origin: String, authority: String?) -> Bool {
            guard let authority else { return false }
            let lowered = origin.lowercased()
            // The emulator serves plain http: an https origin is another origin, whatever its host.
            for (scheme, port) in [("http://", "80")] where lowered.hasPrefix(scheme) {
                var originAuthority = String(lowered.dropFirst(scheme.count).prefix { $0 != "/" })
                var hostAuthority = authority.lowercased()
                if hostName(ofAuthority: originAuthority) == originAuthority.trimmingCharacters(in: ["[", "]"]) {
                    originAuthority += ":" + port
                }
                if hostName(ofAuthority: hostAuthority) == hostAuthority.trimmingCharacters(in: ["[", "]"]) {
                    hostAuthority += ":" + port
                }
                return originAuthority == hostAuthority
            }
            return false
        }

        /// JSON bodies only, and form posts on the dashboard's own paths (which carry a CSRF token).
        static func mediaTypeRefusal(path: String, contentType: String?, hasBody: Bool) -> Refusal? {
            let refusal = Refusal(
                status: 415, code: .badRequest, reason: "the control plane accepts only Content-Type: application/json")
            guard let contentType else { return hasBody ? refusal : nil }
            let mediaType = contentType.split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            if mediaType == "application/json" { return nil }
            let isDashboard = path.hasPrefix(DashboardPage.root + "/")
            return isDashboard && mediaType == "application/x-www-form-urlencoded" ? nil : refusal
        }

        /// `host` of `host:port`, `[v6]:port`, `host`; lowercased, without brackets or a trailing dot.
        static func hostName(ofAuthority authority: String) -> String {
            var text = authority.lowercased()
            if text.hasPrefix("[") {
                text = String(text.dropFirst().prefix { $0 != "]" })
            } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
                text = String(text[..<colon])
            }
            if text.hasSuffix(".") { text.removeLast() }
            return text
        }

        /// The `host[:port]` the emulator names in the URLs it hands out (the sign-in `redirectURL`,
        /// asset upload and download URLs, the notification URL): the request's `Host` when it names
        /// this emulator, else the configured address.
        ///
        /// The `Host` names this emulator when it is a well-formed authority (a DNS name or IP
        /// address, an optional port) and a loopback name, the configured host, or anything when the
        /// server is bound to every address. Anything else (a foreign name on a specific address,
        /// text that is no authority) would put a URL of the caller's choosing into the answer.
        func advertisedAuthority(requestAuthority: String?, port: Int) -> String {
            let configured = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
            guard let authority = requestAuthority, Policy.isWellFormedAuthority(authority) else { return configured }
            let name = Policy.hostName(ofAuthority: authority)
            if Policy.isLoopback(hostName: name) || isWildcardBinding || name == Policy.hostName(ofAuthority: host) {
                return authority
            }
            return configured
        }

        /// `name`, `name:port`, `[v6]` or `[v6]:port`, where a name has only letters, digits, `-` and
        /// `.` (IPv4 included), and a port 1-5 digits.
        static func isWellFormedAuthority(_ authority: String) -> Bool {
            let bytes = Array(authority.utf8)
            guard !bytes.isEmpty, bytes.count <= 261 else { return false }
            var i = 0
            if bytes[0] == UInt8(ascii: "[") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return false }
                for b in bytes[1..<close] {
                    guard isHexDigit(b) || b == UInt8(ascii: ":") || b == UInt8(ascii: ".") else { return false }
                }
                i = close + 1
            } else {
                while i < bytes.count, bytes[i] != UInt8(ascii: ":") {
                    let b = bytes[i]
                    guard
                        isHexDigit(b) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
                            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
                    else { return false }
                    i += 1
                }
                guard i > 0 else { return false }
            }
            guard i < bytes.count else { return true }
            guard bytes[i] == UInt8(ascii: ":"), (2...6).contains(bytes.count - i) else { return false }
            return bytes[(i + 1)...].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }

        private static func isHexDigit(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
        }

        /// `localhost`, `127.x.x.x` and `::1`.
        static func isLoopback(hostName: String) -> Bool {
            let name = hostName.hasPrefix("[") ? Policy.hostName(ofAuthority: hostName) : hostName.lowercased()
            if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
            let octets = name.split(separator: ".", omittingEmptySubsequences: false)
            return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        }

        /// `http(s)://` + a loopback host (any port).
        static func isLoopbackOrigin(_ origin: String) -> Bool {
            let lowered = origin.lowercased()
            for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
                let authority = lowered.dropFirst(scheme.count).prefix { $0 != "/" }
                return isLoopback(hostName: hostName(ofAuthority: String(authority)))
            }
            return false
        }

        static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
            let left = Array(a.utf8)
            let right = Array(b.utf8)
            guard left.count == right.count, !right.isEmpty else { return false }
            var difference: UInt8 = 0
            for index in left.indices { difference |= left[index] ^ right[index] }
            return difference == 0
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let headers = request.headers
        let hasBody = (headers[.contentLength].flatMap { Int($0) } ?? 0) > 0 || headers[.transferEncoding] != nil
        let refusal = policy.refusal(
            path: request.uri.path, authority: request.head.authority, origin: headers[.origin],
            contentType: headers[.contentType], hasBody: hasBody, authorization: headers[.authorization],
            adminTokenHeader: headers[Policy.adminTokenField], isLoopbackPeer: context.isLoopbackPeer,
            cookieToken: DashboardLogin.token(inCookie: headers[.cookie]), method: request.method.rawValue)
        guard let refusal else { return try await next(request, context) }
        // A browser sent to a page it may not see yet gets the sign-in form, not a JSON error.
        let canonical = Policy.canonicalPath(request.uri.path)
        if refusal.status == 401, request.method == .get,
            canonical == DashboardPage.root || canonical.hasPrefix(DashboardPage.root + "/")
        {
            return DashboardPage.redirect(DashboardLogin.path)
        }
        // Read the refused body to its end so a `Connection: close` client gets the answer and the close.
        if hasBody { for try await _ in request.body {} }
        var response = try CloudKitServerError(refusal.code, refusal.reason).response(from: request, context: context)
        response.status = HTTPResponse.Status(code: refusal.status)
        return response
    }
}
