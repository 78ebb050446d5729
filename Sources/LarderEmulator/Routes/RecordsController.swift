import Hummingbird
import LarderCloudKit

/// `records/modify`, `records/query`, `records/lookup` and the older `records/changes`.
struct RecordsController: Sendable {
    let route: DatabaseRequestPipeline

    func register(on router: Router<EmulatorRequestContext>, base: String) {
        let store = route.services.store
        router.post("\(base)/records/modify") { request, context in
            try await route.handle("records/modify", request, context, body: ModifyRecordsRequest.self) {
                call, body, faults in
                try await store.modifyRecords(body, call: call, forcedConflict: faults.forceConflict)
            }
        }
        router.post("\(base)/records/query") { request, context in
            try await route.handle("records/query", request, context, body: QueryRecordsRequest.self) { call, body, _ in
                try await store.ensureQueryIndexes(for: body, call: call)
                return try await store.query(body, call: call)
            }
        }
        router.post("\(base)/records/lookup") { request, context in
            try await route.handle("records/lookup", request, context, body: LookupRecordsRequest.self) {
                call, body, _ in
                try await store.lookupRecords(body, call: call)
            }
        }
        router.post("\(base)/records/changes") { request, context in
            try await route.handle("records/changes", request, context, body: RecordChangesRequest.self) {
                call, body, faults in
                guard call.scope != .public else {
                    throw call.error(.badRequest, "records/changes is not available in the public database")
                }
                if faults.forceTokenExpired {
                    throw call.error(.changeTokenExpired, "the sync token has expired (emulator fault rule)")
                }
                return try await store.recordChanges(body, call: call)
            }
        }
        router.post("\(base)/records/accept") { request, context in
            try await route.handle("records/accept", request, context, body: ShortGUIDsRequest.self) { call, body, _ in
                try await store.acceptShares(body, call: call)
            }
        }
        router.post("\(base)/records/resolve") { request, context in
            try await route.handle("records/resolve", request, context, body: ShortGUIDsRequest.self) { call, body, _ in
                try await store.resolveShares(body, call: call)
            }
        }
    }
}
