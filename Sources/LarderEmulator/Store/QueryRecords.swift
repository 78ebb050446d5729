import Foundation
import GRDB
import LarderCloudKit
import LarderCore
import Synchronization

/// `records/query`: filters and sorts one record type, a page at a time.
///
/// Scalar comparisons (`EQUALS` … `GREATER_THAN_OR_EQUALS`, `IN`, `NOT_IN`, `BEGINS_WITH`) and
/// sorts run in SQLite over `json_extract`; list, token and `NEAR` comparators and share visibility
/// are checked in Swift while the rows stream from a cursor. The continuation marker is an opaque
/// offset bound to the query it came from.
struct QueryRecords {
    let call: DatabaseOperationContext
    let request: QueryRecordsRequest

    /// A sort the SQL cannot do: by distance from a location.
    typealias DistanceSort = (field: String, from: Location, ascending: Bool)

    /// The fields an index may be made for: the system fields and the fields the schema has.
    ///
    /// The query is checked first as ``run(db:)`` checks it (zones the caller may read, the record
    /// type, every filter and sort): a refused query (an error thrown here) indexes nothing.
    func indexableFields(db: Database) throws -> Set<String> {
        _ = try call.pageSize(request.resultsLimit)
        _ = try resolveZones(db: db)
        let query = request.query
        let schema = try SchemaResolver(call: call, db: db)
        guard schema.hasRecordType(query.recordType) else { return [] }
        for (index, filter) in (query.filterBy ?? []).enumerated() {
            _ = try CompiledFilter(filter, index: index, recordType: query.recordType, schema: schema, call: call)
        }
        _ = try sortOrder(schema: schema)
        _ = try decodeMarker()
        let named = (query.filterBy ?? []).map(\.fieldName) + (query.sortBy ?? []).map(\.fieldName)
        return Set(named.filter { SystemField($0) != nil || schema.fieldType(query.recordType, $0) != nil })
    }

    /// Runs the query: one page of the matching records and, when more follow, the marker of the next.
    func run(db: Database) throws -> QueryResponse {
        let limit = try call.pageSize(request.resultsLimit)
        let query = request.query
        let zones = try resolveZones(db: db)
        let schema = try SchemaResolver(call: call, db: db)
        guard schema.hasRecordType(query.recordType) else {
            if call.isProduction {
                throw call.error(.badRequest, "did not find record type '\(query.recordType)' in the production schema")
            }
            return QueryResponse(records: [], continuationMarker: nil)
        }
        let filters = try (query.filterBy ?? []).enumerated().map { index, filter in
            try CompiledFilter(filter, index: index, recordType: query.recordType, schema: schema, call: call)
        }
        let offset = try decodeMarker()
        var sql =
            "SELECT r.id, r.zoneId, r.name, r.type, r.changeTag, r.changeSeq, r.isDeleted, r.fields, r.createdAt, "
        sql += "r.createdBy, r.createdDevice, r.modifiedAt, r.modifiedBy, r.modifiedDevice, r.parent, r.shareName, "
        sql += "r.shortGUID, r.share FROM record r WHERE "
        sql += zones.count == 1 ? "r.zoneId = ?" : "r.zoneId IN (\(zones.map { _ in "?" }.joined(separator: ",")))"
        sql += " AND r.type = ? AND r.isDeleted = 0"
        var arguments: [any DatabaseValueConvertible] = zones.map(\.zone.id)
        arguments.append(query.recordType)
        for filter in filters {
            if let clause = filter.sql {
                sql += " AND " + clause.text
                arguments.append(contentsOf: clause.arguments)
            }
        }
        let (order, distanceSort) = try sortOrder(schema: schema)
        sql += " ORDER BY " + order.joined(separator: ", ")
        let needsSwift =
            filters.contains { $0.sql == nil } || zones.contains { $0.filtersRecords } || !distanceSort.isEmpty
        if !needsSwift {
            sql += " LIMIT ? OFFSET ?"
            arguments.append(limit + 1)
            arguments.append(offset)
        }
        let renderer = RecordRenderer(call: call)
        let zonesByID = Dictionary(uniqueKeysWithValues: zones.map { ($0.zone.id, $0) })
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
        var matched: [RecordRow]
        if needsSwift {
            matched = try visibleMatches(
                cursor, filters: filters.filter { $0.sql == nil }, zonesByID: zonesByID,
                skipping: distanceSort.isEmpty ? offset : 0, limit: distanceSort.isEmpty ? limit : nil,
                renderer: renderer, db: db)
        } else {
            matched = try Array(cursor.map(RecordRow.init(row:)))
        }
        if !distanceSort.isEmpty {
            matched = try sortByDistance(matched, distanceSort, renderer: renderer)
            matched = Array(matched.dropFirst(offset))
        }
        let hasMore = matched.count > limit
        let page = matched.prefix(limit)
        let records = try page.compactMap { row -> RecordResult? in
            guard let zone = zonesByID[row.zoneID]?.zone else { return nil }
            return .record(try renderer.record(row, zone: zone, desiredKeys: request.desiredKeys))
        }
        return QueryResponse(records: records, continuationMarker: hasMore ? encodeMarker(offset + page.count) : nil)
    }

    /// The SQL `ORDER BY` terms of `sortBy` (the record id last, so pages are stable), and the
    /// sorts by distance, which run in Swift.
    /// - Throws: `BAD_REQUEST` for a field not in the schema, a list, or a type that cannot be sorted.
    private func sortOrder(schema: SchemaResolver) throws -> (order: [String], distance: [DistanceSort]) {
        let query = request.query
        var order: [String] = []
        var distance: [DistanceSort] = []
        for (index, sort) in (query.sortBy ?? []).enumerated() {
            let ascending = sort.ascending ?? true
            if let system = SystemField(sort.fieldName) {
                order.append("\(system.column) \(ascending ? "ASC" : "DESC")")
                continue
            }
            guard let type = schema.fieldType(query.recordType, sort.fieldName) else {
                throw call.error(
                    .badRequest,
                    "sortBy[\(index)]: field '\(sort.fieldName)' is not in the schema of '\(query.recordType)'")
            }
            if type == .location {
                guard let relative = sort.relativeLocation, let location = try? Location(value: relative.value) else {
                    throw call.error(.badRequest, "sortBy[\(index)]: sorting a LOCATION needs relativeLocation")
                }
                distance.append((sort.fieldName, location, ascending))
                continue
            }
            guard !type.isList, [.string, .int64, .double, .timestamp].contains(type) else {
                throw call.error(.badRequest, "sortBy[\(index)]: a \(type.rawValue) field cannot be sorted")
            }
            order.append("\(JSONPath.extract(sort.fieldName)) \(ascending ? "ASC" : "DESC")")
        }
        order.append("r.id")
        return (order, distance)
    }

    /// The rows of `cursor` the caller may see (share permissions) that pass the filters SQL could
    /// not run, after skipping `skipping` of them, and stopping past `limit` (`nil`: all of them).
    private func visibleMatches(
        _ cursor: RowCursor, filters: [CompiledFilter], zonesByID: [Int64: ZoneAccess], skipping: Int, limit: Int?,
        renderer: RecordRenderer, db: Database
    ) throws -> [RecordRow] {
        var matched: [RecordRow] = []
        var skipped = 0
        while let row = try cursor.next() {
            let record = try RecordRow(row: row)
            guard let access = zonesByID[record.zoneID] else { continue }
            if access.filtersRecords {
                let permission = try access.permission(
                    recordName: record.name, parent: record.parent, isShare: record.isShare,
                    createdBy: record.createdBy, caller: call.caller, db: db)
                if permission == .none { continue }
            }
            if !filters.isEmpty {
                let fields = try renderer.fields(of: record)
                guard filters.allSatisfy({ $0.matches(fields[$0.fieldName]) }) else { continue }
            }
            if skipped < skipping {
                skipped += 1
                continue
            }
            matched.append(record)
            if let limit, matched.count > limit { break }
        }
        return matched
    }

    private func resolveZones(db: Database) throws -> [ZoneAccess] {
        if request.zoneWide == true, request.zoneID == nil {
            switch call.scope {
            case .shared:
                throw call.error(.badRequest, "zone-wide queries are not supported in the shared database")
            case .public:
                return [try ZoneAccess.resolve(nil, call: call, db: db)]
            case .private:
                let user = try call.requireUser()
                let names = try String.fetchAll(
                    db,
                    sql:
                        "SELECT name FROM zone WHERE container = ? AND environment = ? AND database = 'private' AND owner = ? AND isDeleted = 0",
                    arguments: [call.container, call.environment, user])
                return try names.map { try ZoneAccess.resolve(RecordZoneID(zoneName: $0), call: call, db: db) }
            }
        }
        return [try ZoneAccess.resolve(request.zoneID, call: call, db: db)]
    }

    private func sortByDistance(
        _ rows: [RecordRow], _ sorts: [(field: String, from: Location, ascending: Bool)], renderer: RecordRenderer
    ) throws -> [RecordRow] {
        let keyed = try rows.map { row -> (RecordRow, [Double]) in
            let fields = try renderer.fields(of: row)
            let keys = sorts.map { sort -> Double in
                guard let field = fields[sort.field], let location = try? Location(value: field.value) else {
                    return .infinity
                }
                return location.distance(to: sort.from)
            }
            return (row, keys)
        }
        return keyed.sorted { lhs, rhs in
            for (index, sort) in sorts.enumerated() where lhs.1[index] != rhs.1[index] {
                return sort.ascending ? lhs.1[index] < rhs.1[index] : lhs.1[index] > rhs.1[index]
            }
            return lhs.0.id < rhs.0.id
        }.map(\.0)
    }

    /// A fingerprint of the query, so a marker cannot be replayed against another query.
    private var fingerprint: String {
        var copy = request
        copy.continuationMarker = nil
        copy.resultsLimit = nil
        // An absent key and its default are the same query: CloudKit JS's performQuery(previous)
        // sends `numbersAsStrings: false, zoneWide: false` where the first page had neither, and the
        // number format is only how the answer is written.
        copy.numbersAsStrings = nil
        if copy.zoneWide == false { copy.zoneWide = nil }
        if copy.zoneID == nil { copy.zoneID = RecordZoneID(zoneName: RecordZoneID.defaultZoneName) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(copy)) ?? Data()
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 1_099_511_628_211
        }
        return String(hash, radix: 36)
    }

    private func encodeMarker(_ offset: Int) -> String {
        Data("q1:\(offset):\(fingerprint)".utf8).base64EncodedString()
    }

    private func decodeMarker() throws -> Int {
        guard let marker = request.continuationMarker else { return 0 }
        guard let data = Data(base64Encoded: marker) else {
            throw call.error(.badRequest, "continuationMarker is not one this server returned")
        }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ":")
        guard parts.count == 3, parts[0] == "q1", let offset = Int(parts[1]), offset >= 0 else {
            throw call.error(.badRequest, "continuationMarker is not one this server returned")
        }
        guard parts[2] == fingerprint else {
            throw call.error(.badRequest, "continuationMarker belongs to a different query")
        }
        return offset
    }
}

/// JSON paths into the stored `fields` column.
///
/// Field names are validated identifiers (letters, digits, `_`), so they are written into the SQL literally: that lets
/// SQLite use the per-field expression indexes ``QueryIndexes`` creates.
enum JSONPath {
    static func value(_ field: String) -> String { "$.\"\(field)\".value" }

    static func extract(_ field: String) -> String { "json_extract(r.fields, '\(value(field))')" }
}

/// Expression indexes on queried fields, and indexes on the system columns (`___modTime`, …), made the
/// first time a field is filtered or sorted on (CloudKit needs QUERYABLE / SORTABLE indexes too; here
/// they appear on demand).
final class QueryIndexes: Sendable {
    private let known = Mutex<Set<String>>([])
    /// Fields whose index a background build (``startBuilding(for:in:)``) is making now.
    private let building = Mutex<Set<String>>([])
    /// A background build's failure, per field, until ``startBuilding(for:in:)`` reports it.
    private let failures = Mutex<[String: String]>([:])

    /// Where the indexes a query can use stand.
    struct Progress: Equatable {
        /// Fields still without a finished index (being built now).
        var pending: Set<String> = []
        /// Fields whose last background build failed, with SQLite's message (reported once: the next
        /// call builds them again).
        var failed: [String: String] = [:]
    }

    /// Field indexes made at most.
    ///
    /// Each costs every write to the record table (2,001 of them took a write from 2.4 ms to 84 ms).
    /// Fields past it are queried without an index.
    static let maxFieldIndexes = 64

    /// Creates the indexes of `fields` (checked by ``QueryRecords/indexableFields(db:)``) that do not
    /// exist yet, up to ``maxFieldIndexes``.
    func ensure(fields: Set<String>, in writer: any DatabaseWriter) async throws {
        let missing = within(fields.filter { SystemField($0) != nil || CloudKitNameRules.isValidFieldName($0) })
        guard !missing.isEmpty else { return }
        try await build(missing, in: writer)
    }

    /// `fields` less those already indexed, and less those past the cap.
    private func within(_ fields: Set<String>) -> Set<String> {
        known.withLock { known in
            var room = Self.maxFieldIndexes - known.count
            var kept = Set<String>()
            for field in fields.subtracting(known).sorted() where room > 0 {
                kept.insert(field)
                room -= 1
            }
            return kept
        }
    }

    /// Creates the indexes `request` can use that do not exist yet (each in its own write).
    func ensure(for query: Query, in writer: any DatabaseWriter) async throws {
        let missing = within(missingFields(of: query))
        guard !missing.isEmpty else { return }
        try await build(missing, in: writer)
    }

    /// Creates the indexes of `fields` in one write, and remembers them.
    private func build(_ fields: Set<String>, in writer: any DatabaseWriter) async throws {
        try await writer.write { db in try Self.create(fields, db: db) }
        known.withLock { $0.formUnion(fields) }
    }

    /// ``ensure(for:in:)`` without suspending (the fuzz target's path).
    func ensure(for query: Query, in writer: any DatabaseWriter) throws {
        let missing = within(missingFields(of: query))
        guard !missing.isEmpty else { return }
        try writer.write { db in try Self.create(missing, db: db) }
        known.withLock { $0.formUnion(missing) }
    }

    /// Starts making, off the caller's path, the indexes `query` can use that are missing.
    ///
    /// Returns what is still missing. The dashboard uses this so that no page waits for an index
    /// over a million rows (seconds); `records/query` keeps ``ensure(for:in:)``, as a client expects
    /// an answer, not a notice.
    func startBuilding(for query: Query, in writer: any DatabaseWriter) -> Progress {
        let missing = within(missingFields(of: query))
        guard !missing.isEmpty else { return Progress() }
        // A failure is reported once; the call after that tries again.
        let failed = failures.withLock { failures in
            let reported = failures.filter { missing.contains($0.key) }
            for field in reported.keys { failures[field] = nil }
            return reported
        }
        let start = building.withLock { building -> Set<String> in
            let fresh = missing.subtracting(building).subtracting(failed.keys)
            building.formUnion(fresh)
            return fresh
        }
        if !start.isEmpty {
            Task.detached { [self] in
                defer { building.withLock { $0.subtract(start) } }
                do {
                    try await build(start, in: writer)
                } catch {
                    failures.withLock { failures in for field in start { failures[field] = "\(error)" } }
                }
            }
        }
        return Progress(pending: missing.subtracting(failed.keys), failed: failed)
    }

    /// The valid fields (system fields included) `query` filters or sorts on that have no index yet.
    private func missingFields(of query: Query) -> Set<String> {
        var fields = Set((query.filterBy ?? []).map(\.fieldName))
        fields.formUnion((query.sortBy ?? []).map(\.fieldName))
        return fields.filter { SystemField($0) != nil || CloudKitNameRules.isValidFieldName($0) }
            .subtracting(known.withLock { $0 })
    }

    private static func create(_ fields: Set<String>, db: Database) throws {
        for field in fields {
            if let system = SystemField(field) {
                // `UNIQUE (zoneId, name)` already orders by name; the others sort a million rows without one.
                let column = system.column.dropFirst("r.".count)
                guard column != "name" else { continue }
                try db.execute(
                    sql: """
                        CREATE INDEX IF NOT EXISTS "system_\(column)" ON record (zoneId, type, \(column)) WHERE isDeleted = 0
                        """)
                continue
            }
            try db.execute(
                sql: """
                    CREATE INDEX IF NOT EXISTS "field_\(field)" ON record (zoneId, type, \
                    json_extract(fields, '\(JSONPath.value(field))')) WHERE isDeleted = 0
                    """)
        }
    }
}

/// Fields every record has: `___recordID`, `___createTime`, `___modTime`, `___createdBy`, `___modifiedBy`.
struct SystemField {
    let column: String
    let type: FieldType

    init?(_ name: String) {
        switch name {
        case "___recordID", "recordName": (column, type) = ("r.name", .string)
        case "___createTime": (column, type) = ("r.createdAt", .timestamp)
        case "___modTime": (column, type) = ("r.modifiedAt", .timestamp)
        case "___createdBy": (column, type) = ("r.createdBy", .string)
        case "___modifiedBy": (column, type) = ("r.modifiedBy", .string)
        default: return nil
        }
    }
}
