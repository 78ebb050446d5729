import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

/// Replays the request shapes a real third-party Swift client (MistKit 1.0.0-alpha.5) sends, as
/// captured in ../shared/cloudkit-client-requests.txt: same paths, query strings (percent-encoded
/// web-auth token), headers and bodies, with only the base URL changed and the change tags taken
/// from this server's earlier answers.
@Suite struct ClientRequestsReplayTests {
    static let container = "iCloud.com.example.ckprobe"
    static let apiToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    static let webAuthToken = "WEBAUTH+token/with=special_chars_0123456789"
    static let query = "?ckAPIToken=\(apiToken)&ckWebAuthToken=WEBAUTH%2Btoken%2Fwith%3Dspecial_chars_0123456789"

    struct Replayer {
        let base: URL
        var signer: RequestSigner?

        func send(_ method: String, _ database: String, _ operation: String, query: String?, body: String?) async throws
            -> TestClient.Answer
        {
            let path = "/database/1/\(ClientRequestsReplayTests.container)/development/\(database)/\(operation)"
            var request = URLRequest(url: try #require(URL(string: base.absoluteString + path + (query ?? ""))))
            request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
            request.httpMethod = method
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("en", forHTTPHeaderField: "Accept-Language")
            if let body {
                request.httpBody = Data(body.utf8)
                request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
            }
            if let signer {
                for (name, value) in try signer.headers(body: Data((body ?? "").utf8), path: path) {
                    request.setValue(value, forHTTPHeaderField: name)
                }
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as? HTTPURLResponse
            #expect(http?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("application/json") == true)
            return TestClient.Answer(status: http?.statusCode ?? 0, data: data, headers: [:])
        }
    }

    @Test("accepts MistKit's requests unchanged but for the base URL")
    func replaysThirdPartyClientRequests() async throws {
        let pair = RequestSigner.makeKeyPair()
        let keyID = "a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4"
        var configuration = TestServer.configuration()
        configuration.containers = [Self.container]
        configuration.apiTokens = [Self.apiToken]
        configuration.users = [EmulatorUser(userRecordName: "_probeuser", webAuthToken: Self.webAuthToken)]
        configuration.serverKeys = [ServerKey(keyID: keyID, publicKeyPEM: pair.publicKeyPEM)]
        // MistKit sends Dates as untyped millisecond numbers, one of them fractional; the app's
        // schema (as in the CloudKit dashboard) declares the field a TIMESTAMP.
        configuration.schema = ["Recipe": ["cookedAt": .timestamp]]
        let server = try await TestServer.start(configuration: configuration)
        try await stopping(server) { _ in
            var web = Replayer(base: server.baseURL)

            // #1 zones/list
            let zones = try await web.send("GET", "private", "zones/list", query: Self.query, body: nil)
            #expect(try zones.decode(ZonesResponse.self).zones.first?.zone?.zoneID.zoneName == "_defaultZone")

            // #2 create three recipes (untyped values, a fractional timestamp)
            func recipe(_ n: Int, _ cookedAt: String) -> String {
                #"{"operationType":"create","record":{"fields":{"cookedAt":{"value":\#(cookedAt)},"servings":{"value":\#(n * 2)},"tags":{"value":["breakfast","tag\#(n)"]},"title":{"value":"Recipe \#(n)"}},"recordName":"recipe-\#(n)","recordType":"Recipe"}}"#
            }
            let created = try await web.send(
                "POST", "private", "records/modify", query: Self.query,
                body:
                    #"{"atomic":false,"operations":[\#(recipe(1, "1700003600123")),\#(recipe(2, "1700007200123")),\#(recipe(3, "1700010800123.3997"))]}"#
            )
            let records = try created.decode(RecordsResponse.self).records
            #expect(records.errorCodes == [nil, nil, nil], "\(created.text)")
            #expect(records.first?.record?.fields?["tags"]?.type == FieldType(rawValue: "STRING_LIST"))
            let tags = Dictionary(
                uniqueKeysWithValues: records.compactMap { $0.record }.map {
                    ($0.recordName ?? "", $0.recordChangeTag ?? "")
                })

            // #3 query: filter + sort
            let queried = try await web.send(
                "POST", "private", "records/query", query: Self.query,
                body:
                    #"{"desiredKeys":["title","servings","cookedAt","tags"],"query":{"filterBy":[{"comparator":"GREATER_THAN_OR_EQUALS","fieldName":"servings","fieldValue":{"value":2}},{"comparator":"LIST_CONTAINS","fieldName":"tags","fieldValue":{"value":"breakfast"}},{"comparator":"LESS_THAN","fieldName":"cookedAt","fieldValue":{"value":1700086400123}}],"recordType":"Recipe","sortBy":[{"ascending":false,"fieldName":"cookedAt"},{"ascending":true,"fieldName":"title"}]},"resultsLimit":50,"zoneID":{"zoneName":"_defaultZone"}}"#
            )
            #expect(QueryTests.names(try queried.decode(QueryResponse.self)) == ["recipe-3", "recipe-2", "recipe-1"])

            // #4 IN with a list-typed value, BEGINS_WITH
            let inQuery = try await web.send(
                "POST", "private", "records/query", query: Self.query,
                body:
                    #"{"query":{"filterBy":[{"comparator":"IN","fieldName":"servings","fieldValue":{"type":"INT64_LIST","value":[2,4]}},{"comparator":"BEGINS_WITH","fieldName":"title","fieldValue":{"value":"Rec"}}],"recordType":"Recipe"},"resultsLimit":100,"zoneID":{"zoneName":"_defaultZone"}}"#
            )
            #expect(QueryTests.names(try inQuery.decode(QueryResponse.self)) == ["recipe-1", "recipe-2"])

            // #5 lookup, one missing
            let lookup = try await web.send(
                "POST", "private", "records/lookup", query: Self.query,
                body: #"{"records":[{"recordName":"recipe-1"},{"recordName":"does-not-exist"}]}"#)
            #expect(try lookup.decode(RecordsResponse.self).records.errorCodes == [nil, "NOT_FOUND"])

            // #6 update with the tag, #7 the same stale tag → CONFLICT inside a 200
            let tag1 = tags["recipe-1"] ?? ""
            let update =
                #"{"atomic":false,"operations":[{"operationType":"update","record":{"fields":{"servings":{"value":5},"title":{"value":"Recipe 1 (edited)"}},"recordChangeTag":"\#(tag1)","recordName":"recipe-1","recordType":"Recipe"}}]}"#
            let updated = try await web.send("POST", "private", "records/modify", query: Self.query, body: update)
            #expect(
                try updated.decode(RecordsResponse.self).records.first?.record?.field("title") == "Recipe 1 (edited)")
            let stale = try await web.send(
                "POST", "private", "records/modify", query: Self.query,
                body:
                    #"{"atomic":false,"operations":[{"operationType":"update","record":{"fields":{"title":{"value":"stale write"}},"recordChangeTag":"\#(tag1)","recordName":"recipe-1","recordType":"Recipe"}}]}"#
            )
            let staleCodes = try stale.decode(RecordsResponse.self).records.errorCodes
            #expect(stale.status == 200 && staleCodes == ["CONFLICT"])

            // #8 delete with fields:{} and the tag
            let deleted = try await web.send(
                "POST", "private", "records/modify", query: Self.query,
                body:
                    #"{"atomic":false,"operations":[{"operationType":"delete","record":{"fields":{},"recordChangeTag":"\#(tags["recipe-3"] ?? "")","recordName":"recipe-3","recordType":"Recipe"}}]}"#
            )
            #expect(try deleted.decode(RecordsResponse.self).records.first?.record?.deleted == true)

            // #9, #10 zones/changes with {} then the returned token
            let zoneFeed = try await web.send("POST", "private", "zones/changes", query: Self.query, body: "{}")
                .decode(DatabaseChangesResponse.self)
            #expect(zoneFeed.zones.map(\.zoneID.zoneName) == ["_defaultZone"])
            let zoneFeed2 = try await web.send(
                "POST", "private", "zones/changes", query: Self.query, body: #"{"syncToken":"\#(zoneFeed.syncToken)"}"#)
            #expect(zoneFeed2.status == 200)

            // #11, #12 records/changes in the default zone, then with the token
            let feed = try await web.send(
                "POST", "private", "records/changes", query: Self.query,
                body: #"{"resultsLimit":100,"zoneID":{"zoneName":"_defaultZone"}}"#
            )
            .decode(RecordChangesResponse.self)
            let feedRecords = feed.records.records
            #expect(Set(feedRecords.compactMap(\.recordName)) == ["recipe-1", "recipe-2", "recipe-3"])
            #expect(feedRecords.first { $0.recordName == "recipe-3" }?.deleted == true)
            let feed2 = try await web.send(
                "POST", "private", "records/changes", query: Self.query,
                body: #"{"syncToken":"\#(feed.syncToken)","zoneID":{"zoneName":"_defaultZone"}}"#)
            #expect(try feed2.decode(RecordChangesResponse.self).records.isEmpty)

            // #13, #14 extra query parameters are ignored
            let extra = try await web.send(
                "POST", "private", "records/modify", query: Self.query + "&forceStatus=409&code=CONFLICT",
                body:
                    #"{"atomic":false,"operations":[{"operationType":"create","record":{"fields":{"title":{"value":"x"}},"recordName":"x","recordType":"Recipe"}}]}"#
            )
            #expect(extra.status == 200)
            #expect(
                try await web.send(
                    "GET", "private", "zones/list", query: Self.query + "&forceStatus=401&code=AUTHENTICATION_FAILED",
                    body: nil
                ).status == 200)

            // #15-#17 server-to-server signed, public database, no query string
            web.signer = try RequestSigner(keyID: keyID, privateKeyPEM: pair.privateKeyPEM)
            #expect(try await web.send("GET", "public", "zones/list", query: nil, body: nil).status == 200)
            let publicCreate = try await web.send(
                "POST", "public", "records/modify", query: nil,
                body:
                    #"{"atomic":false,"operations":[{"operationType":"create","record":{"fields":{"servings":{"value":1},"title":{"value":"Public"}},"recordName":"pub-1","recordType":"Recipe"}}]}"#
            )
            #expect(try publicCreate.decode(RecordsResponse.self).records.errorCodes == [nil])
            let publicQuery = try await web.send(
                "POST", "public", "records/query", query: nil,
                body:
                    #"{"query":{"filterBy":[{"comparator":"EQUALS","fieldName":"title","fieldValue":{"value":"Public"}}],"recordType":"Recipe"},"resultsLimit":100,"zoneID":{"zoneName":"_defaultZone"}}"#
            )
            #expect(QueryTests.names(try publicQuery.decode(QueryResponse.self)) == ["pub-1"])

            // #18, #19 API token only, public database
            web.signer = nil
            let apiOnly = "?ckAPIToken=\(Self.apiToken)"
            let anonymousQuery = try await web.send(
                "POST", "public", "records/query", query: apiOnly,
                body:
                    #"{"query":{"recordType":"Recipe","sortBy":[{"ascending":true,"fieldName":"title"}]},"resultsLimit":10,"zoneID":{"zoneName":"_defaultZone"}}"#
            )
            #expect(QueryTests.names(try anonymousQuery.decode(QueryResponse.self)) == ["pub-1"])
            let anonymousLookup = try await web.send(
                "POST", "public", "records/lookup", query: apiOnly, body: #"{"records":[{"recordName":"pub-1"}]}"#)
            #expect(try anonymousLookup.decode(RecordsResponse.self).records.errorCodes == [nil])
        }
    }
}
