import GRDB
import LarderCloudKit

/// `records/lookup`: each requested name answers with its record or `NOT_FOUND`; records the
/// caller may not see are `NOT_FOUND` too.
struct LookupRecords {
    let call: DatabaseOperationContext
    let request: LookupRecordsRequest

    func run(db: Database) throws -> RecordsResponse {
        guard request.records.count <= call.limits.maxRecordsPerPage else {
            throw call.error(
                .badRequest,
                "\(request.records.count) records in one lookup; the limit is \(call.limits.maxRecordsPerPage)")
        }
        let access = try ZoneAccess.resolve(request.zoneID, call: call, db: db)
        let renderer = RecordRenderer(call: call)
        var results: [RecordResult] = []
        for entry in request.records {
            guard let row = try RecordRow.fetch(zoneID: access.zone.id, name: entry.recordName, in: db), !row.isDeleted,
                try access.permission(
                    recordName: row.name, parent: row.parent, isShare: row.isShare, createdBy: row.createdBy,
                    caller: call.caller, db: db) != .none
            else {
                results.append(
                    .error(call.error(.notFound, "Record not found").recordError(recordName: entry.recordName)))
                continue
            }
            results.append(
                .record(
                    try renderer.record(row, zone: access.zone, desiredKeys: entry.desiredKeys ?? request.desiredKeys)))
        }
        return RecordsResponse(records: results)
    }
}
