import Foundation
import GRDB
import LarderCloudKit
import LarderCore

/// Who is calling: a signed-in user, a server key acting as its creator, or nobody (API token only).
struct Caller: Sendable, Hashable {
    var userRecordName: String?
    var isServerKey: Bool = false

    static let anonymous = Caller(userRecordName: nil)
}

/// Everything one database request's operation needs besides its body.
struct DatabaseOperationContext: Sendable {
    var endpoint: DatabaseEndpoint
    var caller: Caller
    var configuration: EmulatorConfiguration
    var nowMilliseconds: Int64
    var deviceID: String
    /// Where record names, share ids and error uuids come from.
    var random: RandomSource
    /// Where a caller without a user signs in: every `AUTHENTICATION_REQUIRED` carries it as `redirectURL`.
    var signInURL: String?
    var numbersAsStrings = false
    /// How to write upload and download URLs (nil: asset fields answer without a `downloadURL`).
    var assetLinks: AssetLinks?

    var limits: EmulatorConfiguration.Limits { configuration.limits }
    var container: String { endpoint.container }
    var environment: String { endpoint.environment.rawValue }
    var scope: DatabaseEndpoint.Scope { endpoint.database }
    var isProduction: Bool { endpoint.environment == .production }

    /// The signed-in user's record name.
    /// - Throws: `AUTHENTICATION_REQUIRED` when nobody is signed in.
    func requireUser() throws(CloudKitServerError) -> String {
        guard let user = caller.userRecordName else {
            throw CloudKitServerError(.authenticationRequired, "request needs authorization", redirectURL: signInURL)
        }
        return user
    }

    func error(_ code: ServerErrorCode, _ reason: String) -> CloudKitServerError {
        CloudKitServerError(code, reason, uuid: random.uuid())
    }

    /// The page size to use: `requested` clamped to the configured maximum.
    func pageSize(_ requested: Int?) throws(CloudKitServerError) -> Int {
        guard let requested, requested != 0 else { return limits.maxRecordsPerPage }
        guard requested > 0 else { throw error(.badRequest, "resultsLimit must be positive, got \(requested)") }
        return min(requested, limits.maxRecordsPerPage)
    }

    /// The owner record name of the public database's zones.
    static let publicOwner = "_defaultOwner"
}
