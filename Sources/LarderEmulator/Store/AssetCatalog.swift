import Foundation
import GRDB
import LarderCloudKit
import LarderCore
import LarderSQLite

/// The emulator's asset bookkeeping in the store: upload tokens and receipts, which record fields
/// reference which bytes, and the collection of bytes nothing references any more.
///
/// An asset is referenced by `assetRef` rows (one per record field); a fresh upload is kept for
/// ``uploadLifetimeMs`` even unreferenced (`keepUntil`), and once a record claims it only its
/// references keep it. Deleting a record or a zone removes its references; ``collect(db:blobs:now:)``
/// then drops the rows and bytes nothing references.
enum AssetCatalog {
    /// How long an upload URL and its receipt stay valid (MistKit notes Apple's ~15 minutes).
    static let uploadLifetimeMs: Int64 = 15 * 60 * 1000

    /// Registers an upload token for one record field.
    static func register(
        token: String, call: DatabaseOperationContext, user: String, recordName: String, fieldName: String,
        db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO assetUpload (token, container, environment, database, userRecordName, recordName, fieldName,
                    expiresAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                token, call.container, call.environment, call.scope.rawValue, user, recordName, fieldName,
                call.nowMilliseconds + uploadLifetimeMs,
            ])
    }

    /// Stores uploaded bytes for `token` and answers the receipt.
    /// - Throws: `NOT_FOUND` for an unknown or expired token.
    static func receive(
        _ data: Data, token: String, wrappingKey: String?, blobs: AssetBlobs, now: Int64, db: Database
    ) throws -> Asset {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT database, expiresAt FROM assetUpload WHERE token = ?", arguments: [token]),
            try row.decode(Int64.self, atIndex: 1, in: .assetUpload) > now
        else {
            throw CloudKitServerError(.notFound, "upload URL is unknown or has expired; ask assets/upload again")
        }
        let hex = AssetDigest.sha256Hex(data)
        try blobs.store(data, hex: hex)
        try db.execute(
            sql: """
                INSERT INTO asset (checksum, size, contentType, keepUntil) VALUES (?, ?, ?, ?)
                ON CONFLICT(checksum) DO UPDATE SET keepUntil = MAX(keepUntil, excluded.keepUntil)
                """,
            arguments: [hex, data.count, ContentSniffer.contentType(of: data), now + uploadLifetimeMs])
        let isPrivate =
            try row.decode(String.self, atIndex: 0, in: .assetUpload) != DatabaseEndpoint.Scope.public.rawValue
        let key = isPrivate ? wrappingKey : nil
        try db.execute(
            sql: "UPDATE assetUpload SET checksum = ?, wrappingKey = ?, expiresAt = ? WHERE token = ?",
            arguments: [hex, key, now + uploadLifetimeMs, token])
        var asset = stored(hex: hex, size: Int64(data.count), wrappingKey: key)
        asset.receipt = token
        return asset
    }

    /// Issues a new receipt for bytes already stored (`assets/rereference`).
    static func rereference(
        hex: String, wrappingKey: String?, call: DatabaseOperationContext, user: String, token: String,
        recordName: String, fieldName: String, db: Database
    ) throws -> Asset? {
        guard let size = try Int64.fetchOne(db, sql: "SELECT size FROM asset WHERE checksum = ?", arguments: [hex])
        else { return nil }
        try register(token: token, call: call, user: user, recordName: recordName, fieldName: fieldName, db: db)
        try db.execute(
            sql: "UPDATE assetUpload SET checksum = ?, wrappingKey = ? WHERE token = ?",
            arguments: [hex, wrappingKey, token])
        var asset = stored(hex: hex, size: size, wrappingKey: wrappingKey)
        asset.receipt = token
        return asset
    }

    /// The asset dictionary a record stores: `fileChecksum`, `size` and, in the private database,
    /// the wrapping key and its checksum.
    static func stored(hex: String, size: Int64, wrappingKey: String?) -> Asset {
        Asset(
            fileChecksum: AssetDigest.fileChecksum(hex: hex), size: size, wrappingKey: wrappingKey,
            referenceChecksum: wrappingKey.map { AssetDigest.fileChecksum(Data($0.utf8)) })
    }

    /// The hex content addresses an asset field value refers to.
    static func addresses(in value: FieldValue) -> [String] {
        switch value {
        case .asset(let json):
            return (try? Asset(value: json)).flatMap(\.fileChecksum).flatMap(AssetDigest.hex(fileChecksum:)).map {
                [$0]
            } ?? []
        case .list(.assetID, let elements): return elements.flatMap(addresses(in:))
        default: return []
        }
    }

    /// Replaces `recordID`'s references with the assets in `fields`, and marks them claimed.
    static func link(recordID: Int64, fields: [String: FieldValue], db: Database) throws {
        try unlink(recordID: recordID, db: db)
        for (name, value) in fields {
            for hex in addresses(in: value) {
                try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO assetRef (recordId, fieldName, checksum) VALUES (?, ?, ?)"
                ).execute(arguments: [recordID, name, hex])
                try db.cachedStatement(sql: "UPDATE asset SET keepUntil = 0 WHERE checksum = ?").execute(arguments: [
                    hex
                ])
            }
        }
    }

    /// Removes every reference `recordID` holds (the record was deleted).
    static func unlink(recordID: Int64, db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM assetRef WHERE recordId = ?").execute(arguments: [recordID])
    }

    /// Drops expired upload tokens and the assets nothing references and nothing protects, with their bytes.
    ///
    /// A receipt within its lifetime protects its bytes: content is stored once, so another user's
    /// upload of the same bytes (or an `assets/rereference` receipt) must not lose them when the
    /// record that claimed them first is deleted.
    /// - Returns: The hex addresses released.
    @discardableResult
    static func collect(db: Database, blobs: AssetBlobs, now: Int64) throws -> [String] {
        try db.execute(sql: "DELETE FROM assetUpload WHERE expiresAt <= ?", arguments: [now])
        let released = try String.fetchAll(
            db,
            sql: """
                SELECT checksum FROM asset WHERE keepUntil <= ?
                    AND NOT EXISTS (SELECT 1 FROM assetRef WHERE assetRef.checksum = asset.checksum)
                    AND NOT EXISTS (
                        SELECT 1 FROM assetUpload WHERE assetUpload.checksum = asset.checksum AND assetUpload.expiresAt > ?)
                """,
            arguments: [now, now])
        for hex in released {
            try db.execute(sql: "DELETE FROM asset WHERE checksum = ?", arguments: [hex])
            blobs.remove(hex)
        }
        return released
    }
}

extension EmulatorStore {
    /// ``AssetCatalog/collect(db:blobs:now:)`` in its own write, at `now` (tests move past a receipt's life).
    /// - Returns: The hex addresses released.
    /// - Throws: The store's error.
    func collectAssets(now: Int64) throws -> [String] {
        try writer.write { db in try AssetCatalog.collect(db: db, blobs: blobs, now: now) }
    }
}
