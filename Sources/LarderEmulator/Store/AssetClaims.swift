import GRDB
import LarderCloudKit
import LarderCore
import LarderSQLite

/// Turns the `ASSETID` values of a `records/modify` operation into what the record stores.
///
/// A value with a `receipt` must name an upload (or rereference) this caller made in this
/// container, environment and database, still valid, whose bytes are stored; a `fileChecksum`
/// must match it when given. A value without a receipt may only repeat an asset the record
/// already references (a client saving back the fields it fetched). The stored value is
/// `{fileChecksum, size}` (plus `wrappingKey`, `referenceChecksum` in the private database); the
/// receipt and any `downloadURL` are dropped.
struct AssetClaims {
    let call: DatabaseOperationContext
    let user: String

    func resolve(_ changes: [String: FieldValue?], live: RecordRow?, db: Database) throws -> [String: FieldValue?] {
        var result = changes
        for (name, value) in changes {
            guard let value else { continue }
            switch value {
            case .asset(let json):
                result[name] = .asset(try claim(json, field: name, live: live, db: db).jsonValue)
            case .list(.assetID, let elements):
                var claimed: [FieldValue] = []
                for (index, element) in elements.enumerated() {
                    guard case .asset(let json) = element else { continue }
                    claimed.append(.asset(try claim(json, field: "\(name)[\(index)]", live: live, db: db).jsonValue))
                }
                result[name] = .list(elementType: .assetID, claimed)
            default:
                continue
            }
        }
        return result
    }

    private func claim(_ json: Value, field: String, live: RecordRow?, db: Database) throws -> Asset {
        let asset: Asset
        do {
            asset = try Asset(value: json)
        } catch {
            throw call.error(.badRequest, "field '\(field)': \(error.message)")
        }
        if let receipt = asset.receipt { return try redeem(receipt, asset: asset, field: field, db: db) }
        guard let checksum = asset.fileChecksum, let hex = AssetDigest.hex(fileChecksum: checksum) else {
            throw call.error(
                .badRequest, "field '\(field)': an asset needs the receipt from its upload (assets/upload)")
        }
        guard let live,
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT asset.size FROM assetRef JOIN asset ON asset.checksum = assetRef.checksum
                    WHERE assetRef.recordId = ? AND assetRef.checksum = ?
                    """,
                arguments: [live.id, hex])
        else {
            throw call.error(
                .badRequest,
                "field '\(field)': fileChecksum without a receipt must be an asset this record already has")
        }
        return AssetCatalog.stored(
            hex: hex, size: try row.decode(forColumn: "size", in: .asset), wrappingKey: asset.wrappingKey)
    }

    private func redeem(_ receipt: String, asset: Asset, field: String, db: Database) throws -> Asset {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT u.checksum, u.wrappingKey, a.size FROM assetUpload u JOIN asset a ON a.checksum = u.checksum
                    WHERE u.token = ? AND u.container = ? AND u.environment = ? AND u.database = ?
                        AND u.userRecordName = ? AND u.expiresAt > ?
                    """,
                arguments: [
                    receipt, call.container, call.environment, call.scope.rawValue, user, call.nowMilliseconds,
                ])
        else {
            throw call.error(
                .badRequest,
                "field '\(field)': the asset receipt is unknown, expired, not yours or its bytes were never uploaded")
        }
        let hex: String = try row.decode(forColumn: "checksum", in: .assetUpload)
        if let given = asset.fileChecksum, AssetDigest.hex(fileChecksum: given) != hex {
            throw call.error(.badRequest, "field '\(field)': fileChecksum does not match the uploaded bytes")
        }
        let size: Int64 = try row.decode(forColumn: "size", in: .asset)
        if let given = asset.size, given != size {
            throw call.error(.badRequest, "field '\(field)': size \(given) does not match the \(size) bytes uploaded")
        }
        return AssetCatalog.stored(
            hex: hex, size: size, wrappingKey: try row.decode(forColumn: "wrappingKey", in: .assetUpload))
    }
}
