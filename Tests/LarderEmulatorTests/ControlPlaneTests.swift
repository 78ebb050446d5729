import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

@Suite struct ControlPlaneTests {
    static func call(_ server: TestServer, _ method: String, _ path: String, body: Data? = nil) async throws
        -> TestClient.Answer
    {
        var request = URLRequest(url: try #require(URL(string: server.baseURL.absoluteString + "/_emulator/" + path)))
        request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
        request.httpMethod = method
        request.httpBody = body
        // As a client of the control plane does: a POST without the JSON type (or the admin token)
        // is what a page's no-cors request looks like, and is refused.
        if body != nil || method == "POST" { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return TestClient.Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, data: data, headers: [:])
    }

    static func addFault(_ server: TestServer, _ json: String) async throws {
        let answer = try await call(server, "POST", "faults", body: Data(json.utf8))
        #expect(answer.status == 200, "\(answer.text)")
    }

    @Test("THROTTLED and TRY_AGAIN_LATER faults answer with retryAfter and their statuses")
    func throttlingFaults() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await Self.addFault(
                server, #"{"operation":"records/modify","error":"THROTTLED","retryAfter":7,"remaining":1}"#)
            let throttled = try await alice.post(
                "records/modify", ModifyRecordsRequest(operations: [RecordOperation(.create, .make("a"))]))
            #expect(throttled.status == 429 && throttled.errorCode == "THROTTLED" && throttled.json["retryAfter"] == 7)
            #expect(try await alice.modify([RecordOperation(.create, .make("a"))]).errorCodes == [nil])
            try await Self.addFault(server, #"{"database":"private","error":"TRY_AGAIN_LATER","probability":1}"#)
            let later = try await alice.get("zones/list")
            #expect(later.status == 503 && later.errorCode == "TRY_AGAIN_LATER" && later.json["retryAfter"] == 1)
            #expect(try await server.client(database: .public).get("zones/list").status == 200)
            _ = try await Self.call(server, "DELETE", "faults")
            #expect(try await alice.get("zones/list").status == 200)
            let badRule = try await Self.call(
                server, "POST", "faults", body: Data(#"{"probability":2,"error":"THROTTLED"}"#.utf8))
            #expect(badRule.errorCode == "BAD_REQUEST")
        }
    }

    @Test("forced CONFLICT, CHANGE_TOKEN_EXPIRED and added latency")
    func conflictExpiryLatency() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            try await Self.addFault(
                server, #"{"operation":"records/modify","error":"CONFLICT","remaining":1,"latencyMs":5}"#)
            #expect(
                try await alice.modify([RecordOperation(.create, .make("a")), RecordOperation(.create, .make("b"))])
                    .errorCodes == ["CONFLICT", "CONFLICT"])
            try await Self.addFault(
                server, #"{"operation":"changes/zone","error":"CHANGE_TOKEN_EXPIRED","remaining":1}"#)
            #expect(try await alice.zoneChanges(.defaultZone).error?.serverErrorCode == .changeTokenExpired)
            #expect(try await alice.zoneChanges(.defaultZone).changes != nil)
            try await Self.addFault(
                server, #"{"operation":"changes/database","error":"CHANGE_TOKEN_EXPIRED","remaining":1}"#)
            #expect(
                try await alice.post("changes/database", DatabaseChangesRequest()).errorCode == "CHANGE_TOKEN_EXPIRED")
        }
    }

    @Test("export, reset and import restore the whole state; the request log records calls")
    func exportResetImportAndLog() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            _ = try await alice.modify([RecordOperation(.create, .make("keep", fields: ["title": .string("me")]))])
            let exported = try await Self.call(server, "GET", "export")
            #expect(exported.json["format"] == "larder-emulator-state")
            _ = try await Self.call(server, "POST", "reset")
            let empty = try await alice.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "keep")]))
            #expect(try empty.decode(RecordsResponse.self).records.errorCodes == ["NOT_FOUND"])
            #expect(try await Self.call(server, "POST", "import", body: exported.data).status == 200)
            let back = try await alice.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "keep")]))
            #expect(try back.decode(RecordsResponse.self).records.first?.record?.field("title") == "me")
            let bad = try await Self.call(
                server, "POST", "import",
                body: Data(#"{"format":"larder-emulator-state","version":1,"tables":{"nope":[]}}"#.utf8))
            #expect(bad.errorCode == "BAD_REQUEST")
            let log = try await Self.call(server, "GET", "requests")
            let entries = log.json["requests"]?.arrayValue ?? []
            #expect(
                entries.contains {
                    $0["operation"] == "records/lookup" && $0["database"] == "private" && $0["status"] == 200
                })
        }
    }

    @Test("the sign-in stand-in mints a working web-auth token")
    func signIn() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let answer = try await Self.call(server, "GET", "signin?user=bob")
            var client = server.client(nil)
            client.webAuthToken = try #require(answer.json["ckWebAuthToken"]?.stringValue)
            #expect(
                try await client.get("users/current").decode(CurrentUserResponse.self).userRecordName
                    == TestServer.bob.userRecordName)
        }
    }
}
