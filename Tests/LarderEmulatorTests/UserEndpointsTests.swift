import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import LarderTestSupport
#endif

/// users/discover, users/lookup/email, users/lookup/id and users/caller, and the redirectURL of
/// every AUTHENTICATION_REQUIRED.
@Suite struct UserEndpointsTests {
    /// Alice is discoverable (with a phone number), Bob is not, Carol is discoverable.
    static func start() async throws -> TestServer {
        try await TestServer.start { configuration in
            configuration.users[0].discoverable = true
            configuration.users[0].phoneNumber = "+1 (555) 010-0001"
            configuration.users.append(
                EmulatorUser(
                    userRecordName: "_ca401", webAuthToken: "carol-token", emailAddress: "Carol@Example.com",
                    firstName: "Carol", lastName: "Example", discoverable: true))
        }
    }

    @Test("users/discover answers discoverable users only, one per matching lookup info, in order")
    func discoverFindsDiscoverableUsersOnly() async throws {
        let server = try await Self.start()
        try await stopping(server) { _ in
            let bob = server.client(TestServer.bob, database: .public)
            let answer = try await bob.post(
                "users/discover",
                DiscoverUsersRequest(lookupInfos: [
                    LookupInfo(emailAddress: "carol@example.com"), LookupInfo(emailAddress: "bob@example.com"),
                    LookupInfo(phoneNumber: "15550100001"), LookupInfo(userRecordName: "_nobody"),
                    LookupInfo(userRecordName: "_a11ce"),
                ]))
            #expect(answer.status == 200, "\(answer.text)")
            let users = try answer.decode(UserIdentitiesResponse.self).users
            #expect(users.map(\.userRecordName) == ["_ca401", "_a11ce", "_a11ce"])
            #expect(users.first?.nameComponents == NameComponents(givenName: "Carol", familyName: "Example"))
            #expect(users.first?.lookupInfo == LookupInfo(emailAddress: "carol@example.com"))
            let everyone = try await bob.get("users/discover").decode(UserIdentitiesResponse.self).users
            #expect(Set(everyone.compactMap(\.userRecordName)) == ["_a11ce", "_ca401"])
        }
    }

    @Test("users/discover refuses a lookup info with nothing to search by, naming its index")
    func discoverRefusesEmptyLookupInfo() async throws {
        let server = try await Self.start()
        try await stopping(server) { _ in
            let answer = try await server.client(database: .public).post(
                "users/discover", json: #"{"lookupInfos":[{"emailAddress":"a@b.c"},{}]}"#)
            #expect(answer.status == 400 && answer.errorCode == "BAD_REQUEST")
            #expect(answer.json["reason"]?.stringValue?.contains("lookupInfos[1]") == true)
        }
    }

    @Test("users/lookup/email answers user dictionaries; users/lookup/id leaves out emailAddress")
    func lookupByEmailAndID() async throws {
        let server = try await Self.start()
        try await stopping(server) { _ in
            let bob = server.client(TestServer.bob, database: .public)
            let byEmail = try await bob.post(
                "users/lookup/email",
                json: #"{"users":[{"emailAddress":"CAROL@example.com"},{"emailAddress":"bob@example.com"}]}"#)
            let found = try byEmail.decode(UsersResponse.self).users
            #expect(
                found == [
                    CurrentUserResponse(
                        userRecordName: "_ca401", firstName: "Carol", lastName: "Example",
                        emailAddress: "Carol@Example.com")
                ])
            let byID = try await bob.post(
                "users/lookup/id", json: #"{"users":[{"userRecordName":"_a11ce"},{"userRecordName":"_b0b"}]}"#)
            let ids = try byID.decode(UsersResponse.self).users
            #expect(ids.map(\.userRecordName) == ["_a11ce"] && ids.first?.emailAddress == nil)
            #expect(byID.json["users"]?.arrayValue?.first?["emailAddress"] == nil)
            let missingKey = try await bob.post("users/lookup/id", json: #"{"users":[{"emailAddress":"x@y.z"}]}"#)
            #expect(missingKey.status == 400 && missingKey.json["reason"]?.stringValue?.contains("users[0]") == true)
        }
    }

    @Test("users/caller answers the caller's own identity, discoverable or not")
    func callerIsTheSignedInUser() async throws {
        let server = try await Self.start()
        try await stopping(server) { _ in
            let answer = try await server.client(TestServer.bob, database: .public).get("users/caller")
            let users = try answer.decode(UserIdentitiesResponse.self).users
            #expect(users.count == 1 && users.first?.userRecordName == "_b0b")
            #expect(users.first?.lookupInfo?.emailAddress == "bob@example.com")
            #expect(users.first?.nameComponents?.givenName == "Bob")
            // CloudKit JS's fetchCurrentUserIdentity() resolves to the top level: a UserIdentity.
            let identity = try answer.decode(UserIdentity.self)
            #expect(identity.userRecordName == "_b0b" && identity.nameComponents?.givenName == "Bob")
            #expect(identity.lookupInfo?.emailAddress == "bob@example.com")
        }
    }

    @Test("users/current answers the names of a discoverable user only, as Apple's GetCurrentUser says")
    func currentUserNamesOnlyWhenDiscoverable() async throws {
        let server = try await Self.start()
        try await stopping(server) { _ in
            let alice = try await server.client().get("users/current").decode(CurrentUserResponse.self)
            #expect(alice.userRecordName == TestServer.alice.userRecordName && alice.firstName != nil)
            let bob = try await server.client(TestServer.bob).get("users/current").decode(CurrentUserResponse.self)
            #expect(bob.userRecordName == "_b0b")
            #expect(bob.firstName == nil && bob.lastName == nil && bob.emailAddress == nil)
        }
    }

    @Test(
        "every user endpoint without a user is AUTHENTICATION_REQUIRED with a redirectURL",
        arguments: ["users/caller", "users/discover", "users/lookup/email", "users/current", "subscriptions/list"])
    func userEndpointsNeedAUser(operation: String) async throws {
        let server = try await Self.start()
        try await stopping(server) { _ in
            let anonymous = server.client(nil, database: .public)
            let answer =
                operation.hasPrefix("users/lookup")
                ? try await anonymous.post(operation, json: #"{"users":[]}"#) : try await anonymous.get(operation)
            #expect(answer.status == 421 && answer.errorCode == "AUTHENTICATION_REQUIRED", "\(answer.text)")
            #expect(answer.json["redirectURL"]?.stringValue?.hasSuffix("/_emulator/signin") == true)
        }
    }

    @Test("the public database's 421 for a write without a user carries redirectURL")
    func publicWriteWithoutUserHasRedirect() async throws {
        let server = try await Self.start()
        try await stopping(server) { _ in
            let answer = try await server.client(nil, database: .public).post(
                "records/modify", ModifyRecordsRequest(operations: [RecordOperation(.create, .make("p"))]))
            #expect(answer.status == 421)
            #expect(answer.json["redirectURL"]?.stringValue?.hasSuffix("/_emulator/signin") == true)
        }
    }

    @Test("an injected AUTHENTICATION_REQUIRED fault carries redirectURL too")
    func faultedAuthenticationRequiredHasRedirect() async throws {
        let server = try await Self.start()
        try await stopping(server) { _ in
            try await ControlPlaneTests.addFault(
                server, #"{"operation":"zones/list","error":"AUTHENTICATION_REQUIRED","remaining":1}"#)
            let answer = try await server.client().get("zones/list")
            #expect(answer.status == 421 && answer.json["redirectURL"]?.stringValue != nil, "\(answer.text)")
        }
    }
}
