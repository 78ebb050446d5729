import GRDB
import LarderCloudKit
import LarderCore

/// `assets/upload` and `assets/rereference` (WSREF/UploadAssets, RereferenceAssets) in the request's transaction.
///
/// Upload URLs for record fields, and new receipts for assets records already have.
struct AssetOperations {
    let call: DatabaseOperationContext

    /// Registers an upload token for each requested field and answers its upload URL.
    ///
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED`, `BAD_REQUEST` for a wrong count, field
    ///   or record name, `ZONE_NOT_FOUND`; the store's error.
    func upload(_ body: AssetUploadRequest, db: Database) throws -> AssetUploadResponse {
        let user = try call.requireUser()
        guard !body.tokens.isEmpty, body.tokens.count <= call.limits.maxOperationsPerRequest else {
            throw call.error(
                .badRequest,
                "tokens must hold 1 to \(call.limits.maxOperationsPerRequest) fields, got \(body.tokens.count)")
        }
        _ = try ZoneAccess.resolve(body.zoneID, call: call, db: db)
        guard let links = call.assetLinks else { throw call.error(.internalError, "no base URL for upload URLs") }
        var tokens: [AssetUploadResponse.Token] = []
        for (index, token) in body.tokens.enumerated() {
            guard CloudKitNameRules.isValidFieldName(token.fieldName) else {
                throw call.error(
                    .badRequest, "tokens[\(index)].fieldName '\(token.fieldName)' is not a valid field name")
            }
            let recordName = token.recordName ?? call.random.uuid()
            guard CloudKitNameRules.isValidRecordName(recordName) else {
                throw call.error(.badRequest, "tokens[\(index)].recordName '\(recordName)' is not valid")
            }
            let secret = call.random.hex(bytes: 24)
            try AssetCatalog.register(
                token: secret, call: call, user: user, recordName: recordName, fieldName: token.fieldName, db: db)
            tokens.append(
                .init(recordName: recordName, fieldName: token.fieldName, url: links.uploadURL(token: secret)))
        }
        return AssetUploadResponse(tokens: tokens)
    }

    /// Issues a new receipt for each requested record field's stored asset; a field without one answers `NOT_FOUND`.
    ///
    /// - Throws: ``CloudKitServerError`` `AUTHENTICATION_REQUIRED`, `BAD_REQUEST` for too many assets,
    ///   `ZONE_NOT_FOUND`; the store's error.
    func rereference(_ body: AssetRereferenceRequest, db: Database) throws -> AssetRereferenceResponse {
        let user = try call.requireUser()
        guard body.assets.count <= call.limits.maxOperationsPerRequest else {
            throw call.error(.badRequest, "at most \(call.limits.maxOperationsPerRequest) assets per request")
        }
        let access = try ZoneAccess.resolve(body.zoneID, call: call, db: db)
        let renderer = RecordRenderer(call: call)
        var entries: [AssetRereferenceResponse.Entry] = []
        for field in body.assets {
            var entry = AssetRereferenceResponse.Entry(recordName: field.recordName, fieldName: field.fieldName)
            let row = try RecordRow.fetch(zoneID: access.zone.id, name: field.recordName, in: db)
            let stored = try row.flatMap { $0.isDeleted ? nil : try renderer.fields(of: $0)[field.fieldName] }
            let value = stored.flatMap { field in
                field.type?.isList == true ? field.value.arrayValue?.first : field.value
            }
            if let value, let asset = try? Asset(value: value), let checksum = asset.fileChecksum,
                let hex = AssetDigest.hex(fileChecksum: checksum),
                let fresh = try AssetCatalog.rereference(
                    hex: hex, wrappingKey: asset.wrappingKey, call: call, user: user, token: call.random.hex(bytes: 24),
                    recordName: field.recordName, fieldName: field.fieldName, db: db)
            {
                entry.value = fresh
            } else {
                entry.serverErrorCode = ServerErrorCode.notFound.rawValue
                entry.reason = "record '\(field.recordName)' has no asset in field '\(field.fieldName)'"
            }
            entries.append(entry)
        }
        return AssetRereferenceResponse(assets: entries)
    }
}
