import GRDB
import LarderCloudKit
import LarderSQLite

/// A resolved zone and what the caller may do in it.
struct ZoneAccess: Sendable {
    enum Mode: Sendable {
        /// The caller's own private zone.
        case owner
        /// The public database: everyone reads, creators write their records.
        case publicDatabase
        /// Another user's zone seen through shares.
        case shared(zoneWide: SharePermission?, roots: [String: SharePermission], shares: [String: SharePermission])
    }

    var zone: ZoneRow
    var mode: Mode

    /// Resolves `zoneID` (the default zone when nil) for `call`.
    /// - Throws: `ZONE_NOT_FOUND` when the zone does not exist or is not visible to the caller,
    ///   `AUTHENTICATION_REQUIRED` for private and shared data without a user, `BAD_REQUEST` for a
    ///   shared zone without an owner.
    static func resolve(_ zoneID: RecordZoneID?, call: DatabaseOperationContext, db: Database) throws -> ZoneAccess {
        let zoneID = zoneID ?? .defaultZone
        let notFound = call.error(.zoneNotFound, "Zone '\(zoneID.zoneName)' does not exist")
        switch call.scope {
        case .public:
            guard zoneID.isDefaultZone,
                let zone = try fetchZone(
                    call: call, database: "public", owner: DatabaseOperationContext.publicOwner, name: zoneID.zoneName,
                    db: db)
            else { throw notFound }
            return ZoneAccess(zone: zone, mode: .publicDatabase)
        case .private:
            let user = try call.requireUser()
            if let owner = zoneID.ownerRecordName, owner != user, owner != "__defaultOwner__" { throw notFound }
            guard let zone = try fetchZone(call: call, database: "private", owner: user, name: zoneID.zoneName, db: db)
            else { throw notFound }
            return ZoneAccess(zone: zone, mode: .owner)
        case .shared:
            let user = try call.requireUser()
            guard let owner = zoneID.ownerRecordName else {
                throw call.error(.badRequest, "zoneID.ownerRecordName is required in the shared database")
            }
            guard owner != user, !zoneID.isDefaultZone,
                let zone = try fetchZone(call: call, database: "private", owner: owner, name: zoneID.zoneName, db: db)
            else { throw notFound }
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT shareName, rootRecordName, permission FROM shareMember WHERE zoneId = ? AND userRecordName = ? AND status = 'ACCEPTED'",
                arguments: [zone.id, user])
            guard !rows.isEmpty else { throw notFound }
            var zoneWide: SharePermission?
            var roots: [String: SharePermission] = [:]
            var shares: [String: SharePermission] = [:]
            for row in rows {
                let permission = SharePermission(rawValue: try row.decode(forColumn: "permission", in: .shareMember))
                let shareName: String = try row.decode(forColumn: "shareName", in: .shareMember)
                shares[shareName] = permission
                if let root: String = try row.decode(forColumn: "rootRecordName", in: .shareMember) {
                    roots[root] = max(roots[root] ?? .none, permission)
                } else {
                    zoneWide = max(zoneWide ?? .none, permission)
                }
            }
            return ZoneAccess(zone: zone, mode: .shared(zoneWide: zoneWide, roots: roots, shares: shares))
        }
    }

    static func fetchZone(call: DatabaseOperationContext, database: String, owner: String, name: String, db: Database)
        throws
        -> ZoneRow?
    {
        try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT \(ZoneRow.columns) FROM zone
                    WHERE container = ? AND environment = ? AND database = ? AND owner = ? AND name = ? AND isDeleted = 0
                    """),
            arguments: [call.container, call.environment, database, owner, name]
        ).map(ZoneRow.init(row:))
    }

    /// The caller's permission on an existing record (or on a new record under `parent`).
    func permission(
        recordName: String, parent: String?, isShare: Bool, createdBy: String?, caller: Caller, db: Database
    ) throws
        -> SharePermission
    {
        switch mode {
        case .owner:
            return .readWrite
        case .publicDatabase:
            guard let user = caller.userRecordName else { return .readOnly }
            return createdBy == nil || createdBy == user ? .readWrite : .readOnly
        case .shared(let zoneWide, let roots, let shares):
            if isShare { return shares[recordName].map { min($0, .readOnly) } ?? .none }
            if let zoneWide { return zoneWide }
            var current: String? = recordName
            var nextParent = parent
            var first = true
            for _ in 0..<64 {
                guard let name = current else { return .none }
                if let permission = roots[name] { return permission }
                let up: String?
                if first {
                    up = nextParent
                    first = false
                } else {
                    up = try String.fetchOne(
                        db.cachedStatement(sql: "SELECT parent FROM record WHERE zoneId = ? AND name = ?"),
                        arguments: [zone.id, name])
                }
                nextParent = nil
                current = up
            }
            return .none
        }
    }

    /// Whether reads need a per-record visibility check.
    var filtersRecords: Bool {
        if case .shared(let zoneWide, _, _) = mode { return zoneWide == nil }
        return false
    }

    var isShared: Bool {
        if case .shared = mode { return true }
        return false
    }
}

/// Creates the default zones a configuration implies (public, and each user's private one) so
/// read-only requests never need to create them.
enum DefaultZones {
    static func ensure(configuration: EmulatorConfiguration, db: Database) throws {
        for container in configuration.containers {
            for environment in ["development", "production"] {
                try ensure(
                    container: container, environment: environment, database: "public",
                    owner: DatabaseOperationContext.publicOwner,
                    db: db)
                for user in configuration.users {
                    try ensure(
                        container: container, environment: environment, database: "private", owner: user.userRecordName,
                        db: db)
                }
            }
        }
    }

    static func ensure(container: String, environment: String, database: String, owner: String, db: Database) throws {
        let exists =
            try Bool.fetchOne(
                db,
                sql:
                    "SELECT 1 FROM zone WHERE container = ? AND environment = ? AND database = ? AND owner = ? AND name = ?",
                arguments: [container, environment, database, owner, RecordZoneID.defaultZoneName]) ?? false
        guard !exists else { return }
        let epoch = try Counter.next("databaseSeq", in: db)
        try db.execute(
            sql: """
                INSERT INTO zone (container, environment, database, owner, name, epoch, changeSeq, databaseSeq, isDeleted)
                VALUES (?, ?, ?, ?, ?, ?, 0, ?, 0)
                """,
            arguments: [container, environment, database, owner, RecordZoneID.defaultZoneName, epoch, epoch])
    }
}
