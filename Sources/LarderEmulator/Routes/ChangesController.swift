import Hummingbird
import LarderCloudKit

/// `changes/database` and `changes/zone` (private and shared databases).
struct ChangesController: Sendable {
    let route: DatabaseRequestPipeline

    func register(on router: Router<EmulatorRequestContext>, base: String) {
        let store = route.services.store
        router.post("\(base)/changes/database") { request, context in
            try await route.handle("changes/database", request, context, body: DatabaseChangesRequest.self) {
                call, body, faults in
                guard call.scope != .public else {
                    throw call.error(
                        .badRequest, "changes/database is available in the private and shared databases only")
                }
                if faults.forceTokenExpired {
                    throw call.error(.changeTokenExpired, "the sync token has expired (emulator fault rule)")
                }
                return try await store.databaseChanges(
                    syncToken: body.syncToken, resultsLimit: body.resultsLimit, call: call)
            }
        }
        router.post("\(base)/changes/zone") { request, context in
            try await route.handle("changes/zone", request, context, body: ZoneChangesRequest.self) {
                call, body, faults in
                guard call.scope != .public else {
                    throw call.error(.badRequest, "changes/zone is available in the private and shared databases only")
                }
                guard body.zones.count <= call.limits.maxRecordsPerPage else {
                    throw call.error(.badRequest, "too many zones in one changes/zone request")
                }
                return try await store.zoneChanges(body, call: call, forceTokenExpired: faults.forceTokenExpired)
            }
        }
    }
}
