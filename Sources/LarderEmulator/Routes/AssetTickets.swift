import Foundation
import LarderCloudKit
import LarderCore

/// Signed download URLs: `/_assets/download/<ticket>`, where the ticket names the bytes, the
/// database and the user the record was answered to, and an expiry, under an HMAC whose key is made
/// at start (URLs from an earlier run stop working; fetch the record again).
final class AssetTickets: Sendable {
    /// How long a download URL works.
    static let lifetimeMs: Int64 = 60 * 60 * 1000

    /// What a download URL grants.
    struct Ticket: Codable, Hashable, Sendable {
        var container: String
        var environment: String
        var database: String
        /// Who fetched the record; a private or shared download must be made as this user.
        var user: String?
        /// The hex content address.
        var checksum: String
        var expiresAt: Int64
    }

    private let key: Data

    init(random: RandomSource = .system) { key = Data(random.bytes(32)) }

    /// The ticket text for `ticket`: base64url(JSON) "." base64url(HMAC).
    func sign(_ ticket: Ticket) -> String {
        let payload = (try? JSONEncoder().encode(ticket)) ?? Data()
        return AssetTickets.base64URL(payload) + "." + AssetTickets.base64URL(AssetDigest.hmac(payload, key: key))
    }

    /// The ticket `text` carries, when its signature holds (expiry is the caller's check).
    func verify(_ text: String) -> Ticket? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = AssetTickets.data(base64URL: String(parts[0])),
            let mac = AssetTickets.data(base64URL: String(parts[1])),
            AssetTickets.constantTimeEqual(mac, AssetDigest.hmac(payload, key: key))
        else { return nil }
        return try? JSONDecoder().decode(Ticket.self, from: payload)
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func data(base64URL text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    private static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// What a request needs to write asset URLs: its own base URL and the ticket signer.
struct AssetLinks: Sendable {
    var baseURL: String
    var tickets: AssetTickets

    func uploadURL(token: String) -> String { "\(baseURL)/_assets/upload/\(token)" }

    func downloadURL(hex: String, call: DatabaseOperationContext) -> String {
        let ticket = AssetTickets.Ticket(
            container: call.container, environment: call.environment, database: call.scope.rawValue,
            user: call.caller.userRecordName, checksum: hex, expiresAt: call.nowMilliseconds + AssetTickets.lifetimeMs)
        return "\(baseURL)/_assets/download/\(tickets.sign(ticket))"
    }
}
