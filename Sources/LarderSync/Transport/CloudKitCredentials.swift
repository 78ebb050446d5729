public import Foundation
public import LarderCloudKit

/// How requests prove who they are: an API token with a web-auth token (a signed-in user,
/// private and public databases), an API token alone (public, read-only), or a server-to-server
/// key (public database).
public enum CloudKitCredentials: Sendable {
    /// `?ckAPIToken=…&ckWebAuthToken=…`.
    case apiToken(String, webAuthToken: String?)
    /// Signed with `RequestSigner` (ECDSA P-256).
    case serverKey(RequestSigner)
    /// No credentials (the server answers `AUTHENTICATION_REQUIRED`).
    case none
}

/// Where the records go: the server, the container, environment, database and zone.
public struct CloudKitTarget: Sendable, Hashable {
    /// The server's base URL (`https://api.apple-cloudkit.com`, or a `larder serve` URL).
    public var baseURL: URL
    /// Container, environment, database.
    public var endpoint: DatabaseEndpoint
    /// The zone (custom zones live in the private database; the public one has only the default).
    public var zoneID: RecordZoneID

    /// Creates a target.
    public init(baseURL: URL, endpoint: DatabaseEndpoint, zoneID: RecordZoneID) {
        self.baseURL = baseURL
        self.endpoint = endpoint
        self.zoneID = zoneID
    }

    /// A stable text naming the target, for journals and state files:
    /// `http://127.0.0.1:8787/database/1/iCloud.x/development/private/larder`.
    public var identity: String {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + endpoint.path(zoneID.zoneName)
    }
}
