import Foundation
import LarderCloudKit
import LarderCore

/// Editing one field of a record and deleting a record from the record page.
///
/// Both are `records/modify` operations run by the store's own ``EmulatorStore/modifyRecords(_:call:forcedConflict:)``
/// (the code the API route calls), so the change tag, the zone's change sequence, the change feed
/// and sync tokens move exactly as for an app's request. An edit is an `update` carrying the change
/// tag the page showed: if the record changed since, it fails with `CONFLICT` and changes nothing.
/// A delete is a `delete` with that change tag, likewise. The writer is the zone's owner (in the
/// public database, the record's creator), from device `larder-dashboard`.
struct DashboardRecordEditor {
    /// The zone of the records changed.
    let zone: DashboardZone
    /// The store and configuration the operations run with.
    let services: EmulatorServices

    /// The scalar field types a form can edit.
    static let editable: Set<FieldType> = [.string, .int64, .double, .timestamp]

    /// `text` as the JSON value of a field of `type`: an integer, a number, a timestamp as epoch
    /// milliseconds or ISO-8601, or the text (line ends as `\n`).
    /// - Throws: `BAD_REQUEST` naming the field when the text is not such a value.
    static func value(_ text: String, type: FieldType, field: String) throws(CloudKitServerError) -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch type {
        case .string: return .string(text.replacingOccurrences(of: "\r\n", with: "\n"))
        case .int64:
            guard let number = Int64(trimmed) else { throw .badRequest("\(field): '\(trimmed)' is not an integer") }
            return .int(number)
        case .double:
            guard let number = Double(trimmed), number.isFinite else {
                throw .badRequest("\(field): '\(trimmed)' is not a number")
            }
            return .double(number)
        case .timestamp:
            if let milliseconds = Int64(trimmed) { return .int(milliseconds) }
            guard let date = Timestamp.parse(trimmed) else {
                throw .badRequest("\(field): '\(trimmed)' is neither epoch milliseconds nor an ISO-8601 time")
            }
            return .int(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        default: throw .badRequest("\(field): a \(type.rawValue) field cannot be edited here")
        }
    }

    /// Sets `field` of `row` to `text` (parsed for the field's stored type), if the record still
    /// has change tag `changeTag`.
    /// - Throws: ``CloudKitServerError``: `BAD_REQUEST` for a value of the wrong kind or a field
    ///   that cannot be edited, the operation's own error (`CONFLICT`, …) otherwise.
    func edit(_ row: RecordRow, field: String, text: String, changeTag: String) async throws {
        let stored = try RecordRenderer(call: zone.call(services: services)).fields(of: row)
        guard let type = stored[field]?.type?.canonical, Self.editable.contains(type) else {
            throw CloudKitServerError.badRequest(
                "\(field): only STRING, INT64, DOUBLE and TIMESTAMP fields can be edited")
        }
        let value = try Self.value(text, type: type, field: field)
        let record = Record(
            recordName: row.name, recordType: row.type, recordChangeTag: changeTag,
            fields: [field: RecordField(value: value, type: type)])
        try await run(RecordOperation(.update, record), row: row)
    }

    /// Deletes `row` if it still has change tag `changeTag`.
    /// - Throws: The operation's ``CloudKitServerError`` (`CONFLICT`, …).
    func delete(_ row: RecordRow, changeTag: String) async throws {
        try await run(RecordOperation(.delete, Record(recordName: row.name, recordChangeTag: changeTag)), row: row)
    }

    /// Runs one operation as records/modify does; a per-record error becomes the thrown error.
    private func run(_ operation: RecordOperation, row: RecordRow) async throws {
        let call = zone.call(services: services, as: zone.isPublic ? row.createdBy : nil)
        let request = ModifyRecordsRequest(operations: [operation], zoneID: zone.zoneID)
        let answer = try await services.store.modifyRecords(request, call: call, forcedConflict: false)
        if let failure = answer.records.first?.error {
            throw CloudKitServerError(failure.serverErrorCode, failure.reason)
        }
    }
}
