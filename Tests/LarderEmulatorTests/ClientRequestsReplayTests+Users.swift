import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

/// The user, subscription and token request shapes of Apple's CloudKit Web Services Reference
/// (WSREF pages DiscoveringUserIdentities(usersdiscover), DiscoveringAllUserIdentities,
/// LookupUsersbyEmail, LookupUsersbyID, FetchCurrentUserIdentity, ModifySubscriptions,
/// FetchSubscriptions, LookupSubscriptions, CreateTokens, RegisterTokens), sent the way the captured
/// client sends requests (percent-encoded web-auth token in the query), with every answer's keys
/// checked against the dictionaries those pages document.
extension ClientRequestsReplayTests {
    /// The keys each documented dictionary may have.
    enum Shape {
        static let userIdentity: Set<String> = ["userRecordName", "lookupInfo", "nameComponents"]
        static let lookupInfo: Set<String> = ["emailAddress", "phoneNumber", "userRecordName"]
        static let nameComponents: Set<String> = [
            "namePrefix", "givenName", "familyName", "nickname", "nameSuffix", "middleName", "phoneticRepresentation",
        ]
        static let user: Set<String> = ["userRecordName", "firstName", "lastName", "emailAddress"]
        static let subscription: Set<String> = [
            "subscriptionID", "subscriptionType", "query", "zoneID", "zoneWide", "firesOn", "firesOnce",
            "notificationInfo",
        ]
        static let subscriptionError: Set<String> = [
            "subscriptionID", "reason", "serverErrorCode", "retryAfter", "uuid", "redirectURL",
        ]
        static let token: Set<String> = ["apnsEnvironment", "apnsToken", "webcourierURL"]
    }

    /// Checks that `value` is an object whose keys are all in `allowed` and include `required`.
    static func expectShape(
        _ value: Value?, _ allowed: Set<String>, required: Set<String> = [], _ what: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard let keys = value?.objectValue?.keys else {
            Issue.record("\(what) is not an object: \(String(describing: value))", sourceLocation: sourceLocation)
            return
        }
        let present = Set(keys)
        #expect(
            present.isSubset(of: allowed), "\(what): unexpected keys \(present.subtracting(allowed))",
            sourceLocation: sourceLocation)
        #expect(
            required.isSubset(of: present), "\(what): missing keys \(required.subtracting(present))",
            sourceLocation: sourceLocation)
    }

    static func expectUserIdentities(
        _ answer: TestClient.Answer, count: Int, topLevelIdentity: Bool = false,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status == 200, "\(answer.text)", sourceLocation: sourceLocation)
        // users/caller also carries the identity at the top level, where CloudKit JS reads it.
        let allowed: Set<String> = topLevelIdentity ? Shape.userIdentity.union(["users"]) : ["users"]
        expectShape(answer.json, allowed, required: ["users"], "answer", sourceLocation: sourceLocation)
        let users = answer.json["users"]?.arrayValue ?? []
        #expect(users.count == count, "\(answer.text)", sourceLocation: sourceLocation)
        for user in users {
            expectShape(
                user, Shape.userIdentity, required: ["userRecordName"], "user identity", sourceLocation: sourceLocation)
            if let info = user["lookupInfo"] {
                expectShape(info, Shape.lookupInfo, "lookupInfo", sourceLocation: sourceLocation)
            }
            if let names = user["nameComponents"] {
                expectShape(names, Shape.nameComponents, "nameComponents", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("answers Apple's users, subscriptions and tokens request shapes with the documented dictionaries")
    func replaysReferenceUserSubscriptionAndTokenRequests() async throws {
        var configuration = TestServer.configuration()
        configuration.containers = [Self.container]
        configuration.apiTokens = [Self.apiToken]
        configuration.users = [
            EmulatorUser(
                userRecordName: "_probeuser", webAuthToken: Self.webAuthToken, emailAddress: "probe@example.com",
                firstName: "Probe", lastName: "User", discoverable: true),
            EmulatorUser(
                userRecordName: "_friend", webAuthToken: "friend-token", emailAddress: "friend@example.com",
                firstName: "Friend", lastName: "User", discoverable: true),
        ]
        let server = try await TestServer.start(configuration: configuration)
        try await stopping(server) { _ in
            let web = Replayer(base: server.baseURL)

            let caller = try await web.send("GET", "public", "users/caller", query: Self.query, body: nil)
            Self.expectUserIdentities(caller, count: 1, topLevelIdentity: true)
            let discovered = try await web.send(
                "POST", "public", "users/discover", query: Self.query,
                body: #"{"lookupInfos":[{"emailAddress":"friend@example.com"},{"userRecordName":"_probeuser"}]}"#)
            Self.expectUserIdentities(discovered, count: 2)
            let everyone = try await web.send("GET", "public", "users/discover", query: Self.query, body: nil)
            Self.expectUserIdentities(everyone, count: 2)

            let byEmail = try await web.send(
                "POST", "public", "users/lookup/email", query: Self.query,
                body: #"{"users":[{"emailAddress":"friend@example.com"}]}"#)
            #expect(byEmail.status == 200 && byEmail.json["users"]?.arrayValue?.count == 1, "\(byEmail.text)")
            Self.expectShape(byEmail.json["users"]?.arrayValue?.first, Shape.user, required: ["userRecordName"], "user")
            let byID = try await web.send(
                "POST", "public", "users/lookup/id", query: Self.query,
                body: #"{"users":[{"userRecordName":"_friend"}]}"#)
            Self.expectShape(
                byID.json["users"]?.arrayValue?.first, Shape.user.subtracting(["emailAddress"]),
                required: ["userRecordName"], "user")

            let modified = try await web.send(
                "POST", "private", "subscriptions/modify", query: Self.query,
                body:
                    #"{"operations":[{"operationType":"create","subscription":{"subscriptionID":"recipe-changes","subscriptionType":"query","query":{"recordType":"Recipe","filterBy":[{"comparator":"EQUALS","fieldName":"title","fieldValue":{"value":"Pancakes"}}]},"firesOn":["create","update","delete"],"notificationInfo":{"alertBody":"A recipe changed","shouldBadge":true}}},{"operationType":"create","subscription":{"subscriptionID":"zone-changes","subscriptionType":"zone","zoneID":{"zoneName":"_defaultZone"}}},{"operationType":"delete","subscription":{"subscriptionID":"never-made","subscriptionType":"zone"}}]}"#
            )
            #expect(modified.status == 200, "\(modified.text)")
            let items = modified.json["subscriptions"]?.arrayValue ?? []
            #expect(items.count == 3)
            for item in items.prefix(2) {
                Self.expectShape(
                    item, Shape.subscription, required: ["subscriptionID", "subscriptionType"], "subscription")
            }
            Self.expectShape(
                items.last, Shape.subscriptionError, required: ["subscriptionID", "serverErrorCode", "reason", "uuid"],
                "subscription error")
            #expect(items.last?["serverErrorCode"]?.stringValue == "NOT_FOUND")
            let listed = try await web.send("GET", "private", "subscriptions/list", query: Self.query, body: nil)
            #expect(listed.json["subscriptions"]?.arrayValue?.count == 2, "\(listed.text)")
            let looked = try await web.send(
                "POST", "private", "subscriptions/lookup", query: Self.query,
                body: #"{"subscriptions":[{"subscriptionID":"recipe-changes"}]}"#)
            Self.expectShape(
                looked.json["subscriptions"]?.arrayValue?.first, Shape.subscription, required: ["query", "firesOn"],
                "subscription")

            // tokens/* sit under the environment, with no database segment.
            let base = server.baseURL.absoluteString + "/database/1/\(Self.container)/development/tokens/"
            let created = try await Self.post(base + "create" + Self.query, #"{"apnsEnvironment":"development"}"#)
            Self.expectShape(created.json, Shape.token, required: Shape.token, "token")
            let token = created.json["apnsToken"]?.stringValue ?? ""
            let registered = try await Self.post(
                base + "register" + Self.query, #"{"apnsEnvironment":"development","apnsToken":"\#(token)"}"#)
            #expect(registered.status == 200, "\(registered.text)")
        }
    }

    static func post(_ url: String, _ body: String) async throws -> TestClient.Answer {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.timeoutInterval = 300  // a full parallel run on 2 cores can answer late
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        return TestClient.Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, data: data, headers: [:])
    }
}
