import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

@Suite struct AuthTests {
    @Test("no credentials is AUTHENTICATION_REQUIRED (421) with a redirectURL")
    func noCredentials() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            var client = server.client(nil)
            client.apiToken = nil
            let answer = try await client.get("zones/list")
            #expect(answer.status == 421 && answer.errorCode == "AUTHENTICATION_REQUIRED")
            #expect(answer.json["redirectURL"]?.stringValue?.contains("/_emulator/signin") == true)
            #expect(answer.json["uuid"]?.stringValue?.isEmpty == false)
            let privateWithoutUser = try await server.client(nil).get("zones/list")
            #expect(privateWithoutUser.status == 421)
            let publicWrite = try await server.client(nil, database: .public).post(
                "records/modify", ModifyRecordsRequest(operations: [RecordOperation(.create, .make("p"))]))
            #expect(publicWrite.status == 421)
            let publicRead = try await server.client(nil, database: .public).post(
                "records/query", QueryRecordsRequest(query: Query(recordType: "Recipe")))
            #expect(publicRead.status == 200)
        }
    }

    @Test("a wrong API token is AUTHENTICATION_FAILED (401); an unknown web-auth token asks for a sign-in (421)")
    func wrongCredentials() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            var client = server.client()
            client.apiToken = String(repeating: "f", count: 64)
            #expect(try await client.get("zones/list").status == 401)
            client.apiToken = "short"
            #expect(try await client.get("zones/list").errorCode == "AUTHENTICATION_FAILED")
            // CloudKit JS shows its sign-in button only on AUTHENTICATION_REQUIRED: an ended session
            // answers that, with the sign-in URL.
            client = server.client()
            client.webAuthToken = "not-a-token"
            let ended = try await client.get("zones/list")
            #expect(ended.status == 421 && ended.errorCode == "AUTHENTICATION_REQUIRED")
            #expect(ended.json["redirectURL"]?.stringValue?.contains("/_emulator/signin") == true, "\(ended.text)")
        }
    }

    @Test("web-auth tokens are percent-decoded and a fresh one comes back on every response")
    func webAuthTokenRotation() async throws {
        let server = try await TestServer.start { $0.singleUseWebAuthTokens = true }
        try await stopping(server) { _ async throws in
            let answer = try await server.client().get("users/current")
            #expect(answer.status == 200)
            #expect(try answer.decode(CurrentUserResponse.self).userRecordName == TestServer.alice.userRecordName)
            let fresh = try #require(answer.headers["x-apple-cloudkit-web-auth-token"])
            var next = server.client()
            next.webAuthToken = fresh
            let second = try await next.get("users/current")
            #expect(second.status == 200 && second.headers["x-apple-cloudkit-web-auth-token"] != fresh)
            // The used token is gone: sign in again.
            #expect(try await next.get("users/current").status == 421)
        }
    }

    @Test("server-to-server keys sign for the public database only; bad signatures and skewed dates fail")
    func serverToServerKeys() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            var client = server.client(nil, database: .public)
            client.apiToken = nil
            client.signer = try RequestSigner(keyID: TestServer.keyID, privateKeyPEM: TestServer.keyPair.privateKeyPEM)
            let created = try await client.modify([
                RecordOperation(.create, .make("pub-1", fields: ["title": .string("Public")]))
            ])
            #expect(created.records.first?.created?.userRecordName == TestServer.alice.userRecordName)
            #expect(try await client.get("zones/list").status == 200)
            var privateClient = client
            privateClient.endpoint.database = .private
            #expect(try await privateClient.get("zones/list").status == 403)
            var wrongKey = client
            wrongKey.signer = try RequestSigner(
                keyID: TestServer.keyID, privateKeyPEM: RequestSigner.makeKeyPair().privateKeyPEM)
            #expect(try await wrongKey.get("zones/list").errorCode == "AUTHENTICATION_FAILED")
            var unsigned = client
            unsigned.signer = nil
            let old = try client.signer!.headers(
                body: Data(), path: client.endpoint.path("zones/list"), date: Date(timeIntervalSinceNow: -3600))
            let skewed = try await unsigned.raw("zones/list", method: "GET", body: nil, headers: old)
            #expect(skewed.status == 401 && skewed.json["reason"]?.stringValue?.contains("off") == true)
        }
    }

    @Test("CloudKit JS: a server-to-server signature covers the path with its query string, as Apple checks it")
    func serverToServerSignatureCoversTheQuery() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            let signer = try RequestSigner(keyID: TestServer.keyID, privateKeyPEM: TestServer.keyPair.privateKeyPEM)
            let endpoint = DatabaseEndpoint(
                container: TestServer.container, environment: .development, database: .public)
            // What CloudKit JS 2.6.4 sends: its version and client id in the query string.
            let query =
                "ckjsBuildVersion=2310ProjectDev27&ckjsVersion=2.6.4&clientId=3b6e6d42-5b1e-4a63-9b5e-0d4b1f2a7c11"
            let path = endpoint.path("records/query")
            let body = Data(#"{"query":{"recordType":"Note"},"zoneID":{"zoneName":"_defaultZone"}}"#.utf8)
            func send(signing signedPath: String) async throws -> Int {
                var request = URLRequest(
                    url: try #require(URL(string: server.baseURL.absoluteString + path + "?" + query)))
                request.httpMethod = "POST"
                request.httpBody = body
                request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
                for (name, value) in try signer.headers(body: body, path: signedPath) {
                    request.setValue(value, forHTTPHeaderField: name)
                }
                let (_, response) = try await URLSession.shared.data(for: request)
                return (response as? HTTPURLResponse)?.statusCode ?? 0
            }
            #expect(try await send(signing: path + "?" + query) == 200)
            // Apple's servers refuse the bare path when a query was sent; so does the emulator.
            #expect(try await send(signing: path) == 401)
        }
    }

    @Test("another user's private data is never visible")
    func privateDataIsIsolated() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            let alice = server.client()
            let bob = server.client(TestServer.bob)
            try await alice.createZone("Secret")
            _ = try await alice.modify([RecordOperation(.create, .make("diary", fields: ["title": .string("mine")]))])
            #expect(try await bob.query(Query(recordType: "Recipe")).records.isEmpty)
            let lookup = try await bob.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "diary")]))
            #expect(try lookup.decode(RecordsResponse.self).records.errorCodes == ["NOT_FOUND"])
            let zones = try await bob.get("zones/list").decode(ZonesResponse.self)
            #expect(zones.zones.compactMap(\.zone?.zoneID.zoneName) == ["_defaultZone"])
            let aliceZone = RecordZoneID(zoneName: "Secret", ownerRecordName: TestServer.alice.userRecordName)
            let write = try await bob.modify([RecordOperation(.create, .make("x"))], zone: aliceZone)
            #expect(write.errorCodes == ["ZONE_NOT_FOUND"])
            let shared = try await server.client(TestServer.bob, database: .shared).post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "x")], zoneID: aliceZone))
            #expect(shared.errorCode == "ZONE_NOT_FOUND")
        }
    }

    @Test("in the public database only a record's creator can change it")
    func publicRecordsBelongToTheirCreator() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ async throws in
            let alice = server.client(database: .public)
            let bob = server.client(TestServer.bob, database: .public)
            let made = try await alice.modify([RecordOperation(.create, .make("pub", fields: ["title": .string("A")]))])
            let tag = try #require(made.records.first?.recordChangeTag)
            let denied = try await bob.modify([
                RecordOperation(.update, .make("pub", fields: ["title": .string("B")], tag: tag))
            ])
            #expect(denied.errorCodes == ["ACCESS_DENIED"])
            #expect(try await bob.query(Query(recordType: "Recipe")).records.count == 1)
        }
    }
}
