import Hummingbird
import LarderCloudKit

/// The user endpoints.
///
/// `users/current`, `users/caller`, `users/discover` (GET and POST), `users/lookup/email` and
/// `users/lookup/id`. All need a signed-in user (a server key acts as its user); without one they
/// answer `AUTHENTICATION_REQUIRED` with a `redirectURL`.
struct UsersController: Sendable {
    let route: DatabaseRequestPipeline

    func register(on router: Router<EmulatorRequestContext>, base: String) {
        let configuration = route.services.configuration
        let directory = UserDirectory(users: configuration.users)
        let current: @Sendable (Request, EmulatorRequestContext) async throws -> Response = { request, context in
            try await route.handle("users/current", request, context, body: EmptyBody.self) { call, _, _ in
                let name = try call.requireUser()
                // WSREF GetCurrentUser: the names only when the user is discoverable.
                guard let user = configuration.users.first(where: { $0.userRecordName == name }), user.discoverable
                else { return CurrentUserResponse(userRecordName: name) }
                return CurrentUserResponse(
                    userRecordName: name, firstName: user.firstName, lastName: user.lastName,
                    emailAddress: user.emailAddress)
            }
        }
        router.get("\(base)/users/current", use: current)
        router.post("\(base)/users/current", use: current)
        let caller: @Sendable (Request, EmulatorRequestContext) async throws -> Response = { request, context in
            try await route.handle("users/caller", request, context, body: EmptyBody.self) { call, _, _ in
                CallerIdentityResponse(directory.caller(try call.requireUser()))
            }
        }
        router.get("\(base)/users/caller", use: caller)
        router.post("\(base)/users/caller", use: caller)
        router.get("\(base)/users/discover") { request, context in
            try await route.handle("users/discover", request, context, body: EmptyBody.self) { call, _, _ in
                _ = try call.requireUser()
                return UserIdentitiesResponse(users: directory.everyone())
            }
        }
        router.post("\(base)/users/discover") { request, context in
            try await route.handle("users/discover", request, context, body: DiscoverUsersRequest.self) {
                call, body, _ in
                _ = try call.requireUser()
                return UserIdentitiesResponse(users: try directory.discover(body.lookupInfos, field: "lookupInfos"))
            }
        }
        for (path, byEmail) in [("email", true), ("id", false)] {
            router.post("\(base)/users/lookup/\(path)") { request, context in
                try await route.handle("users/lookup/\(path)", request, context, body: LookupUsersRequest.self) {
                    call, body, _ in
                    _ = try call.requireUser()
                    return UsersResponse(users: try directory.lookUp(body.users, byEmail: byEmail))
                }
            }
        }
    }
}
