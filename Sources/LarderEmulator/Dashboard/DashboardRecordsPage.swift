import LarderCloudKit
import LarderCore

/// A zone's records, one page at a time.
///
/// By record type the page runs `records/query`'s own code (filter with its comparators, sort,
/// continuation marker); across types it lists by record name with a keyset bound on the
/// `(zoneId, name)` index. No page reads more than one page of rows plus one.
struct DashboardRecordsPage {
    let zone: DashboardZone
    let parameters: [String: String]
    let services: EmulatorServices

    /// The default number of records per page; `size` may ask for up to ``maxPageSize``.
    static let pageSize = 50
    static let maxPageSize = 200

    /// The records per page: `size`, clamped to 1…``maxPageSize``.
    var limit: Int { min(max(parameters["size"].flatMap { Int($0) } ?? Self.pageSize, 1), Self.maxPageSize) }
    static let comparators: [Comparator] = [
        .equals, .notEquals, .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals, .beginsWith,
        .notBeginsWith, .containsAllTokens, .containsAnyTokens, .listContains, .notListContains,
        .listMemberBeginsWith,
    ]

    var recordType: String { parameters["type"] ?? "" }

    /// The query the form describes, or nil when no record type is chosen.
    func query(schema: [String: [String: FieldType]]) -> QueryRecordsRequest? {
        guard !recordType.isEmpty else { return nil }
        var query = Query(recordType: recordType)
        if let field = parameters["field"], !field.isEmpty, let text = parameters["value"] {
            let comparator = Comparator(rawValue: parameters["cmp"] ?? "EQUALS")
            let type = schema[recordType]?[field] ?? SystemField(field)?.type ?? .string
            query.filterBy = [QueryFilter(comparator, field, RecordField(value: Self.operand(text, type: type)))]
        }
        if let sort = parameters["sort"], !sort.isEmpty {
            query.sortBy = [QuerySort(fieldName: sort, ascending: parameters["desc"] != "1")]
        }
        let marker = parameters["marker"].flatMap { $0.isEmpty ? nil : $0 }
        return QueryRecordsRequest(
            query: query, zoneID: zone.zoneID, resultsLimit: limit, continuationMarker: marker)
    }

    /// The form's text as the JSON value a filter on a field of `type` takes.
    static func operand(_ text: String, type: FieldType) -> Value {
        switch type.elementType {
        case .int64: Int64(text).map(Value.int) ?? .string(text)
        case .double, .timestamp: Double(text).map(Value.double) ?? .string(text)
        case .reference:
            .object(
                Fields([Field(key: "recordName", value: .string(text)), Field(key: "action", value: .string("NONE"))]))
        default: .string(text)
        }
    }

    /// One page of records; `next` is the query of the following page, when there is one.
    /// - Throws: ``CloudKitServerError`` for a refused query; the store's error.
    func records(request: QueryRecordsRequest?) async throws -> (records: [Record], next: [(String, String)]?) {
        let call = zone.call(services: services)
        let store = services.store
        guard let request else {
            let page = try await store.recordsByName(
                in: zone.row, after: parameters["after"] ?? "", limit: limit, call: call)
            return (page.records, page.nextAfter.map { [("after", $0)] })
        }
        let answer = try await store.query(request, call: call)
        let records = answer.records.compactMap { result -> Record? in
            if case .success(let record) = result { return record }
            return nil
        }
        return (records, answer.continuationMarker.map { [("marker", $0)] })
    }
}
