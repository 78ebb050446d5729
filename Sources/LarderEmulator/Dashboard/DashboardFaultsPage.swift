import Foundation
import LarderCloudKit

/// Fault rules: the same ``FaultRuleSet`` the control plane's `/_emulator/faults` edits; every
/// change is a POST carrying the CSRF token.
enum DashboardFaultsPage {
    static let errorCodes = [
        "THROTTLED", "TRY_AGAIN_LATER", "CONFLICT", "CHANGE_TOKEN_EXPIRED", "INTERNAL_ERROR", "SERVICE_UNAVAILABLE",
        "QUOTA_EXCEEDED", "ZONE_NOT_FOUND", "AUTHENTICATION_REQUIRED",
    ]
    static let operations = [
        "records/modify", "records/query", "records/lookup", "records/changes", "changes/zone", "changes/database",
        "zones/list", "zones/modify", "users/current",
    ]

    static func render(rules: [FaultRule], csrf: String) -> String {
        let rows = rules.map { rule -> [String] in
            let id = rule.id ?? ""
            let remove =
                "<form class=\"inline\" method=\"post\" action=\"\(DashboardPage.root)/faults/remove\">"
                + HTML.hidden("csrf", csrf) + HTML.hidden("id", id)
                + "<button type=\"submit\" id=\"remove-\(HTML.escape(id))\">Remove</button></form>"
            return [
                HTML.escape(id), HTML.escape(rule.operation ?? "any"), HTML.escape(rule.database ?? "any"),
                HTML.escape(rule.error?.rawValue ?? ""), HTML.escape(rule.probability.map { String($0) } ?? "1"),
                HTML.escape(rule.latencyMs.map { "\($0) ms" } ?? ""),
                HTML.escape(rule.remaining.map(String.init) ?? "for ever"), remove,
            ]
        }
        var body = HTML.table(
            ["ID", "Operation", "Database", "Error", "Probability", "Latency", "Remaining", ""], rows, id: "faults")
        body += "<h2>Add a rule</h2>"
        body += "<form method=\"post\" action=\"\(DashboardPage.root)/faults/add\" id=\"add-fault\"><fieldset>"
        body += HTML.hidden("csrf", csrf)
        body +=
            "<label>Operation "
            + HTML.select(
                "operation", [("", "any")] + operations.map { ($0, $0) }, selected: "") + "</label> "
        body +=
            "<label>Database "
            + HTML.select(
                "database", [("", "any"), ("public", "public"), ("private", "private"), ("shared", "shared")],
                selected: "") + "</label> "
        body +=
            "<label>Error "
            + HTML.select(
                "error", [("", "none (latency only)")] + errorCodes.map { ($0, $0) }, selected: "THROTTLED")
            + "</label> "
        body += "<label>Probability <input name=\"probability\" id=\"probability\" value=\"1\" size=\"4\"></label> "
        body += "<label>Latency ms <input name=\"latencyMs\" id=\"latencyMs\" size=\"6\"></label> "
        body += "<label>Retry after s <input name=\"retryAfter\" id=\"retryAfter\" size=\"4\"></label> "
        body += "<label>Times <input name=\"remaining\" id=\"remaining\" size=\"4\" placeholder=\"for ever\"></label> "
        body += "<button type=\"submit\" id=\"add-fault-button\">Add rule</button></fieldset></form>"
        return body
    }

    /// The rule a submitted form describes.
    /// - Throws: `BAD_REQUEST` naming the field that is not a number.
    static func rule(from form: [String: String]) throws(CloudKitServerError) -> FaultRule {
        func number<T: LosslessStringConvertible>(_ name: String, as: T.Type) throws(CloudKitServerError) -> T? {
            guard let text = form[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            guard let value = T(text) else {
                throw CloudKitServerError.badRequest("\(name): '\(text)' is not a number")
            }
            return value
        }
        func text(_ name: String) -> String? { form[name].flatMap { $0.isEmpty ? nil : $0 } }
        return FaultRule(
            operation: text("operation"), database: text("database"),
            probability: try number("probability", as: Double.self),
            error: text("error").map { ServerErrorCode(rawValue: $0) },
            retryAfter: try number("retryAfter", as: Int.self),
            latencyMs: try number("latencyMs", as: Int.self), remaining: try number("remaining", as: Int.self))
    }
}
