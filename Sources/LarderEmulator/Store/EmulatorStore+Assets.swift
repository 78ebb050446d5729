import Foundation
import GRDB
import LarderCloudKit
import LarderSQLite

/// The asset endpoints' transactions: `assets/upload`, `assets/rereference`, and the bytes behind
/// upload and download URLs.
extension EmulatorStore {
    /// Registers upload tokens and answers their URLs, in one write (`assets/upload`).
    ///
    /// - Throws: ``CloudKitServerError`` (see ``AssetOperations/upload(_:db:)``); the store's error.
    func uploadAssets(_ request: AssetUploadRequest, call: DatabaseOperationContext) async throws
        -> AssetUploadResponse
    {
        try await writer.write { db in try AssetOperations(call: call).upload(request, db: db) }
    }

    /// Issues new receipts for assets records already have, in one write (`assets/rereference`).
    ///
    /// - Throws: ``CloudKitServerError`` (see ``AssetOperations/rereference(_:db:)``); the store's error.
    func rereferenceAssets(_ request: AssetRereferenceRequest, call: DatabaseOperationContext) async throws
        -> AssetRereferenceResponse
    {
        try await writer.write { db in try AssetOperations(call: call).rereference(request, db: db) }
    }

    /// Stores the bytes uploaded for `token` and answers the receipt (`POST /_assets/upload/<token>`).
    ///
    /// - Parameters:
    ///   - data: The uploaded bytes.
    ///   - token: The upload URL's token.
    ///   - wrappingKey: The key a private database's receipt carries (a public one carries none).
    ///   - now: The time of the upload, in milliseconds since 1970.
    /// - Returns: The receipt: the asset's checksum, size, receipt and (private) wrapping key.
    /// - Throws: ``CloudKitServerError`` `NOT_FOUND` for an unknown or expired token; the store's error.
    func receiveAsset(_ data: Data, token: String, wrappingKey: String, now: Int64) async throws -> Asset {
        try await writer.write { db in
            try AssetCatalog.receive(data, token: token, wrappingKey: wrappingKey, blobs: blobs, now: now, db: db)
        }
    }

    /// The stored asset with SHA-256 `checksum` (hex): its sniffed content type and its bytes (nil when
    /// they are gone), or nil when the store has no such asset (`GET /_assets/download/<ticket>`).
    ///
    /// - Throws: ``CloudKitServerError`` `INTERNAL_ERROR` for a damaged row; the bytes' read error.
    func assetFile(checksum: String) async throws -> (contentType: String, data: Data?)? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT contentType FROM asset WHERE checksum = ?", arguments: [checksum])
                .map { row -> (contentType: String, data: Data?) in
                    (try row.decode(atIndex: 0, in: .asset), try blobs.read(checksum))
                }
        }
    }
}
