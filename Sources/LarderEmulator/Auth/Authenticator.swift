import Foundation
import LarderCloudKit
import Synchronization

/// Checks a request's credentials: an API token with an optional web-auth token in the query
/// string, or a server-to-server signature in the headers.
///
/// - No API token and no signature: `AUTHENTICATION_REQUIRED` (421) with a `redirectURL`.
/// - A wrong API token, web-auth token, key ID or signature, or a date outside the allowed skew:
///   `AUTHENTICATION_FAILED` (401).
/// - A server key on the private or shared database: `ACCESS_DENIED` (403).
/// Web-auth tokens rotate: every answer to a signed-in user carries a fresh token (header
/// `X-Apple-CloudKit-Web-Auth-Token`), valid for `webAuthTokenLifetimeSeconds`; with
/// `singleUseWebAuthTokens` each minted token works once.
final class Authenticator: Sendable {
    static let webAuthTokenHeader = "X-Apple-CloudKit-Web-Auth-Token"

    struct Credentials: Sendable {
        var apiToken: String?
        var webAuthToken: String?
        var keyID: String?
        var signatureDate: String?
        var signature: String?
    }

    private let configuration: EmulatorConfiguration
    private let minted = Mutex<[String: (user: String, expires: Int64)]>([:])
    /// With `refuseReplays`: (key ID, date, canonical signature) → when it leaves the skew window (ms).
    private let seenSignatures = Mutex<(entries: [String: Int64], purgeAt: Int)>(([:], 1024))

    init(configuration: EmulatorConfiguration) {
        self.configuration = configuration
    }

    /// Authenticates one request.
    func authenticate(
        _ credentials: Credentials, scope: DatabaseEndpoint.Scope, path: String, body: Data, baseURL: String,
        nowMilliseconds: Int64
    ) throws(CloudKitServerError) -> Caller {
        if let keyID = credentials.keyID {
            guard credentials.apiToken == nil else {
                throw CloudKitServerError(
                    .authenticationFailed, "send an API token or a server-to-server signature, not both")
            }
            guard let key = configuration.serverKeys.first(where: { $0.keyID == keyID }) else {
                throw CloudKitServerError(.authenticationFailed, "Authentication failed: unknown key ID")
            }
            guard let dateText = credentials.signatureDate, let date = RequestSigner.parseISO8601(dateText) else {
                throw CloudKitServerError(
                    .authenticationFailed, "Authentication failed: missing or malformed \(RequestSigner.dateHeader)")
            }
            let skew = abs(date.timeIntervalSince1970 - Double(nowMilliseconds) / 1000)
            guard skew <= Double(configuration.signatureSkewSeconds) else {
                throw CloudKitServerError(
                    .authenticationFailed,
                    "Authentication failed: request date is \(Int(skew)) s off (limit \(configuration.signatureSkewSeconds) s)"
                )
            }
            guard let signature = credentials.signature,
                RequestSigner.isValidSignature(
                    signature, publicKeyPEM: key.publicKeyPEM, date: dateText, body: body, path: path)
            else {
                throw CloudKitServerError(.authenticationFailed, "Authentication failed: bad signature")
            }
            if configuration.refuseReplays {
                // Apple's scheme has no nonce; an exact (key, date, signature) triple is accepted once.
                let canonical = RequestSigner.canonicalSignature(signature)?.base64EncodedString() ?? signature
                let expires =
                    Int64(date.timeIntervalSince1970 * 1000) + Int64(configuration.signatureSkewSeconds) * 1000
                let isReplay = seenSignatures.withLock { seen in
                    let key = "\(keyID) \(dateText) \(canonical)"
                    if seen.entries[key] != nil { return true }
                    if seen.entries.count >= seen.purgeAt {
                        seen.entries = seen.entries.filter { $0.value >= nowMilliseconds }
                        seen.purgeAt = max(1024, seen.entries.count * 2)
                    }
                    seen.entries[key] = expires
                    return false
                }
                if isReplay {
                    throw CloudKitServerError(
                        .authenticationFailed, "Authentication failed: this signed request was already used (replay)")
                }
            }
            guard scope == .public else {
                throw CloudKitServerError(.accessDenied, "server-to-server keys can only access the public database")
            }
            return Caller(
                userRecordName: key.userRecordName ?? configuration.users.first?.userRecordName
                    ?? DatabaseOperationContext.publicOwner,
                isServerKey: true)
        }
        let redirect = Authenticator.signInURL(baseURL: baseURL)
        guard let apiToken = credentials.apiToken else {
            throw CloudKitServerError(.authenticationRequired, "request needs authorization", redirectURL: redirect)
        }
        guard EmulatorConfiguration.isAPIToken(apiToken),
            configuration.apiTokens.contains(apiToken.lowercased())
                || configuration.apiTokens.contains(apiToken)
        else {
            throw CloudKitServerError(.authenticationFailed, "Authentication failed: unknown API token")
        }
        guard let webAuthToken = credentials.webAuthToken, !webAuthToken.isEmpty else {
            guard scope == .public else {
                throw CloudKitServerError(.authenticationRequired, "request needs authorization", redirectURL: redirect)
            }
            return .anonymous
        }
        if let user = configuration.users.first(where: { $0.webAuthToken == webAuthToken }) {
            return Caller(userRecordName: user.userRecordName)
        }
        let user: String? = minted.withLock { tokens in
            guard let entry = tokens[webAuthToken], entry.expires > nowMilliseconds else {
                tokens[webAuthToken] = nil
                return nil
            }
            if configuration.singleUseWebAuthTokens { tokens[webAuthToken] = nil }
            return entry.user
        }
        guard let user else {
            // A session that ended is one to start again: AUTHENTICATION_REQUIRED with the sign-in
            // URL, the one answer on which CloudKit JS shows its sign-in button again (an
            // AUTHENTICATION_FAILED left a web app signed out with no way back in). See
            // docs/emulator.md, "Where CloudKit JS and the reference disagree".
            throw CloudKitServerError(
                .authenticationRequired, "the web-auth token is unknown or has expired; sign in again",
                redirectURL: redirect)
        }
        return Caller(userRecordName: user)
    }

    /// The `redirectURL` of every `AUTHENTICATION_REQUIRED`: the emulator's stand-in for Apple ID sign-in.
    static func signInURL(baseURL: String) -> String { "\(baseURL)/_emulator/signin" }

    /// A fresh web-auth token for `user`, for the response.
    func mint(for user: String, nowMilliseconds: Int64) -> String {
        let token = Secrets.webAuthToken()
        let expires = nowMilliseconds + Int64(configuration.webAuthTokenLifetimeSeconds) * 1000
        minted.withLock { tokens in
            if tokens.count > 10_000 { tokens = tokens.filter { $0.value.expires > nowMilliseconds } }
            tokens[token] = (user, expires)
        }
        return token
    }
}

/// Splits a query string without turning `+` into a space (CloudKit tokens contain `+`).
enum QueryString {
    static func parse(_ query: String?) -> [String: String] {
        guard let query, !query.isEmpty else { return [:] }
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            result[key] = value
        }
        return result
    }
}
