import Hummingbird
import LarderCloudKit

/// The subscription and APNs token endpoints.
///
/// `subscriptions/list` (GET), `subscriptions/lookup` and `subscriptions/modify`, and
/// `tokens/create` and `tokens/register` (with or without a database segment in the path).
/// Subscriptions and tokens are stored and answered; no push notification is ever sent.
struct SubscriptionsController: Sendable {
    let route: DatabaseRequestPipeline

    func register(on router: Router<EmulatorRequestContext>, base: String) {
        let store = route.services.store
        let list: @Sendable (Request, EmulatorRequestContext) async throws -> Response = { request, context in
            try await route.handle("subscriptions/list", request, context, body: EmptyBody.self) { call, _, _ in
                try await store.listSubscriptions(call: call)
            }
        }
        router.get("\(base)/subscriptions/list", use: list)
        router.post("\(base)/subscriptions/list", use: list)
        router.post("\(base)/subscriptions/lookup") { request, context in
            try await route.handle("subscriptions/lookup", request, context, body: SubscriptionsLookupRequest.self) {
                call, body, _ in
                try await store.lookupSubscriptions(body.subscriptions.map(\.subscriptionID), call: call)
            }
        }
        router.post("\(base)/subscriptions/modify") { request, context in
            try await route.handle("subscriptions/modify", request, context, body: SubscriptionsModifyRequest.self) {
                call, body, _ in
                try await store.modifySubscriptions(body.operations, call: call)
            }
        }
        // Apple's paths have no database segment: `/database/1/{container}/{environment}/tokens/…`;
        // CloudKit JS's `container.registerForNotifications()` posts under `/device/1/…` instead.
        let containerBase = "/database/1/:container/:environment"
        for prefix in [containerBase, "/device/1/:container/:environment", base] {
            router.post("\(prefix)/tokens/create") { request, context in
                let baseURL = route.services.baseURL(for: request)
                return try await route.handle("tokens/create", request, context, body: APNsTokenRequest.self) {
                    call, body, _ in
                    try await store.createAPNsToken(body, baseURL: baseURL, call: call)
                }
            }
            router.post("\(prefix)/tokens/register") { request, context in
                try await route.handle("tokens/register", request, context, body: APNsTokenRequest.self) {
                    call, body, _ in
                    try await store.registerAPNsToken(body, call: call)
                }
            }
        }
    }
}
