import Foundation
import GRDB
import LarderCloudKit
import LarderCore
import Testing

@testable import LarderEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

/// Subscriptions and APNs tokens.
///
/// subscriptions/list|lookup|modify (stored per user and database, carried by export/import) and
/// tokens/create|register. Nothing is ever pushed.
@Suite struct SubscriptionsTests {
    static func querySubscription(_ id: String?) -> Subscription {
        var subscription = Subscription(subscriptionID: id, subscriptionType: "query")
        subscription.query = ["recordType": "Recipe"]
        subscription.firesOn = ["create", "update"]
        subscription.notificationInfo = ["shouldSendContentAvailable": true]
        return subscription
    }

    static func modify(_ client: TestClient, _ operations: [(String, Subscription)]) async throws
        -> [SubscriptionResult]
    {
        let answer = try await client.post(
            "subscriptions/modify",
            SubscriptionsModifyRequest(operations: operations.map { .init(operationType: $0.0, subscription: $0.1) }))
        guard answer.status == 200 else { throw AnswerError(answer: answer) }
        return try answer.decode(SubscriptionsResponse.self).subscriptions
    }

    @Test("create, update, lookup, list and delete answer subscription dictionaries or per-item errors")
    func modifyLookupListDelete() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client()
            var zone = Subscription(subscriptionID: "zone-sub", subscriptionType: "zone")
            zone.zoneID = RecordZoneID(zoneName: "_defaultZone")
            let created = try await Self.modify(
                alice,
                [
                    ("create", Self.querySubscription("recipes")), ("create", zone),
                    ("create", Self.querySubscription(nil)),
                ])
            #expect(created.map { $0.error?.serverErrorCode } == [nil, nil, nil])
            #expect(created.first?.value == Self.querySubscription("recipes"))
            let madeUpID = try #require(created.last?.value?.subscriptionID)
            var changed = Self.querySubscription("recipes")
            changed.firesOn = ["delete"]
            let second = try await Self.modify(
                alice,
                [
                    ("create", Self.querySubscription("recipes")), ("update", changed),
                    ("update", Self.querySubscription("missing")), ("delete", zone),
                    ("create", Subscription(subscriptionID: "bad", subscriptionType: "weekly")),
                ])
            #expect(
                second.map { $0.error?.serverErrorCode.rawValue } == ["EXISTS", nil, "NOT_FOUND", nil, "BAD_REQUEST"])
            #expect(second[2].error?.subscriptionID == "missing")
            let lookup = try await alice.post(
                "subscriptions/lookup", SubscriptionsLookupRequest(subscriptionIDs: ["recipes", "zone-sub"]))
            let found = try lookup.decode(SubscriptionsResponse.self).subscriptions
            #expect(found.first?.value?.firesOn == ["delete"])
            #expect(found.last?.error?.serverErrorCode == .notFound)
            let listed = try await alice.get("subscriptions/list").decode(SubscriptionsResponse.self)
            #expect(listed.subscriptions.compactMap(\.value?.subscriptionID) == ["recipes", madeUpID])
        }
    }

    @Test("subscriptions belong to one user and one database")
    func subscriptionsArePerUserAndDatabase() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            _ = try await Self.modify(server.client(), [("create", Self.querySubscription("mine"))])
            let bobList = try await server.client(TestServer.bob).get("subscriptions/list")
            #expect(try bobList.decode(SubscriptionsResponse.self).subscriptions.isEmpty)
            let bobDelete = try await Self.modify(
                server.client(TestServer.bob), [("delete", Self.querySubscription("mine"))])
            #expect(bobDelete.first?.error?.serverErrorCode == .notFound)
            let publicList = try await server.client(database: .public).get("subscriptions/list")
            #expect(try publicList.decode(SubscriptionsResponse.self).subscriptions.isEmpty)
            let aliceList = try await server.client().get("subscriptions/list").decode(SubscriptionsResponse.self)
            #expect(aliceList.subscriptions.compactMap(\.value?.subscriptionID) == ["mine"])
        }
    }

    @Test("export and import carry subscriptions and APNs tokens")
    func exportImportCarriesSubscriptions() async throws {
        let server = try await TestServer.start()
        let exported = try await stopping(server) { _ in
            _ = try await Self.modify(server.client(), [("create", Self.querySubscription("kept"))])
            let token = try await server.client(database: .public).post(
                "tokens/create", APNsTokenRequest(apnsEnvironment: "development"))
            #expect(token.status == 200, "\(token.text)")
            return try server.emulator.exportState()
        }
        let document = try JSONDecoder().decode(Value.self, from: exported)
        #expect(document["tables"]?["apnsToken"]?.arrayValue?.count == 1)
        let restored = try await TestServer.start()
        try await stopping(restored) { _ in
            try restored.emulator.importState(from: exported)
            let listed = try await restored.client().get("subscriptions/list").decode(SubscriptionsResponse.self)
            #expect(listed.subscriptions.compactMap(\.value?.subscriptionID) == ["kept"])
        }
    }

    @Test("a restart on the same data folder keeps subscriptions (SQLite)")
    func restartKeepsSubscriptions() async throws {
        let folder = try TemporaryDirectory()
        let configuration = TestServer.configuration {
            $0.inMemory = false
            $0.dataDirectory = folder.path("data")
        }
        let first = try await TestServer.start(configuration: configuration)
        try await stopping(first) { _ in
            _ = try await Self.modify(first.client(), [("create", Self.querySubscription("durable"))])
        }
        let second = try await TestServer.start(configuration: configuration)
        try await stopping(second) { _ in
            let listed = try await second.client().get("subscriptions/list").decode(SubscriptionsResponse.self)
            #expect(listed.subscriptions.compactMap(\.value) == [Self.querySubscription("durable")])
        }
    }

    @Test("tokens/create answers apnsEnvironment, apnsToken and webcourierURL; tokens/register checks its keys")
    func apnsTokens() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            // Apple's path has no database segment.
            let url = try #require(
                URL(
                    string: server.baseURL.absoluteString
                        + "/database/1/\(TestServer.container)/development/tokens/create"
                        + "?ckAPIToken=\(TestServer.apiToken)"))
            var request = URLRequest(url: url)
            request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"apnsEnvironment":"production"}"#.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            let created = try JSONDecoder().decode(APNsTokenResponse.self, from: data)
            #expect(created.apnsEnvironment == "production" && created.apnsToken.count == 64)
            #expect(created.webcourierURL?.hasPrefix("http://") == true)
            let alice = server.client(database: .public)
            let registered = try await alice.post(
                "tokens/register", APNsTokenRequest(apnsEnvironment: "production", apnsToken: created.apnsToken))
            #expect(registered.status == 200 && registered.json["apnsToken"]?.stringValue == created.apnsToken)
            let noToken = try await alice.post("tokens/register", APNsTokenRequest(apnsEnvironment: "development"))
            #expect(noToken.status == 400 && noToken.json["reason"]?.stringValue?.contains("apnsToken") == true)
            let badEnvironment = try await alice.post("tokens/create", json: #"{"apnsEnvironment":"staging"}"#)
            #expect(badEnvironment.status == 400 && badEnvironment.text.contains("staging"))
        }
    }

    @Test("token attack: a 1 MB token is refused, and a caller keeps at most 64 tokens")
    func apnsTokensAreBounded() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let alice = server.client(database: .public)
            let huge = try await alice.post(
                "tokens/register",
                APNsTokenRequest(apnsEnvironment: "production", apnsToken: String(repeating: "a", count: 1 << 20)))
            #expect(huge.status == 400, "\(huge.text.prefix(200))")
            for index in 0..<100 {
                let answer = try await alice.post(
                    "tokens/register", APNsTokenRequest(apnsEnvironment: "production", apnsToken: "token-\(index)"))
                #expect(answer.status == 200)
            }
            let stored = try await server.emulator.store.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM apnsToken") ?? 0
            }
            #expect(stored == APNsTokenStore.maxTokensPerOwner)
        }
    }
}
