import Foundation
import LarderCloudKit
import LarderCore

/// Uploads the image files an upload's records need, once per SHA-256: bytes the asset journal
/// holds a valid receipt for are not sent again; each new receipt is journalled as soon as the
/// server gives it.
///
/// A failure of one image (refused, too large, unreadable) is noted in the ``ImageTable`` and
/// the records that need it become dead letters; credentials the server refuses, or a server
/// that stays unreachable, stop the upload (``UploadStopped``; run again to resume).
struct ImageUpload {
    let client: CloudKitClient
    let journal: AssetJournal
    let retry: RetryPolicy
    let clock: LarderClock
    /// Upload URLs asked for per `assets/upload` request (used at once, well inside their lifetime).
    var tokensPerRequest = 20

    /// The receipts of every needed image, by SHA-256, uploading what the journal lacks.
    /// - Returns: The receipts and how many images were uploaded now.
    func run(_ table: ImageTable) async throws -> (receipts: [String: Asset], uploaded: Int) {
        try await run(table.needed, table: table)
    }

    /// The receipts of `files`, by SHA-256, uploading what the journal lacks; a failure is
    /// noted in `table`.
    /// - Returns: The receipts and how many images were uploaded now.
    func run(_ files: [(sha256: String, url: URL)], table: ImageTable) async throws -> (
        receipts: [String: Asset], uploaded: Int
    ) {
        var receipts: [String: Asset] = [:]
        var pending: [(sha256: String, url: URL)] = []
        for file in files {
            if let known = await journal.receipt(sha256: file.sha256, now: clock.milliseconds) {
                receipts[file.sha256] = known
            } else {
                pending.append(file)
            }
        }
        var uploaded = 0
        for start in stride(from: 0, to: pending.count, by: tokensPerRequest) {
            let slice = Array(pending[start..<min(start + tokensPerRequest, pending.count)])
            let client = self.client
            let tokens = try await retry.perform("assets/upload", clock: clock) { () async throws(CloudKitFailure) in
                try await client.requestAssetUploads(
                    slice.map {
                        .init(
                            recordName: "larder-image-\($0.sha256.prefix(32))", recordType: "larderImage",
                            fieldName: ImageFiles.field)
                    })
            }
            for (file, token) in zip(slice, tokens) {
                if let asset = try await upload(file, to: token.url, table: table) {
                    receipts[file.sha256] = asset
                    uploaded += 1
                }
            }
        }
        return (receipts, uploaded)
    }

    private func upload(_ file: (sha256: String, url: URL), to url: String, table: ImageTable) async throws -> Asset? {
        guard let data = try? Data(contentsOf: file.url), AssetDigest.sha256Hex(data) == file.sha256 else {
            table.fail(
                file.sha256,
                CloudKitFailure(code: nil, reason: "\(file.url.path) could not be read, or changed during the upload"))
            return nil
        }
        let client = self.client
        do {
            let asset = try await retry.perform("upload of \(file.url.lastPathComponent)", clock: clock) {
                () async throws(CloudKitFailure) in
                try await client.uploadAssetBytes(data, to: url)
            }
            try await journal.record(sha256: file.sha256, asset: asset, now: clock.milliseconds)
            return asset
        } catch let stopped as UploadStopped {
            let code = stopped.failure.code
            if stopped.failure.status == nil || code == .authenticationFailed || code == .authenticationRequired {
                throw stopped
            }
            table.fail(file.sha256, stopped.failure)
            return nil
        }
    }
}
