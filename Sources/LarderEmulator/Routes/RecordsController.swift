import GRDB
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
                try await store.writer.write { db in
                    var operation = ModifyRecords(call: call, request: body)
                    operation.forcedConflict = faults.forceConflict
                    let answer = try operation.run(db: db)
                    try AssetCatalog.collect(db: db, blobs: store.blobs, now: call.nowMilliseconds)
                    return answer
                }
            }
        }
        router.post("\(base)/records/query") { request, context in
            try await route.handle("records/query", request, context, body: QueryRecordsRequest.self) { call, body, _ in
                // Indexes only for a query the caller may run, on fields the schema has (a refused
                // query left a lasting index on the shared record table before).
                let fields = try await store.writer.read { db in
                    try QueryRecords(call: call, request: body).indexableFields(db: db)
                }
                try await store.queryIndexes.ensure(fields: fields, in: store.writer)
                return try await store.writer.read { db in try QueryRecords(call: call, request: body).run(db: db) }
            }
        }
        router.post("\(base)/records/lookup") { request, context in
            try await route.handle("records/lookup", request, context, body: LookupRecordsRequest.self) {
                call, body, _ in
                try await store.writer.read { db in try LookupRecords(call: call, request: body).run(db: db) }
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
                return try await store.writer.read { db in
                    let page = try RecordChanges(call: call).page(
                        zoneID: body.zoneID, syncToken: body.syncToken, resultsLimit: body.resultsLimit,
                        desiredKeys: body.desiredKeys, recordTypes: body.desiredRecordTypes, db: db)
                    return RecordChangesResponse(
                        records: page.records, syncToken: page.syncToken, moreComing: page.moreComing,
                        zoneID: page.zone.zoneID)
                }
            }
        }
        router.post("\(base)/records/accept") { request, context in
            try await route.handle("records/accept", request, context, body: ShortGUIDsRequest.self) { call, body, _ in
                try await store.writer.write { db in try ShareOperations(call: call).run(body, accept: true, db: db) }
            }
        }
        router.post("\(base)/records/resolve") { request, context in
            try await route.handle("records/resolve", request, context, body: ShortGUIDsRequest.self) { call, body, _ in
                try await store.writer.read { db in try ShareOperations(call: call).run(body, accept: false, db: db) }
            }
        }
    }
}
