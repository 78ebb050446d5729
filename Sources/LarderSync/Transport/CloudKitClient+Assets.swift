public import Foundation
public import LarderCloudKit
import LarderCore
import Synchronization

extension CloudKitClient {
    /// `assets/upload`: upload URLs for fields of records in the target zone.
    /// - Throws: ``CloudKitFailure``.
    public func requestAssetUploads(_ tokens: [AssetUploadRequest.Token]) async throws(CloudKitFailure)
        -> [AssetUploadResponse.Token]
    {
        let body = try Self.json(AssetUploadRequest(zoneID: target.zoneID, tokens: tokens))
        let data = try await call("assets/upload", body: body)
        return try decode(AssetUploadResponse.self, from: data, operation: "assets/upload").tokens
    }

    /// POSTs `bytes` to an upload URL from ``requestAssetUploads(_:)`` and returns the receipt's asset.
    /// - Throws: ``CloudKitFailure``.
    public func uploadAssetBytes(_ bytes: Data, to url: String) async throws(CloudKitFailure) -> Asset {
        guard let target = URL(string: url) else { throw CloudKitFailure(code: .badRequest, reason: "bad upload URL") }
        bytesSent.add(bytes.count, ordering: .relaxed)
        let data = try await exchange(
            TransportRequest(
                method: "POST", url: target, headers: ["Content-Type": "application/octet-stream"], body: bytes),
            operation: "asset upload")
        return try decode(AssetUploadReceipt.self, from: data, operation: "asset upload").singleFile
    }

    /// GETs an asset's `downloadURL`, with this client's API and web-auth tokens appended (the
    /// emulator asks for them on private-database assets; a CDN ignores them).
    /// - Throws: ``CloudKitFailure``.
    public func downloadAsset(_ url: String) async throws(CloudKitFailure) -> Data {
        var text = url
        if case .apiToken(let apiToken, _) = credentials {
            text += (text.contains("?") ? "&" : "?") + "ckAPIToken=" + Self.percentEncode(apiToken)
            if let token = webAuthToken.withLock({ $0 }) { text += "&ckWebAuthToken=" + Self.percentEncode(token) }
        }
        guard let target = URL(string: text) else {
            throw CloudKitFailure(code: .badRequest, reason: "bad download URL")
        }
        return try await exchange(TransportRequest(method: "GET", url: target), operation: "asset download")
    }

    /// Sends a request, keeps a rotated web-auth token, and returns the body of a 200 answer.
    func exchange(_ request: TransportRequest, operation: String) async throws(CloudKitFailure) -> Data {
        requests.add(1, ordering: .relaxed)
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .transport("\(operation): \(Self.describe(error))")
        }
        if let rotated = response.headers["x-apple-cloudkit-web-auth-token"], !rotated.isEmpty {
            webAuthToken.withLock { $0 = rotated }
        }
        guard response.status == 200 else { throw Self.failure(from: response, operation: operation) }
        return response.body
    }
}
