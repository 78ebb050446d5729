import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue #12: server-to-server signatures carry no nonce, so the window is narrow and replays can be refused.
@Suite struct ServerKeyReplayTests {
    static func signedClient(_ server: TestServer) throws -> TestClient {
        var client = server.client(nil, database: .public)
        client.apiToken = nil
        client.signer = try RequestSigner(keyID: TestServer.keyID, privateKeyPEM: TestServer.keyPair.privateKeyPEM)
        return client
    }

    /// Sends `zones/list` with fixed signature headers (no re-signing).
    static func send(_ client: TestClient, _ headers: [String: String]) async throws -> TestClient.Answer {
        var unsigned = client
        unsigned.signer = nil
        return try await unsigned.raw("zones/list", method: "GET", body: nil, headers: headers)
    }

    static func headers(_ client: TestClient, secondsAgo: Double) throws -> [String: String] {
        let signer = try #require(client.signer)
        return try signer.headers(
            body: Data(), path: client.endpoint.path("zones/list"), date: Date(timeIntervalSinceNow: -secondsAgo))
    }

    @Test("server-to-server replay: the default window is ±300 s and is configurable")
    func skewWindow() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = try Self.signedClient(server)
            #expect(EmulatorConfiguration().signatureSkewSeconds == 300)
            let stale = try await Self.send(client, try Self.headers(client, secondsAgo: 400))
            #expect(
                stale.status == 401 && stale.json["reason"]?.stringValue?.contains("limit 300 s") == true,
                "\(stale.text)")
            #expect(try await Self.send(client, try Self.headers(client, secondsAgo: -400)).status == 401)
            #expect(try await Self.send(client, try Self.headers(client, secondsAgo: 200)).status == 200)

            let wide = try await TestServer.start { $0.signatureSkewSeconds = 1000 }
            try await stopping(wide) { _ in
                let wideClient = try Self.signedClient(wide)
                #expect(try await Self.send(wideClient, try Self.headers(wideClient, secondsAgo: 400)).status == 200)
            }
        }
    }

    @Test("server-to-server replay: with refuseReplays an exact replay is refused, a fresh signature is not")
    func replayIsRefused() async throws {
        let server = try await TestServer.start { $0.refuseReplays = true }
        try await stopping(server) { _ in
            let client = try Self.signedClient(server)
            let captured = try Self.headers(client, secondsAgo: 0)
            #expect(try await Self.send(client, captured).status == 200)
            let replay = try await Self.send(client, captured)
            #expect(replay.status == 401 && replay.errorCode == "AUTHENTICATION_FAILED", "\(replay.text)")
            #expect(replay.json["reason"]?.stringValue?.contains("replay") == true)
            // The same signature re-encoded (raw r‖s with the low s) is the same signature: refused too.
            var reencoded = captured
            let signature = try #require(captured[RequestSigner.signatureHeader])
            reencoded[RequestSigner.signatureHeader] = try #require(RequestSigner.canonicalSignature(signature))
                .base64EncodedString()
            #expect(try await Self.send(client, reencoded).status == 401)
            // A new signature of the same request (same second, same body) is a new request.
            #expect(try await Self.send(client, try Self.headers(client, secondsAgo: 0)).status == 200)
            #expect(try await client.get("zones/list").status == 200)
        }
    }

    @Test("server-to-server replay: without refuseReplays a replay inside the window is accepted (documented)")
    func replayAcceptedByDefault() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let client = try Self.signedClient(server)
            let captured = try Self.headers(client, secondsAgo: 0)
            #expect(try await Self.send(client, captured).status == 200)
            #expect(try await Self.send(client, captured).status == 200)
        }
    }

    @Test("server-to-server replay: refuseReplays and the window come from the config file and the flags")
    func configuration() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("config.json", #"{"refuseReplays": true, "signatureSkewSeconds": 120}"#)
        let fromFile = try EmulatorConfiguration.resolve(
            flags: .init(), environment: [:], file: URL(fileURLWithPath: path))
        #expect(fromFile.refuseReplays && fromFile.signatureSkewSeconds == 120)
        let fromFlags = try EmulatorConfiguration.resolve(
            flags: .init(signatureSkewSeconds: 60, refuseReplays: true), environment: [:], file: nil)
        #expect(fromFlags.refuseReplays && fromFlags.signatureSkewSeconds == 60)
        #expect(throws: LarderError.self) {
            try EmulatorConfiguration.resolve(flags: .init(signatureSkewSeconds: 0), environment: [:], file: nil)
        }
    }
}
