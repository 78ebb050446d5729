import GRDB
import LarderCloudKit
import LarderSQLite

/// One zone's change feed since a token: records and tombstones in change order (or, with
/// `reverse`, each page newest first), a page at a time.
struct RecordChanges {
    let call: DatabaseOperationContext

    struct Page {
        var zone: ZoneRow
        var records: [RecordResult]
        var syncToken: String
        var moreComing: Bool
    }

    /// Reads a page of `zoneID`'s changes after `syncToken`.
    /// - Throws: `ZONE_NOT_FOUND`, `BAD_REQUEST` for a token this server did not make (garbled, or
    ///   another zone's), `CHANGE_TOKEN_EXPIRED` for a token from an earlier life of the zone or
    ///   from beyond its history.
    func page(
        zoneID: RecordZoneID?, syncToken: String?, resultsLimit: Int?, desiredKeys: [String]?, recordTypes: [String]?,
        reverse: Bool = false, db: Database
    ) throws -> Page {
        let access = try ZoneAccess.resolve(zoneID, call: call, db: db)
        let zone = access.zone
        var since: Int64 = 0
        if let syncToken, !syncToken.isEmpty {
            guard let token = ChangeToken.decode(syncToken), token.kind == .zone else {
                throw call.error(.badRequest, "Unknown sync continuation type")
            }
            guard token.scope == zone.id else {
                throw call.error(.badRequest, "the sync token belongs to another zone")
            }
            guard token.epoch == zone.epoch, token.sequence <= zone.changeSeq else {
                throw call.error(.changeTokenExpired, "the sync token has expired; fetch again without a token")
            }
            since = token.sequence
        }
        let limit = try call.pageSize(resultsLimit)
        var sql = "SELECT \(RecordRow.columns) FROM record WHERE zoneId = ? AND changeSeq > ?"
        var arguments: [any DatabaseValueConvertible] = [zone.id, since]
        if let recordTypes, !recordTypes.isEmpty {
            sql += " AND (isDeleted = 1 OR type IN (\(recordTypes.map { _ in "?" }.joined(separator: ", "))))"
            arguments.append(contentsOf: recordTypes)
        }
        sql += " ORDER BY changeSeq"
        if !access.filtersRecords {
            sql += " LIMIT ?"
            arguments.append(limit + 1)
        }
        let renderer = RecordRenderer(call: call)
        var rows: [RecordRow] = []
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
        while let row = try cursor.next() {
            let record = try RecordRow(row: row)
            if access.filtersRecords {
                let permission = try access.permission(
                    recordName: record.name, parent: record.parent, isShare: record.isShare,
                    createdBy: record.createdBy,
                    caller: call.caller, db: db)
                if permission == .none { continue }
            }
            rows.append(record)
            if rows.count > limit { break }
        }
        let moreComing = rows.count > limit
        let page = rows.prefix(limit)
        let sequence = moreComing ? (page.last?.changeSeq ?? since) : zone.changeSeq
        // `reverse` orders the page newest first; the page itself (and so its token and
        // `moreComing`) is the forward one, so paging in reverse neither skips nor repeats a change.
        let ordered = reverse ? Array(page.reversed()) : Array(page)
        return Page(
            zone: zone,
            records: try ordered.map { .record(try renderer.record($0, zone: zone, desiredKeys: desiredKeys)) },
            syncToken: zone.token(at: sequence), moreComing: moreComing)
    }
}

/// A database's zone feed since a token: the zones whose content (or visibility) changed.
struct DatabaseChanges {
    let call: DatabaseOperationContext

    func run(syncToken: String?, resultsLimit: Int?, db: Database) throws -> DatabaseChangesResponse {
        let user = try call.requireUser()
        let epoch = try Counter.current("storeEpoch", in: db)
        let scopeKey = Int64(
            truncatingIfNeeded: StableHash.of("\(call.container)/\(call.environment)/\(call.scope.rawValue)/\(user)"))
        var since: Int64 = 0
        if let syncToken, !syncToken.isEmpty {
            guard let token = ChangeToken.decode(syncToken), token.kind == .database, token.scope == scopeKey else {
                throw call.error(.badRequest, "Unknown sync continuation type")
            }
            guard token.epoch == epoch, token.sequence <= (try Counter.current("databaseSeq", in: db)) else {
                throw call.error(.changeTokenExpired, "the sync token has expired; fetch again without a token")
            }
            since = token.sequence
        }
        let limit = try call.pageSize(resultsLimit)
        var changed: [(zone: Zone, sequence: Int64)] = []
        switch call.scope {
        case .private, .public:
            let database = call.scope == .public ? "public" : "private"
            let owner = call.scope == .public ? DatabaseOperationContext.publicOwner : user
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ZoneRow.columns) FROM zone WHERE container = ? AND environment = ? AND database = ? AND owner = ?
                    AND databaseSeq > ? ORDER BY databaseSeq LIMIT ?
                    """,
                arguments: [call.container, call.environment, database, owner, since, limit + 1])
            changed = try rows.map(ZoneRow.init(row:)).map { zone in
                (
                    Zone(
                        zoneID: zone.zoneID, syncToken: zone.isDeleted ? nil : zone.token(at: zone.changeSeq),
                        atomic: !zone.isDefault, deleted: zone.isDeleted ? true : nil), zone.databaseSeq
                )
            }
        case .shared:
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT z.id, z.database, z.owner, z.name, z.epoch, z.changeSeq, z.databaseSeq, z.isDeleted,
                        MAX(m.seq) AS memberSeq, MAX(m.status = 'ACCEPTED') AS visible, MAX(m.status = 'REMOVED') AS removed
                    FROM zone z JOIN shareMember m ON m.zoneId = z.id
                    WHERE m.userRecordName = ? AND z.container = ? AND z.environment = ?
                    GROUP BY z.id
                    """,
                arguments: [user, call.container, call.environment])
            for row in rows {
                let zone = try ZoneRow(row: row)
                let memberSeq: Int64 = try row.decode(atIndex: 8, in: .shareMember)
                let visible: Bool = try row.decode(atIndex: 9, in: .shareMember)
                let removed: Bool = try row.decode(atIndex: 10, in: .shareMember)
                let sequence = max(zone.databaseSeq, memberSeq)
                // Pending invitations are not visible; a zone that was visible and is no longer is reported deleted.
                guard sequence > since, visible || removed else { continue }
                let gone = zone.isDeleted || !visible
                changed.append(
                    (
                        Zone(
                            zoneID: zone.zoneID, syncToken: gone ? nil : zone.token(at: zone.changeSeq), atomic: true,
                            deleted: gone ? true : nil), sequence
                    ))
            }
            changed.sort { $0.sequence < $1.sequence }
        }
        let moreComing = changed.count > limit
        let page = changed.prefix(limit)
        let sequence = moreComing ? (page.last?.sequence ?? since) : try Counter.current("databaseSeq", in: db)
        let token = ChangeToken(kind: .database, scope: scopeKey, epoch: epoch, sequence: max(sequence, since)).encoded
        return DatabaseChangesResponse(zones: page.map(\.zone), syncToken: token, moreComing: moreComing)
    }
}

/// FNV-1a, 64 bits, for stable scope keys.
enum StableHash {
    static func of(_ text: String) -> UInt64 {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 1_099_511_628_211
        }
        return hash
    }
}
