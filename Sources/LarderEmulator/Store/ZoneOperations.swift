import GRDB
import LarderCloudKit

/// `zones/list`, `zones/lookup` and `zones/modify`.
struct ZoneOperations {
    let call: DatabaseOperationContext

    func zoneDictionary(_ zone: ZoneRow) -> Zone {
        Zone(zoneID: zone.zoneID, syncToken: zone.token(at: zone.changeSeq), atomic: !zone.isDefault)
    }

    /// Every zone the caller sees in this database.
    func list(db: Database) throws -> ZonesResponse {
        switch call.scope {
        case .public:
            return ZonesResponse(zones: [.zone(zoneDictionary(try ZoneAccess.resolve(nil, call: call, db: db).zone))])
        case .private:
            let user = try call.requireUser()
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ZoneRow.columns) FROM zone WHERE container = ? AND environment = ? AND database = 'private'
                    AND owner = ? AND isDeleted = 0 ORDER BY name != '_defaultZone', name
                    """,
                arguments: [call.container, call.environment, user])
            return ZonesResponse(zones: try rows.map { .zone(zoneDictionary(try ZoneRow(row: $0))) })
        case .shared:
            let user = try call.requireUser()
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT z.id, z.database, z.owner, z.name, z.epoch, z.changeSeq, z.databaseSeq, z.isDeleted
                    FROM zone z JOIN shareMember m ON m.zoneId = z.id
                    WHERE m.userRecordName = ? AND m.status = 'ACCEPTED' AND z.isDeleted = 0
                    AND z.container = ? AND z.environment = ? ORDER BY z.owner, z.name
                    """,
                arguments: [user, call.container, call.environment])
            return ZonesResponse(zones: try rows.map { .zone(zoneDictionary(try ZoneRow(row: $0))) })
        }
    }

    func lookup(_ request: ZonesLookupRequest, db: Database) throws -> ZonesResponse {
        guard request.zones.count <= call.limits.maxRecordsPerPage else {
            throw call.error(
                .badRequest, "\(request.zones.count) zones in one lookup; the limit is \(call.limits.maxRecordsPerPage)"
            )
        }
        var results: [ZoneResult] = []
        for reference in request.zones {
            do {
                results.append(.zone(zoneDictionary(try ZoneAccess.resolve(reference.zoneID, call: call, db: db).zone)))
            } catch let error as CloudKitServerError where error.code == .zoneNotFound || error.code == .badRequest {
                results.append(.error(error.zoneError(zoneID: reference.zoneID)))
            }
        }
        return ZonesResponse(zones: results)
    }

    func modify(_ request: ZonesModifyRequest, db: Database) throws -> ZonesResponse {
        guard call.scope != .shared else {
            throw call.error(.badRequest, "zones cannot be created or deleted in the shared database")
        }
        guard request.operations.count <= call.limits.maxOperationsPerRequest else {
            throw call.error(
                .badRequest,
                "\(request.operations.count) operations in one request; the limit is \(call.limits.maxOperationsPerRequest)"
            )
        }
        let user = try call.requireUser()
        var seen = Set<String>()
        var results: [ZoneResult] = []
        for (index, operation) in request.operations.enumerated() {
            let zoneID = operation.zone.zoneID
            do {
                guard seen.insert(zoneID.zoneName).inserted else {
                    throw call.error(
                        .badRequest, "one operation per zone per request: '\(zoneID.zoneName)' appears twice")
                }
                if let owner = zoneID.ownerRecordName, owner != user, owner != "__defaultOwner__" {
                    throw call.error(.accessDenied, "zones can only be changed in your own private database")
                }
                switch operation.operationType {
                case "create":
                    guard call.scope == .private else {
                        throw call.error(.badRequest, "custom zones exist only in the private database")
                    }
                    results.append(.zone(zoneDictionary(try create(zoneID.zoneName, owner: user, db: db))))
                case "delete":
                    try delete(zoneID.zoneName, owner: user, db: db)
                    results.append(
                        .zone(
                            Zone(zoneID: RecordZoneID(zoneName: zoneID.zoneName, ownerRecordName: user), deleted: true))
                    )
                default:
                    throw call.error(
                        .badRequest,
                        "operations[\(index)].operationType '\(operation.operationType)' is not create or delete")
                }
            } catch let error as CloudKitServerError {
                results.append(.error(error.zoneError(zoneID: zoneID)))
            }
        }
        return ZonesResponse(zones: results)
    }

    private func create(_ name: String, owner: String, db: Database) throws -> ZoneRow {
        guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("_"), CloudKitNameRules.isValidRecordName(name)
        else {
            throw call.error(
                .badRequest, "zone name '\(name)' is not valid (1-255 printable ASCII, not starting with _)")
        }
        let existing = try Row.fetchOne(
            db,
            sql:
                "SELECT \(ZoneRow.columns) FROM zone WHERE container = ? AND environment = ? AND database = 'private' AND owner = ? AND name = ?",
            arguments: [call.container, call.environment, owner, name]
        ).map(ZoneRow.init(row:))
        if let existing, !existing.isDeleted { return existing }
        let sequence = try Counter.next("databaseSeq", in: db)
        if let existing {
            try db.execute(
                sql: "UPDATE zone SET isDeleted = 0, epoch = ?, changeSeq = 0, databaseSeq = ? WHERE id = ?",
                arguments: [sequence, sequence, existing.id])
        } else {
            try db.execute(
                sql: """
                    INSERT INTO zone (container, environment, database, owner, name, epoch, changeSeq, databaseSeq, isDeleted)
                    VALUES (?, ?, 'private', ?, ?, ?, 0, ?, 0)
                    """,
                arguments: [call.container, call.environment, owner, name, sequence, sequence])
        }
        guard let zone = try ZoneAccess.fetchZone(call: call, database: "private", owner: owner, name: name, db: db)
        else {
            throw call.error(.internalError, "zone '\(name)' vanished while being created")
        }
        return zone
    }

    private func delete(_ name: String, owner: String, db: Database) throws {
        guard name != RecordZoneID.defaultZoneName else {
            throw call.error(.badRequest, "the default zone cannot be deleted")
        }
        guard let zone = try ZoneAccess.fetchZone(call: call, database: "private", owner: owner, name: name, db: db)
        else {
            throw call.error(.zoneNotFound, "Zone '\(name)' does not exist")
        }
        let sequence = try Counter.next("databaseSeq", in: db)
        try db.execute(sql: "DELETE FROM record WHERE zoneId = ?", arguments: [zone.id])
        try db.execute(
            sql: "UPDATE shareMember SET status = 'REMOVED', seq = ? WHERE zoneId = ?", arguments: [sequence, zone.id])
        try db.execute(
            sql: "UPDATE zone SET isDeleted = 1, databaseSeq = ? WHERE id = ?", arguments: [sequence, zone.id])
    }
}
