import Hummingbird
import LarderCloudKit

/// `zones/list`, `zones/lookup`, `zones/modify` and the deprecated `zones/changes`.
struct ZonesController: Sendable {
    let route: DatabaseRequestPipeline

    func register(on router: Router<EmulatorRequestContext>, base: String) {
        let store = route.services.store
        let list: @Sendable (Request, EmulatorRequestContext) async throws -> Response = { request, context in
            try await route.handle("zones/list", request, context, body: EmptyBody.self) { call, _, _ in
                try await store.listZones(call: call)
            }
        }
        router.get("\(base)/zones/list", use: list)
        router.post("\(base)/zones/list", use: list)
        router.post("\(base)/zones/lookup") { request, context in
            try await route.handle("zones/lookup", request, context, body: ZonesLookupRequest.self) { call, body, _ in
                try await store.lookupZones(body, call: call)
            }
        }
        router.post("\(base)/zones/modify") { request, context in
            try await route.handle("zones/modify", request, context, body: ZonesModifyRequest.self) { call, body, _ in
                try await store.modifyZones(body, call: call)
            }
        }
        router.post("\(base)/zones/changes") { request, context in
            try await route.handle("zones/changes", request, context, body: DatabaseChangesRequest.self) {
                call, body, faults in
                guard call.scope != .shared else {
                    throw call.error(
                        .badRequest, "zones/changes is not available in the shared database; use changes/database")
                }
                if faults.forceTokenExpired {
                    throw call.error(.changeTokenExpired, "the sync token has expired (emulator fault rule)")
                }
                return try await store.databaseChanges(
                    syncToken: body.syncToken, resultsLimit: body.resultsLimit, call: call)
            }
        }
    }
}
