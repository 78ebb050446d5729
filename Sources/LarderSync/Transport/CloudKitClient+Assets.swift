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

    /// GETs an asset's `downloadURL`, with this client's API and web-auth tokens appended when the
    /// URL is on the endpoint's own origin (the emulator asks for them on private-database assets);
    /// a URL on any other host gets no credentials.
    /// - Parameters:
    ///   - url: the asset's download URL.
    ///   - expectedSize: the size the record declares: a longer answer is not read past it.
    /// - Returns: the asset's bytes.
    /// - Throws: ``CloudKitFailure``.
    public func downloadAsset(_ url: String, expectedSize: Int64? = nil) async throws(CloudKitFailure) -> Data {
        var text = url
        if case .apiToken(let apiToken, _) = credentials, Self.sameOrigin(URL(string: url), target.baseURL) {
            text += (text.contains("?") ? "&" : "?") + "ckAPIToken=" + Self.percentEncode(apiToken)
            if let token = webAuthToken.withLock({ $0 }) { text += "&ckWebAuthToken=" + Self.percentEncode(token) }
        }
        guard let target = URL(string: text) else {
            throw CloudKitFailure(code: .badRequest, reason: "bad download URL")
        }
        var request = TransportRequest(method: "GET", url: target)
        if let expectedSize, expectedSize >= 0, expectedSize < Int64(TransportRequest.defaultMaxResponseBytes) {
            request.maxResponseBytes = Int(expectedSize)
        }
        return try await exchange(request, operation: "asset download")
    }

    /// Whether a transport error is a refused connection (nothing listens at the address): NIO's
    /// `connection refused (errno: 111)`, URLSession's `cannotConnectToHost`.
    static func isConnectionRefused(_ error: any Error, description: String) -> Bool {
        if let error = error as? URLError, error.code == .cannotConnectToHost { return true }
        return description.contains("Connection refused") || description.contains("errno: 111")
    }

    /// Whether two URLs share scheme, host and port (the port a scheme implies when none is given).
    static func sameOrigin(_ a: URL?, _ b: URL) -> Bool {
        guard let a, let schemeA = a.scheme?.lowercased(), let schemeB = b.scheme?.lowercased(),
            let hostA = a.host?.lowercased(), let hostB = b.host?.lowercased()
        else { return false }
        func port(_ url: URL, _ scheme: String) -> Int? {
            url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
        return schemeA == schemeB && hostA == hostB && port(a, schemeA) == port(b, schemeB)
    }

    /// Sends a request, keeps a rotated web-auth token, and returns the body of a 200 answer.
    func exchange(_ request: TransportRequest, operation: String) async throws(CloudKitFailure) -> Data {
        requests.add(1, ordering: .relaxed)
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch let tooLarge as ResponseTooLarge {
            // Not a network failure: asking again brings the same answer.
            throw CloudKitFailure(code: .badRequest, reason: "\(operation): \(tooLarge.description)")
        } catch {
            let text = Self.describe(error)
            if Self.isConnectionRefused(error, description: text) {
                let address =
                    request.url.host.map { "\($0)\(request.url.port.map { ":\($0)" } ?? "")" } ?? "the endpoint"
                throw CloudKitFailure(
                    code: .connectionRefused,
                    reason:
                        "nothing is listening at \(request.url.scheme ?? "http")://\(address) (connection refused). "
                        + "Start the emulator with `larder serve` (it prints its URL), or check --endpoint")
            }
            throw .transport("\(operation): \(text)")
        }
        if let rotated = response.headers["x-apple-cloudkit-web-auth-token"], !rotated.isEmpty {
            webAuthToken.withLock { $0 = rotated }
        }
        guard response.status == 200 else { throw Self.failure(from: response, operation: operation) }
        return response.body
    }
}
