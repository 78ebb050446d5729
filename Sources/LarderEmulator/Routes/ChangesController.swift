import GRDB
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
                return try await store.writer.read { db in
                    try DatabaseChanges(call: call).run(
                        syncToken: body.syncToken, resultsLimit: body.resultsLimit, db: db)
                }
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
                return try await store.writer.read { db in
                    var results: [ZoneChangesResult] = []
                    for options in body.zones {
                        if faults.forceTokenExpired {
                            results.append(
                                .error(
                                    call.error(.changeTokenExpired, "the sync token has expired (emulator fault rule)")
                                        .zoneError(zoneID: options.zoneID)))
                            continue
                        }
                        do {
                            let page = try RecordChanges(call: call).page(
                                zoneID: options.zoneID, syncToken: options.syncToken,
                                resultsLimit: options.resultsLimit ?? body.resultsLimit,
                                desiredKeys: options.desiredKeys ?? body.desiredKeys,
                                recordTypes: options.desiredRecordTypes ?? body.desiredRecordTypes,
                                reverse: options.reverse ?? body.reverse ?? false, db: db)
                            results.append(
                                .changes(
                                    ZoneChanges(
                                        zoneID: page.zone.zoneID, syncToken: page.syncToken,
                                        moreComing: page.moreComing,
                                        records: page.records)))
                        } catch let error as CloudKitServerError where error.code != .authenticationRequired {
                            results.append(.error(error.zoneError(zoneID: options.zoneID)))
                        }
                    }
                    return ZoneChangesResponse(zones: results)
                }
            }
        }
    }
}
