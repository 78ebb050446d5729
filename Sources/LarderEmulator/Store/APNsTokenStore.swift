import GRDB
import LarderCloudKit
import LarderCore

/// `tokens/create` and `tokens/register`: APNs tokens are made and remembered, never used (the
/// emulator delivers no push notifications).
struct APNsTokenStore {
    let call: DatabaseOperationContext

    /// Makes a token for the caller (signed in or not) and answers it with a `webcourierURL` on
    /// the emulator (a long poll that answers `null` after a hold: no push is ever delivered).
    /// - Throws: `BAD_REQUEST` when `apnsEnvironment` is not development or production.
    func create(_ request: APNsTokenRequest, baseURL: String, db: Database) throws -> APNsTokenResponse {
        let environment = try apnsEnvironment(request)
        let token = call.random.hex(bytes: 32)
        try save(token, environment: environment, isRegistered: false, db: db)
        return APNsTokenResponse(
            apnsEnvironment: environment, apnsToken: token,
            webcourierURL: "\(baseURL)/_emulator/webcourier/\(call.container)/\(token)")
    }

    /// Registers a token (one of ours or any other) for the caller.
    /// - Throws: `BAD_REQUEST` when `apnsEnvironment` or `apnsToken` is missing or wrong.
    func register(_ request: APNsTokenRequest, db: Database) throws -> APNsTokenResponse {
        let environment = try apnsEnvironment(request)
        guard let token = request.apnsToken, !token.isEmpty else {
            throw call.error(.badRequest, "apnsToken is required")
        }
        // An APNs device token is 32 bytes (64 hex digits); a 1 MB one is no token.
        guard token.utf8.count <= Self.maxTokenBytes else {
            throw call.error(
                .badRequest, "apnsToken is \(token.utf8.count) bytes; the emulator takes at most \(Self.maxTokenBytes)")
        }
        try save(token, environment: environment, isRegistered: true, db: db)
        return APNsTokenResponse(apnsEnvironment: environment, apnsToken: token)
    }

    private func apnsEnvironment(_ request: APNsTokenRequest) throws(CloudKitServerError) -> String {
        guard let environment = request.apnsEnvironment, ["development", "production"].contains(environment) else {
            throw call.error(
                .badRequest,
                "apnsEnvironment must be \"development\" or \"production\", got \(request.apnsEnvironment.map { "\"\($0)\"" } ?? "nothing")"
            )
        }
        return environment
    }

    /// The longest token `tokens/register` takes.
    static let maxTokenBytes = 256
    /// Tokens kept per caller (or per API token alone) in a container and environment: the oldest
    /// go first (unlimited rows before).
    static let maxTokensPerOwner = 64

    private func save(_ token: String, environment: String, isRegistered: Bool, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO apnsToken (container, environment, apnsToken, apnsEnvironment, owner, isRegistered, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (container, environment, apnsToken, owner)
                DO UPDATE SET apnsEnvironment = excluded.apnsEnvironment, isRegistered = max(isRegistered, excluded.isRegistered)
                """,
            arguments: [
                call.container, call.environment, token, environment, call.caller.userRecordName ?? "", isRegistered,
                call.nowMilliseconds,
            ])
        try db.execute(
            sql: """
                DELETE FROM apnsToken WHERE rowid IN (
                    SELECT rowid FROM apnsToken WHERE container = ? AND environment = ? AND owner = ?
                    ORDER BY createdAt DESC, rowid DESC LIMIT -1 OFFSET ?)
                """,
            arguments: [
                call.container, call.environment, call.caller.userRecordName ?? "", Self.maxTokensPerOwner,
            ])
    }
}
