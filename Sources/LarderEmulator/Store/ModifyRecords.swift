import Foundation
import GRDB
import LarderCloudKit
import LarderCore

/// `records/modify`: applies the operations in order, in the request's transaction.
///
/// Each item answers with the record, a tombstone, or its own error inside a 200 response. With
/// `atomic` (the default) in custom zones, one failure rolls every write back: the failing items
/// keep their code and the others get `ATOMIC_ERROR`.
struct ModifyRecords {
    let call: DatabaseOperationContext
    let request: ModifyRecordsRequest
    /// A fault rule forces every operation to fail with `CONFLICT`.
    var forcedConflict = false

    func run(db: Database) throws -> RecordsResponse {
        guard request.operations.count <= call.limits.maxOperationsPerRequest else {
            throw call.error(
                .badRequest,
                "\(request.operations.count) operations in one request; the limit is \(call.limits.maxOperationsPerRequest)"
            )
        }
        _ = try call.requireUser()
        if forcedConflict {
            return RecordsResponse(
                records: request.operations.map {
                    .error(
                        call.error(.conflict, "conflict forced by an emulator fault rule").recordError(
                            recordName: $0.record.recordName))
                })
        }
        let session = WriteSession(call: call, db: db)
        var schema = try SchemaResolver(call: call, db: db)
        let atomic = request.atomic ?? true
        var results: [RecordResult] = []
        if atomic && touchesOnlyCustomZones() {
            var failed = false
            try db.inSavepoint {
                results = try apply(session: session, schema: &schema, db: db)
                failed = results.contains { $0.error != nil }
                return failed ? .rollback : .commit
            }
            if failed {
                session.discardPending()
                results = results.map { result in
                    if let error = result.error { return .error(error) }
                    let name = result.record?.recordName
                    return .error(
                        call.error(.atomicError, "another operation of this atomic request failed").recordError(
                            recordName: name))
                }
            }
        } else {
            results = try apply(session: session, schema: &schema, db: db)
        }
        try session.finish()
        return RecordsResponse(records: results)
    }

    private func touchesOnlyCustomZones() -> Bool {
        request.operations.allSatisfy { operation in
            let zone = operation.record.zoneID ?? request.zoneID ?? .defaultZone
            return !zone.isDefaultZone
        }
    }

    private func apply(session: WriteSession, schema: inout SchemaResolver, db: Database) throws -> [RecordResult] {
        var seen = Set<String>()
        var zones: [RecordZoneID: ZoneAccess] = [:]
        var results: [RecordResult] = []
        results.reserveCapacity(request.operations.count)
        let renderer = RecordRenderer(call: call)
        for (index, operation) in request.operations.enumerated() {
            do {
                let zoneID = operation.record.zoneID ?? request.zoneID ?? .defaultZone
                let access: ZoneAccess
                if let cached = zones[zoneID] {
                    access = cached
                } else {
                    access = try ZoneAccess.resolve(zoneID, call: call, db: db)
                    zones[zoneID] = access
                }
                let result = try applyOne(
                    operation, index: index, access: access, seen: &seen, session: session, schema: &schema, db: db,
                    renderer: renderer)
                results.append(.record(result))
            } catch let error as CloudKitServerError {
                results.append(.error(error.recordError(recordName: operation.record.recordName)))
            }
        }
        return results
    }

    private func applyOne(
        _ operation: RecordOperation, index: Int, access: ZoneAccess, seen: inout Set<String>, session: WriteSession,
        schema: inout SchemaResolver, db: Database, renderer: RecordRenderer
    ) throws -> Record {
        let type = operation.operationType
        let incoming = operation.record
        let name = try recordName(of: operation, index: index, access: access, seen: &seen)
        let existing = try RecordRow.fetch(zoneID: access.zone.id, name: name, in: db)
        var live = existing.flatMap { $0.isDeleted ? nil : $0 }
        // A participant reaches only the records already in the shared hierarchy (through their stored
        // parents); any other record answers exactly like a name that does not exist, until it would be
        // written: then the name is taken (EXISTS, as for a record the participant can see).
        var isHidden = false
        if access.isShared, let row = live,
            try access.permission(
                recordName: row.name, parent: row.parent, isShare: row.isShare, createdBy: row.createdBy,
                caller: call.caller, db: db) == .none
        {
            live = nil
            isHidden = true
        }
        let isShare = incoming.isShare || live?.isShare == true || name == Record.zoneWideShareName
        try checkPermission(access: access, name: name, live: live, incoming: incoming, isShare: isShare, db: db)
        let desiredKeys = operation.desiredKeys ?? request.desiredKeys

        if type.isDelete {
            guard let live else { throw call.error(.notFound, "Record not found") }
            if let tag = incoming.recordChangeTag, tag != live.changeTag, type == .delete || isShare {
                throw call.error(.conflict, "client oplock error deleting record")
            }
            try deleteCascading(live, access: access, session: session, db: db)
            return Record.tombstone(recordName: name, zoneID: access.zone.zoneID)
        }

        let (recordType, base) = try typeAndBase(
            of: operation, name: name, index: index, live: live, isShare: isShare, renderer: renderer)

        // Each field takes at least its name and `"":0,` when stored: a record that cannot fit is
        // refused before its fields reach the schema (100,000 new fields were 100,000 schema rows).
        if let incomingFields = incoming.fields {
            var lowerBound = 0
            for name in incomingFields.keys { lowerBound += name.utf8.count + 4 }
            guard lowerBound <= call.limits.maxRecordBytes else {
                throw call.error(
                    .badRequest,
                    "record '\(name)' is at least \(lowerBound) bytes; the limit is \(call.limits.maxRecordBytes) bytes per record"
                )
            }
        }
        let changes: [String: FieldValue?]
        if isShare {
            changes = try typeShareFields(incoming.fields ?? [:])
        } else {
            changes = try AssetClaims(call: call, user: try call.requireUser()).resolve(
                try schema.resolve(recordType: recordType, fields: incoming.fields ?? [:], db: db, call: call),
                live: live, db: db)
        }
        var fields = base
        fields.reserveCapacity(base.count + changes.count)
        for (key, value) in changes { fields[key] = value ?? nil }
        let fieldsJSON = try session.encode(fields)
        guard fieldsJSON.utf8.count <= call.limits.maxRecordBytes else {
            throw call.error(
                .badRequest,
                "record '\(name)' is \(fieldsJSON.utf8.count) bytes; the limit is \(call.limits.maxRecordBytes) bytes per record"
            )
        }
        if isHidden { throw call.error(.exists, "record to insert already exists") }
        if isShare {
            let row = try writeShare(
                name: name, incoming: incoming, live: live, existing: existing, fieldsJSON: fieldsJSON, access: access,
                session: session, db: db)
            return try renderer.record(row, zone: access.zone, desiredKeys: desiredKeys)
        }
        let edges = ReferenceEdges.edges(in: fields, zone: access.zone)
        try checkReferences(edges, name: name, sourceID: existing?.id, zone: access.zone, db: db)
        let parent = incoming.parent.map(\.recordName) ?? live?.parent
        var shortGUID = live?.shortGUID
        if shortGUID == nil, incoming.createShortGUID == true { shortGUID = ShortGUID.make(call.random) }
        let row = try session.write(
            zone: access.zone, name: name, type: recordType, fieldsJSON: fieldsJSON, existing: existing, parent: parent,
            shareName: live?.shareName, shortGUID: shortGUID, share: nil)
        try AssetCatalog.link(recordID: row.id, fields: fields, db: db)
        try ReferenceEdges.replace(sourceID: row.id, zoneID: access.zone.id, edges: edges, db: db)
        return try renderer.record(row, zone: access.zone, desiredKeys: desiredKeys, knownFields: fields)
    }

    /// The operation's record name (a new UUID for a create without one), checked: a known
    /// operation type, a valid name, one operation per record in the request.
    private func recordName(
        of operation: RecordOperation, index: Int, access: ZoneAccess, seen: inout Set<String>
    ) throws -> String {
        let type = operation.operationType
        guard OperationType.all.contains(type) else {
            throw call.error(
                .badRequest,
                "operations[\(index)].operationType '\(type.rawValue)' is not one of \(OperationType.all.map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard let name = operation.record.recordName ?? (type == .create ? call.random.uuid() : nil) else {
            throw call.error(.badRequest, "operations[\(index)].record.recordName is required for \(type.rawValue)")
        }
        guard CloudKitNameRules.isValidRecordName(name) else {
            throw call.error(
                .badRequest, "operations[\(index)].record.recordName '\(name)' is not valid (1-255 printable ASCII)")
        }
        guard seen.insert("\(access.zone.id)/\(name)").inserted else {
            throw call.error(.badRequest, "one operation per record per request: '\(name)' appears more than once")
        }
        return name
    }

    /// The record type a save writes, and the fields it starts from: for a live record, its own
    /// type (after the change-tag check its operation type asks for) and, for updates, its
    /// fields; for a new record, the given type.
    private func typeAndBase(
        of operation: RecordOperation, name: String, index: Int, live: RecordRow?, isShare: Bool,
        renderer: RecordRenderer
    ) throws -> (String, [String: FieldValue]) {
        let type = operation.operationType
        let incoming = operation.record
        guard let live else {
            if type == .update || type == .replace {
                throw call.error(
                    .notFound,
                    incoming.recordChangeTag == nil
                        ? "Record not found" : "recordChangeTag specified, but record not found")
            }
            guard let given = incoming.recordType, !given.isEmpty else {
                throw call.error(.badRequest, "operations[\(index)].record.recordType is required to create '\(name)'")
            }
            guard CloudKitNameRules.isValidRecordType(given) else {
                throw call.error(.badRequest, "record type '\(given)' is not valid")
            }
            return (isShare ? Record.shareRecordType : given, [:])
        }
        if type == .create { throw call.error(.exists, "record to insert already exists") }
        if type.checksChangeTag || isShare {
            guard let tag = incoming.recordChangeTag else {
                throw call.error(
                    .badRequest,
                    "\(type.rawValue) of '\(name)' needs its recordChangeTag (force\(type.rawValue.prefix(1).uppercased() + type.rawValue.dropFirst()) skips the check)"
                )
            }
            guard tag == live.changeTag else { throw call.error(.conflict, "client oplock error updating record") }
        }
        if let given = incoming.recordType, given.lowercased() != live.type.lowercased() {
            throw call.error(.badRequest, "record '\(name)' is a \(live.type), not a \(given)")
        }
        let base = type == .update || type == .forceUpdate ? try typedFields(of: live, renderer: renderer) : [:]
        return (live.type, base)
    }

    private func checkPermission(
        access: ZoneAccess, name: String, live: RecordRow?, incoming: Record, isShare: Bool, db: Database
    ) throws {
        switch access.mode {
        case .owner:
            return
        case .publicDatabase:
            if isShare { throw call.error(.badRequest, "shares cannot live in the public database") }
            if let live, live.createdBy != call.caller.userRecordName {
                throw call.error(.accessDenied, "only the creator of '\(name)' can change it in the public database")
            }
        case .shared:
            if isShare { throw call.error(.accessDenied, "only the owner of a share can change it") }
            // An existing record's place in the hierarchy is its stored parent: a request's `parent` never
            // grants access (moving a record into a share is the owner's act).
            let permission = try access.permission(
                recordName: name, parent: live.map(\.parent) ?? incoming.parent?.recordName, isShare: false,
                createdBy: live?.createdBy, caller: call.caller, db: db)
            guard permission == .readWrite else {
                throw call.error(
                    .accessDenied,
                    permission == .readOnly
                        ? "this share gives READ_ONLY access; '\(name)' cannot be written"
                        : "'\(name)' is not shared with you")
            }
            if let live, let moved = incoming.parent?.recordName, moved != live.parent,
                try access.permission(
                    recordName: name, parent: moved, isShare: false, createdBy: live.createdBy, caller: call.caller,
                    db: db)
                    != .readWrite
            {
                throw call.error(.accessDenied, "the new parent '\(moved)' is not shared with you")
            }
        }
    }

    private func typedFields(of row: RecordRow, renderer: RecordRenderer) throws -> [String: FieldValue] {
        var typed: [String: FieldValue] = [:]
        for (name, field) in try renderer.fields(of: row) {
            if let type = field.type, let value = try? FieldValue(value: field.value, type: type) {
                typed[name] = value
            }
        }
        return typed
    }

    /// Share fields (`cloudkit.title`, …) are system fields: typed by their tag or value, no schema.
    private func typeShareFields(_ fields: [String: RecordField]) throws -> [String: FieldValue?] {
        var result: [String: FieldValue?] = [:]
        for (name, field) in fields {
            if field.value.isNull {
                result[name] = .some(nil)
                continue
            }
            guard let type = field.type ?? FieldValue.inferredType(of: field.value) else {
                throw call.error(.badRequest, "share field '\(name)': cannot tell its type")
            }
            do {
                result[name] = try FieldValue(value: field.value, type: type)
            } catch {
                throw call.error(.badRequest, "share field '\(name)': \(error.message)")
            }
        }
        return result
    }

    /// Refuses a save whose `VALIDATE` references name a record missing from the zone, or whose
    /// `DELETE_SELF` reference would be the 751st to one target.
    private func checkReferences(
        _ edges: Set<ReferenceEdges.Edge>, name: String, sourceID: Int64?, zone: ZoneRow, db: Database
    ) throws {
        for edge in edges.sorted(by: { $0.targetName < $1.targetName }) {
            if edge.action == ReferenceEdges.validate, edge.targetName != name,
                try RecordRow.fetch(zoneID: zone.id, name: edge.targetName, in: db).map({ !$0.isDeleted }) != true
            {
                throw call.error(
                    .validatingReferenceError,
                    "record '\(name)' has a VALIDATE reference to '\(edge.targetName)', which does not exist in this zone"
                )
            }
            if edge.action == ReferenceEdges.deleteSelf,
                try ReferenceEdges.deleteSelfCount(
                    zoneID: zone.id, targetName: edge.targetName, excluding: sourceID, db: db)
                    >= ReferenceEdges.maxDeleteSelfSources
            {
                throw call.error(
                    .badRequest,
                    "record '\(edge.targetName)' already has \(ReferenceEdges.maxDeleteSelfSources) DELETE_SELF references; the limit is \(ReferenceEdges.maxDeleteSelfSources) per target"
                )
            }
        }
    }

    /// Deletes `live` and, recursively, every record whose `DELETE_SELF` reference names a deleted
    /// one; refused with `VALIDATING_REFERENCE_ERROR` when a record that stays holds a `VALIDATE`
    /// reference to one of them.
    private func deleteCascading(_ live: RecordRow, access: ZoneAccess, session: WriteSession, db: Database) throws {
        let doomed = try cascade(from: live, zoneID: access.zone.id, db: db)
        let names = Set(doomed.map(\.name))
        let ids = Set(doomed.map(\.id))
        for name in names.sorted() {
            let holders = try ReferenceEdges.sources(
                zoneID: access.zone.id, targetName: name, action: ReferenceEdges.validate, db: db)
            if let holder = holders.first(where: { !ids.contains($0.id) }) {
                throw call.error(
                    .validatingReferenceError,
                    "record '\(name)' is the target of a VALIDATE reference from '\(holder.name)'; delete that first")
            }
        }
        for row in doomed {
            guard let current = try RecordRow.fetch(zoneID: access.zone.id, name: row.name, in: db), !current.isDeleted
            else { continue }
            try delete(current, access: access, session: session, db: db)
        }
    }

    /// `live` and every record that reaches it through `DELETE_SELF` references, breadth first
    /// (each record once, so reference cycles end).
    private func cascade(from live: RecordRow, zoneID: Int64, db: Database) throws -> [RecordRow] {
        var doomed = [live]
        var seen: Set<Int64> = [live.id]
        var index = 0
        while index < doomed.count {
            let target = doomed[index].name
            index += 1
            let sources = try ReferenceEdges.sources(
                zoneID: zoneID, targetName: target, action: ReferenceEdges.deleteSelf, db: db)
            for source in sources where seen.insert(source.id).inserted {
                doomed.append(source)
            }
        }
        return doomed
    }

    private func delete(_ live: RecordRow, access: ZoneAccess, session: WriteSession, db: Database) throws {
        try session.delete(zone: access.zone, row: live)
        if live.isShare {
            try session.removeMembers(zone: access.zone, shareName: live.name)
            if let root = try rootRow(of: live, zone: access.zone, db: db) {
                try session.touch(zone: access.zone, rowID: root.id, shareName: nil, shortGUID: nil)
            }
        } else if let shareName = live.shareName,
            let share = try RecordRow.fetch(zoneID: access.zone.id, name: shareName, in: db), !share.isDeleted
        {
            // Deleting a share's root deletes the share.
            try session.delete(zone: access.zone, row: share)
            try session.removeMembers(zone: access.zone, shareName: shareName)
        }
    }

    private func rootRow(of share: RecordRow, zone: ZoneRow, db: Database) throws -> RecordRow? {
        guard let text = share.share, let root = try StoredShare.decode(text, share: share.name).rootRecordName
        else { return nil }
        return try RecordRow.fetch(zoneID: zone.id, name: root, in: db)
    }

    private func writeShare(
        name: String, incoming: Record, live: RecordRow?, existing: RecordRow?, fieldsJSON: String, access: ZoneAccess,
        session: WriteSession, db: Database
    ) throws -> RecordRow {
        guard case .owner = access.mode else {
            throw call.error(.accessDenied, "only the owner of a share can change it")
        }
        guard !access.zone.isDefault else {
            throw call.error(.badRequest, "shares cannot live in the default zone; create a custom zone first")
        }
        let previous = live?.share.flatMap(StoredShare.init(json:))
        let isZoneWide = name == Record.zoneWideShareName
        var rootName: String? = nil
        if isZoneWide {
            let recordShares =
                try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) FROM record WHERE zoneId = ? AND isDeleted = 0 AND type = ? AND name != ?",
                    arguments: [access.zone.id, Record.shareRecordType, name]) ?? 0
            if recordShares > 0 {
                throw call.error(.badRequest, "the zone already has record shares; it cannot be shared zone-wide")
            }
        } else {
            if try RecordRow.fetch(zoneID: access.zone.id, name: Record.zoneWideShareName, in: db).map({ !$0.isDeleted }
            ) == true {
                throw call.error(.badRequest, "the zone is shared zone-wide; its records cannot be shared one by one")
            }
            guard let root = incoming.forRecord?.recordName ?? previous?.rootRecordName else {
                throw call.error(
                    .badRequest,
                    "a share needs forRecord {recordName} (or the name \(Record.zoneWideShareName) for a zone-wide share)"
                )
            }
            guard let rootRow = try RecordRow.fetch(zoneID: access.zone.id, name: root, in: db), !rootRow.isDeleted
            else {
                throw call.error(.notFound, "the share's root record '\(root)' does not exist in this zone")
            }
            if let tag = incoming.forRecord?.recordChangeTag, tag != rootRow.changeTag, previous == nil {
                throw call.error(
                    .conflict, "the root record '\(root)' has changed (recordChangeTag \(rootRow.changeTag))")
            }
            if let current = rootRow.shareName, current != name {
                throw call.error(.badRequest, "record '\(root)' is already shared by '\(current)'")
            }
            rootName = root
        }
        let publicPermission = incoming.publicPermission ?? previous?.publicPermission ?? .none
        guard publicPermission.isKnown else {
            throw call.error(
                .badRequest, "publicPermission '\(publicPermission.rawValue)' is not NONE, READ_ONLY or READ_WRITE")
        }
        let participants = try resolveParticipants(
            incoming.participants ?? previous?.participants ?? [], previous: previous?.participants ?? [],
            owner: access.zone.owner)
        let stored = StoredShare(
            rootRecordName: rootName, publicPermission: publicPermission, participants: participants)
        let shortGUID = live?.shortGUID ?? ShortGUID.make(call.random)
        let row = try session.write(
            zone: access.zone, name: name, type: Record.shareRecordType, fieldsJSON: fieldsJSON, existing: existing,
            parent: nil, shareName: nil, shortGUID: shortGUID, share: try session.encode(stored))
        try session.setMembers(zone: access.zone, shareName: name, rootRecordName: rootName, participants: participants)
        if let rootName, let rootRow = try RecordRow.fetch(zoneID: access.zone.id, name: rootName, in: db),
            rootRow.shareName != name
        {
            try session.touch(zone: access.zone, rowID: rootRow.id, shareName: name, shortGUID: shortGUID)
        }
        return row
    }

    private func resolveParticipants(
        _ requested: [ShareParticipant], previous: [ShareParticipant], owner: String
    ) throws -> [ShareParticipant] {
        let users = call.configuration.users
        func identity(of user: EmulatorUser) -> UserIdentity {
            UserIdentity(
                userRecordName: user.userRecordName, lookupInfo: LookupInfo(emailAddress: user.emailAddress),
                nameComponents: NameComponents(givenName: user.firstName, familyName: user.lastName))
        }
        let ownerUser = users.first { $0.userRecordName == owner }
        var result = [
            ShareParticipant(
                userIdentity: ownerUser.map(identity) ?? UserIdentity(userRecordName: owner), type: "OWNER",
                permission: .readWrite, acceptanceStatus: "ACCEPTED")
        ]
        for (index, participant) in requested.enumerated() where participant.type != "OWNER" {
            let identityIn = participant.userIdentity
            let recordName = identityIn?.userRecordName ?? identityIn?.lookupInfo?.userRecordName
            let email = identityIn?.lookupInfo?.emailAddress?.lowercased()
            let permission = participant.permission ?? .readOnly
            // Invited by email: until the invitee accepts, the share shows only the address the owner
            // typed, whether a user has it, is not discoverable, or does not exist (before, a
            // non-discoverable user's record name, email and full name came back, and an unknown
            // address answered an error: the owner could probe who uses the app).
            if recordName == nil, let email {
                let user = users.first { $0.emailAddress?.lowercased() == email }
                if user?.userRecordName == owner { continue }
                let earlier = previous.first {
                    $0.userIdentity?.lookupInfo?.emailAddress?.lowercased() == email
                        || ($0.userIdentity?.userRecordName != nil
                            && $0.userIdentity?.userRecordName == user?.userRecordName)
                }
                guard permission == .readOnly || permission == .readWrite else {
                    throw call.error(.badRequest, "participants[\(index)].permission must be READ_ONLY or READ_WRITE")
                }
                if let earlier, let user, earlier.acceptanceStatus == "ACCEPTED" {
                    // Accepted already: the invitee's identity is the owner's to see.
                    var kept = earlier
                    kept.userIdentity = identity(of: user)
                    kept.permission = permission
                    kept.type = participant.type ?? "USER"
                    result.append(kept)
                    continue
                }
                result.append(
                    ShareParticipant(
                        userIdentity: UserIdentity(lookupInfo: LookupInfo(emailAddress: email)),
                        type: participant.type ?? "USER", permission: permission, acceptanceStatus: "PENDING"))
                continue
            }
            guard
                let user = users.first(where: {
                    ($0.userRecordName == recordName && recordName != nil)
                        || (email != nil && $0.emailAddress?.lowercased() == email)
                })
            else {
                throw call.error(
                    .badRequest,
                    "participants[\(index)]: no user with \(email.map { "email \($0)" } ?? recordName.map { "userRecordName \($0)" } ?? "that identity")"
                )
            }
            if user.userRecordName == owner { continue }
            guard permission == .readOnly || permission == .readWrite else {
                throw call.error(.badRequest, "participants[\(index)].permission must be READ_ONLY or READ_WRITE")
            }
            let earlier = previous.first { $0.userIdentity?.userRecordName == user.userRecordName }
            var status = earlier?.acceptanceStatus ?? "PENDING"
            if status == "REMOVED" { status = "PENDING" }
            result.append(
                ShareParticipant(
                    userIdentity: identity(of: user), type: participant.type ?? "USER", permission: permission,
                    acceptanceStatus: status))
        }
        return result
    }
}

/// Short share identifiers, like the `shortGUID` in share URLs.
enum ShortGUID {
    static func make(_ random: RandomSource) -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        // 62 letters: a byte modulo 248 (= 4 × 62) is uniform; bytes from 248 up are drawn again.
        var letters: [Character] = []
        while letters.count < 22 {
            for byte in random.bytes(32) where byte < 248 && letters.count < 22 {
                letters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return String(letters)
    }
}
