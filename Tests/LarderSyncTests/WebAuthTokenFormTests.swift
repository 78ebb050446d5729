import Foundation
import LarderCloudKit
import LarderEmulator
import LarderSync
import LarderTestSupport
import Testing

/// `larder serve` prints the web-auth token percent-encoded inside URLs; pasted into
/// `--web-auth-token` it must work as the plain form does.
@Suite struct WebAuthTokenFormTests {
    @Test("the client accepts the web-auth token plain or percent-encoded", arguments: [false, true])
    func clientAcceptsEitherForm(encoded: Bool) async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let plain = UploadTestServer.user.webAuthToken
            #expect(plain.contains("+") && plain.contains("/") && plain.contains("="))
            let client = CloudKitClient(
                target: server.target(), transport: URLSessionTransport(timeout: 300),
                credentials: .apiToken(
                    UploadTestServer.apiToken, webAuthToken: encoded ? WebAuthToken.percentEncoded(plain) : plain))
            let answer = try await client.call("zones/list", method: "GET", body: Data())
            #expect(String(decoding: answer, as: UTF8.self).contains("_defaultZone"))
        }
    }
}
