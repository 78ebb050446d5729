import Foundation
import Hummingbird
import LarderCloudKit

/// Query strings and `application/x-www-form-urlencoded` bodies (`+` is a space), and the CSRF check.
enum DashboardForm {
    /// The largest form body read.
    static let maxBytes = 1 << 20

    static func parse(_ text: String?) -> [String: String] {
        QueryString.parse(text?.replacingOccurrences(of: "+", with: "%20"))
    }

    static func query(_ request: Request) -> [String: String] { parse(request.uri.query) }

    /// The submitted form.
    static func body(_ request: Request) async throws -> [String: String] {
        let buffer = try await RequestBodyReader.collect(request, upTo: maxBytes)
        return parse(String(decoding: buffer.readableBytesView, as: UTF8.self))
    }
}

extension DashboardController {
    /// The submitted form, once its `csrf` field is this run's token.
    /// - Throws: `ACCESS_DENIED` (403) when the token is missing or wrong.
    func checkedForm(_ request: Request) async throws -> [String: String] {
        let form = try await DashboardForm.body(request)
        guard let given = form["csrf"], RequestGuard.Policy.constantTimeEquals(given, csrfToken) else {
            throw CloudKitServerError(
                .accessDenied, "the dashboard form has no valid CSRF token; reload the page and try again")
        }
        return form
    }
}
