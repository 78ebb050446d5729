import Foundation
import LarderCloudKit
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests as Apple's CloudKit JS 2.6.4 sends them (issue 30, part 1), where its shape differs from
/// the Web Services reference: the emulator follows the library, which is what Apple's servers take.
@Suite struct CloudKitJSTests {
    /// CloudKit JS's query string on every request (its build version is 2310ProjectDev27, not 2.6.4:
    /// Fixtures/cloudkit-js-requests.txt).
    static let ckjs =
        "ckjsBuildVersion=2310ProjectDev27&ckjsVersion=2.6.4&clientId=3b6e6d42-5b1e-4a63-9b5e-0d4b1f2a7c11"

    @Test("performQuery(previousResponse): the next page's request adds numbersAsStrings and zoneWide false")
    func queryContinuationWithDefaultsAdded() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            _ = try await alice.modify(
                (1...3).map {
                    RecordOperation(.create, .make("n\($0)", type: "Note", fields: ["n": .int64(Int64($0))]))
                })
            let first = try await alice.post(
                "records/query", json: #"{"query":{"recordType":"Note","sortBy":[{"fieldName":"n"}]},"resultsLimit":1}"#
            )
            #expect(first.status == 200, "\(first.text)")
            let marker = try #require(first.json["continuationMarker"]?.stringValue)
            // CloudKit JS re-sends the query with the marker and the two defaults spelled out.
            let next = try await alice.post(
                "records/query",
                json: #"{"query":{"recordType":"Note","sortBy":[{"fieldName":"n"}]},"resultsLimit":1,"#
                    + #""numbersAsStrings":false,"zoneWide":false,"zoneID":{"zoneName":"_defaultZone"},"#
                    + #""continuationMarker":"\#(marker)"}"#)
            #expect(next.status == 200, "\(next.text)")
            #expect(next.json["records"]?.arrayValue?.first?["recordName"] == "n2")
            // A different query is still refused.
            let other = try await alice.post(
                "records/query",
                json: #"{"query":{"recordType":"Note","sortBy":[{"fieldName":"n","ascending":false}]},"#
                    + #""continuationMarker":"\#(marker)"}"#)
            #expect(other.status == 400)
        }
    }

    @Test("subscriptions: SubscriptionType.DATABASE is taken, and deleteSubscriptions(id) sends no type")
    func databaseSubscriptionsAndTypelessDelete() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            let created = try await alice.post(
                "subscriptions/modify",
                json: #"{"operations":[{"operationType":"create","subscription":{"subscriptionID":"db-1","#
                    + #""subscriptionType":"database"}}]}"#)
            #expect(created.status == 200 && !created.text.contains("serverErrorCode"), "\(created.text)")
            // What CloudKit JS's deleteSubscriptions('db-1') posts.
            let deleted = try await alice.post(
                "subscriptions/modify",
                json: #"{"operations":[{"operationType":"delete","subscription":{"subscriptionID":"db-1"}}]}"#)
            #expect(deleted.status == 200 && !deleted.text.contains("serverErrorCode"), "\(deleted.text)")
            let listed = try await alice.get("subscriptions/list")
            #expect(listed.json["subscriptions"]?.arrayValue?.isEmpty == true, "\(listed.text)")
            // The public database has no database subscription; a create without a type names it.
            let publicOne = try await server.client(database: .public).post(
                "subscriptions/modify",
                json: #"{"operations":[{"operationType":"create","subscription":{"subscriptionType":"database"}}]}"#)
            #expect(publicOne.text.contains("BAD_REQUEST"))
            let untyped = try await alice.post(
                "subscriptions/modify",
                json: #"{"operations":[{"operationType":"create","subscription":{"subscriptionID":"x"}}]}"#)
            #expect(untyped.text.contains("is not query, zone or database"), "\(untyped.text)")
        }
    }

    @Test("container.registerForNotifications() posts tokens/create under /device/1/…")
    func deviceTokensCreate() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let url = try #require(
                URL(
                    string: server.baseURL.absoluteString
                        + "/device/1/\(TestServer.container)/development/tokens/create?"
                        + Self.ckjs + "&ckAPIToken=\(TestServer.apiToken)"))
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"apnsEnvironment":"development"}"#.utf8)
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            let (data, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: data, as: UTF8.self))")
            let created = try JSONDecoder().decode(APNsTokenResponse.self, from: data)
            #expect(created.apnsToken.count == 64 && created.webcourierURL != nil)
        }
    }

    @Test("the webcourierURL is a long poll answering null, which CloudKit JS reads as no notification")
    func webcourierLongPoll() async throws {
        let server = try await TestServer.start { $0.webcourierHoldSeconds = 0 }
        try await stopping(server) { _ in
            let created = try await server.client(nil, database: .public).post(
                "tokens/create", json: #"{"apnsEnvironment":"development"}"#)
            let webcourier = try #require(created.json["webcourierURL"]?.stringValue.flatMap(URL.init(string:)))
            let (data, response) = try await URLSession.shared.data(from: webcourier)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            // Before, a 404 whose JSON body CloudKit JS handed to the app as a notification, ~70 times a second.
            #expect(String(decoding: data, as: UTF8.self) == "null")
            let other = server.baseURL.appendingPathComponent(
                "_emulator/webcourier/iCloud.com.other/\(String(repeating: "a", count: 64))")
            let (_, refused) = try await URLSession.shared.data(from: other)
            #expect((refused as? HTTPURLResponse)?.statusCode == 404)
            // Asked again each time it is answered, the poll stays out of the request log.
            #expect(
                !server.emulator.services.requestLog.entries(limit: nil).contains { $0.path.contains("webcourier") })
        }
    }
}
