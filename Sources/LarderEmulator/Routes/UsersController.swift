import GRDB
import Hummingbird
import LarderCloudKit

/// `users/current`: the signed-in user's record name (and names, as if discoverable).
struct UsersController: Sendable {
    let route: DatabaseRequestPipeline

    func register(on router: Router<EmulatorRequestContext>, base: String) {
        let configuration = route.services.configuration
        let current: @Sendable (Request, EmulatorRequestContext) async throws -> Response = { request, context in
            try await route.handle("users/current", request, context, body: EmptyBody.self) { call, _, _ in
                let name = try call.requireUser()
                let user = configuration.users.first { $0.userRecordName == name }
                return CurrentUserResponse(
                    userRecordName: name, firstName: user?.firstName, lastName: user?.lastName,
                    emailAddress: user?.emailAddress)
            }
        }
        router.get("\(base)/users/current", use: current)
        router.post("\(base)/users/current", use: current)
    }
}
