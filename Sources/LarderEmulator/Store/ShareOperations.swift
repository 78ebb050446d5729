import Foundation
import GRDB
import LarderCloudKit
import LarderSQLite

/// `records/accept` and `records/resolve`: a participant finds a share by its short GUID and,
/// for accept, joins it; the owner's zone then appears in the participant's shared database.
struct ShareOperations {
    let call: DatabaseOperationContext

    /// The share record's id, joined onto its zone's row (no key of its own: an integer primary key).
    private static let shareRecord = StoredTable(emulatorTable: "record", key: [])

    func run(_ request: ShortGUIDsRequest, accept: Bool, db: Database) throws -> ShareMetadataResponse {
        let user = try call.requireUser()
        let session = WriteSession(call: call, db: db)
        let renderer = RecordRenderer(call: call)
        var results: [ShareMetadataResult] = []
        for entry in request.shortGUIDs {
            do {
                results.append(
                    .metadata(try one(entry, user: user, accept: accept, session: session, renderer: renderer, db: db)))
            } catch let error as CloudKitServerError {
                results.append(.error(error.recordError(recordName: nil)))
            }
        }
        try session.finish()
        return ShareMetadataResponse(results: results)
    }

    private func one(
        _ entry: ShortGUIDsRequest.ShortGUID, user: String, accept: Bool, session: WriteSession,
        renderer: RecordRenderer,
        db: Database
    ) throws -> ShareMetadata {
        let notFound = call.error(.notFound, "no share with shortGUID '\(entry.value)'")
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT z.id, z.database, z.owner, z.name, z.epoch, z.changeSeq, z.databaseSeq, z.isDeleted, r.id AS recordId
                    FROM record r JOIN zone z ON z.id = r.zoneId
                    WHERE r.shortGUID = ? AND r.type = ? AND r.isDeleted = 0 AND z.isDeleted = 0
                    AND z.container = ? AND z.environment = ?
                    """,
                arguments: [entry.value, Record.shareRecordType, call.container, call.environment])
        else { throw notFound }
        let zone = try ZoneRow(row: row)
        let shareID: Int64 = try row.decode(atIndex: 8, in: Self.shareRecord)
        guard
            var share = try Row.fetchOne(
                db, sql: "SELECT \(RecordRow.columns) FROM record WHERE id = ?", arguments: [shareID]
            )
            .map(RecordRow.init(row:)),
            let text = share.share
        else { throw notFound }
        var stored = try StoredShare.decode(text, share: share.name)
        let isOwner = zone.owner == user
        let configured = call.configuration.users.first { $0.userRecordName == user }
        var index = stored.participants.firstIndex { $0.userIdentity?.userRecordName == user }
        // An invitation by email names only the address until the invitee, holding it, accepts.
        if index == nil, let email = configured?.emailAddress?.lowercased() {
            index = stored.participants.firstIndex {
                $0.userIdentity?.userRecordName == nil
                    && $0.userIdentity?.lookupInfo?.emailAddress?.lowercased() == email
            }
        }
        if index == nil, !isOwner {
            guard stored.publicPermission == .readOnly || stored.publicPermission == .readWrite else {
                throw call.error(.accessDenied, "you are not a participant of this share")
            }
            stored.participants.append(
                ShareParticipant(
                    userIdentity: UserIdentity(
                        userRecordName: user, lookupInfo: LookupInfo(emailAddress: configured?.emailAddress),
                        nameComponents: NameComponents(
                            givenName: configured?.firstName, familyName: configured?.lastName)),
                    type: "PUBLIC_USER", permission: stored.publicPermission, acceptanceStatus: "PENDING"))
            index = stored.participants.count - 1
        }
        if accept, !isOwner, let index, stored.participants[index].acceptanceStatus != "ACCEPTED" {
            stored.participants[index].acceptanceStatus = "ACCEPTED"
            stored.participants[index].userIdentity = UserIdentity(
                userRecordName: user, lookupInfo: LookupInfo(emailAddress: configured?.emailAddress),
                nameComponents: NameComponents(givenName: configured?.firstName, familyName: configured?.lastName))
            share = try session.write(
                zone: zone, name: share.name, type: share.type, fieldsJSON: share.fields,
                existing: share, parent: nil, shareName: nil, shortGUID: share.shortGUID,
                share: try session.encode(stored))
            try session.setMembers(
                zone: zone, shareName: share.name, rootRecordName: stored.rootRecordName,
                participants: stored.participants)
        }
        let participant = index.map { stored.participants[$0] }
        var metadata = ShareMetadata(
            shortGUID: entry.value, containerIdentifier: call.container, environment: call.environment,
            zoneID: zone.zoneID, share: try renderer.record(share, zone: zone, desiredKeys: nil))
        metadata.rootRecordName = stored.rootRecordName
        if entry.shouldFetchRootRecord == true, let root = stored.rootRecordName,
            let rootRow = try RecordRow.fetch(zoneID: zone.id, name: root, in: db), !rootRow.isDeleted
        {
            metadata.rootRecord = try renderer.record(rootRow, zone: zone, desiredKeys: nil)
        }
        metadata.participantStatus = isOwner ? "ACCEPTED" : participant?.acceptanceStatus
        metadata.participantPermission = isOwner ? .readWrite : participant?.permission
        metadata.participantType = isOwner ? "OWNER" : participant?.type
        metadata.ownerIdentity = stored.participants.first { $0.type == "OWNER" }?.userIdentity
        return metadata
    }
}
