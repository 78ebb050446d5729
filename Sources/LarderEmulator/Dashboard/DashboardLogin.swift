import Foundation
import HTTPTypes
import Hummingbird

/// Signing a browser in off loopback: the admin token, typed once into a form, becomes an
/// `HttpOnly`, `SameSite=Strict` cookie that ``RequestGuard`` accepts in place of the header.
///
/// On loopback (the default) no sign-in is needed but for the admin page, which lists every token.
/// `/_emulator/ui/login` is the one control-plane path the guard lets through without the token (its
/// `Host` and `Origin` checks still apply).
struct DashboardLogin: Sendable {
    let adminToken: String

    static let cookieName = "larder_admin"
    static let path = "/_emulator/ui/login"

    func register(on group: RouterGroup<EmulatorRequestContext>) {
        group.get("login") { _, _ in
            var body = "<p>This page (the admin page, which lists every token, or any page of an emulator that "
            body += "listens beyond loopback) needs the admin token that <code>larder serve</code> printed.</p>"
            body +=
                "<form method=\"post\" action=\"\(Self.path)\"><input type=\"password\" name=\"token\" id=\"token\">"
            body += " <button type=\"submit\" id=\"login-button\">Sign in</button></form>"
            return DashboardPage.render(title: "Sign in", body: body)
        }
        group.post("login") { request, _ in
            let form = try await DashboardForm.body(request)
            guard let given = form["token"], RequestGuard.Policy.constantTimeEquals(given, adminToken) else {
                return DashboardPage.failure(title: "Sign in", message: "Wrong admin token.", status: .unauthorized)
            }
            var response = DashboardPage.redirect(DashboardPage.root + "/")
            response.headers[.setCookie] = "\(Self.cookieName)=\(given); Path=/_emulator; HttpOnly; SameSite=Strict"
            return response
        }
    }

    /// The admin token in a `Cookie` header, if any.
    static func token(inCookie header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0] == cookieName { return String(pair[1]) }
        }
        return nil
    }
}
