import Foundation
import GRDB
package import LarderCloudKit
package import LarderCore

/// Who is calling: a signed-in user, a server key acting as its creator, or nobody (API token only).
package struct Caller: Sendable, Hashable {
    /// The signed-in user (or the server key's creator), nil for nobody.
    var userRecordName: String?
    /// Whether a server-to-server key signed the request.
    var isServerKey: Bool = false

    /// A caller acting as `userRecordName` (nil: nobody signed in).
    package init(userRecordName: String?, isServerKey: Bool = false) {
        self.userRecordName = userRecordName
        self.isServerKey = isServerKey
    }

    static let anonymous = Caller(userRecordName: nil)
}

/// Everything one database request's operation needs besides its body.
package struct DatabaseOperationContext: Sendable {
    /// The container, environment and database the request names.
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

    /// The context of one request by `caller` at `nowMilliseconds`, from `deviceID`.
    package init(
        endpoint: DatabaseEndpoint, caller: Caller, configuration: EmulatorConfiguration, nowMilliseconds: Int64,
        deviceID: String, random: RandomSource, signInURL: String? = nil
    ) {
        self.endpoint = endpoint
        self.caller = caller
        self.configuration = configuration
        self.nowMilliseconds = nowMilliseconds
        self.deviceID = deviceID
        self.random = random
        self.signInURL = signInURL
    }

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
