public import Foundation
public import LarderCloudKit
import LarderCore
import LarderFormats
import Synchronization

/// A small CloudKit Web Services client over a ``Transport``: builds URLs and auth, encodes
/// requests, decodes answers, and turns error bodies into ``CloudKitFailure``.
///
/// It does not retry; ``Uploader``, ``ZoneDownloader`` and ``StoreSync`` decide that with a
/// ``RetryPolicy``. Each call counts one request in ``requestCount``.
public final class CloudKitClient: Sendable {
    /// The target database and zone.
    public let target: CloudKitTarget
    let transport: any Transport
    let credentials: CloudKitCredentials
    /// The newest web-auth token the server handed out (CloudKit rotates it per answer).
    let webAuthToken: Mutex<String?>
    let requests = Atomic<Int>(0)
    let bytesSent = Atomic<Int>(0)

    /// Creates a client.
    public init(target: CloudKitTarget, transport: any Transport, credentials: CloudKitCredentials) {
        self.target = target
        self.transport = transport
        self.credentials = credentials
        if case .apiToken(_, let token) = credentials {
            // Accept the token as printed inside a URL (percent-encoded) as well as plain.
            webAuthToken = Mutex(token.map(WebAuthToken.plain))
        } else {
            webAuthToken = Mutex(nil)
        }
    }

    /// Requests sent so far.
    public var requestCount: Int { requests.load(ordering: .relaxed) }
    /// Request body bytes sent so far.
    public var bodyBytesSent: Int { bytesSent.load(ordering: .relaxed) }

    // MARK: Raw exchange

    /// The URL of `operation` with the auth query string.
    func url(_ operation: String) -> URL {
        var text = target.baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += target.endpoint.path(operation)
        if case .apiToken(let apiToken, _) = credentials {
            text += "?ckAPIToken=" + Self.percentEncode(apiToken)
            if let token = webAuthToken.withLock({ $0 }) { text += "&ckWebAuthToken=" + Self.percentEncode(token) }
        }
        return URL(string: text) ?? target.baseURL
    }

    /// Sends `body` to `operation` and returns the body of a 200 answer.
    /// - Throws: ``CloudKitFailure``: the server's error for any other status, a transport
    ///   failure when no answer arrived.
    public func call(_ operation: String, method: String = "POST", body: Data) async throws(CloudKitFailure) -> Data {
        var headers = ["Content-Type": "application/json; charset=utf-8"]
        if case .serverKey(let signer) = credentials {
            do {
                for (name, value) in try signer.headers(body: body, path: target.endpoint.path(operation)) {
                    headers[name] = value
                }
            } catch {
                throw CloudKitFailure(code: .authenticationFailed, reason: "cannot sign the request: \(error)")
            }
        }
        let request = TransportRequest(
            method: method, url: url(operation), headers: headers, body: method == "GET" ? Data() : body)
        bytesSent.add(body.count, ordering: .relaxed)
        return try await exchange(request, operation: operation)
    }

    static func failure(from response: TransportResponse, operation: String) -> CloudKitFailure {
        let headerRetry = response.headers["retry-after"].flatMap(Double.init)
        if let error = try? WireDecoder().decode(ErrorResponse.self, from: response.body) {
            return CloudKitFailure(
                code: error.serverErrorCode, status: response.status, reason: error.reason,
                retryAfter: error.retryAfter.map(Double.init) ?? headerRetry)
        }
        let snippet = String(decoding: response.body.prefix(200), as: UTF8.self)
        let code: ServerErrorCode =
            switch response.status {
            case 429: .throttled
            case 503, 502, 504: .tryAgainLater
            case 413: .requestTooLarge
            case 401: .authenticationFailed
            case 404: .notFound
            case 500: .internalError
            default: .badRequest
            }
        return CloudKitFailure(
            code: code, status: response.status, reason: "\(operation): HTTP \(response.status) \(snippet)",
            retryAfter: headerRetry)
    }

    /// Decodes an answer with the wire decoder the emulator shares, reading `data` in place.
    func decode<T: Decodable>(_ type: T.Type, from data: Data, operation: String) throws(CloudKitFailure) -> T {
        do {
            return try WireDecoder(name: operation).decode(type, from: data)
        } catch {
            throw .transport("\(operation): the answer is not CloudKit JSON: \(error)")
        }
    }

    // MARK: Operations

    /// `records/modify` with a body already encoded (see ``ModifyBody``).
    public func modify(body: Data) async throws(CloudKitFailure) -> [RecordResult] {
        let data = try await call("records/modify", body: body)
        return try decode(RecordsResponse.self, from: data, operation: "records/modify").records
    }

    /// `records/lookup` of `names` in the target zone (all fields).
    public func lookup(_ names: [String]) async throws(CloudKitFailure) -> [RecordResult] {
        let request = LookupRecordsRequest(records: names.map { .init(recordName: $0) }, zoneID: target.zoneID)
        let data = try await call("records/lookup", body: Self.json(request))
        return try decode(RecordsResponse.self, from: data, operation: "records/lookup").records
    }

    /// Makes sure the target zone exists: `zones/lookup`, then `zones/modify` create when it is
    /// missing.
    ///
    /// The default zone always exists.
    /// - Returns: whether the zone was created.
    public func ensureZone() async throws(CloudKitFailure) -> Bool {
        let zoneID = target.zoneID
        guard !zoneID.isDefaultZone else { return false }
        let lookup = try await call("zones/lookup", body: Self.json(ZonesLookupRequest(zones: [zoneID])))
        let found = try decode(ZonesResponse.self, from: lookup, operation: "zones/lookup").zones.first
        if found?.zone != nil { return false }
        if let error = found?.error, error.serverErrorCode != .zoneNotFound, error.serverErrorCode != .notFound {
            throw CloudKitFailure(
                code: error.serverErrorCode, reason: error.reason, retryAfter: error.retryAfter.map(Double.init))
        }
        let create = ZonesModifyRequest(operations: [.init(operationType: "create", zoneID: zoneID)])
        let answer = try await call("zones/modify", body: Self.json(create))
        let result = try decode(ZonesResponse.self, from: answer, operation: "zones/modify").zones.first
        if let error = result?.error, error.serverErrorCode != .exists {
            throw CloudKitFailure(
                code: error.serverErrorCode, reason: error.reason, retryAfter: error.retryAfter.map(Double.init))
        }
        return true
    }

    /// One page of `changes/zone` for the target zone.
    /// - Throws: ``CloudKitFailure`` for a whole-request error or the zone's own error
    ///   (`CHANGE_TOKEN_EXPIRED`, `ZONE_NOT_FOUND`, …).
    public func zoneChanges(syncToken: String?, resultsLimit: Int? = nil, recordTypes: [String]? = nil)
        async throws(CloudKitFailure) -> ZoneChanges
    {
        var options = ZoneChangesRequest.Options(
            zoneID: target.zoneID, syncToken: syncToken, resultsLimit: resultsLimit)
        options.desiredRecordTypes = recordTypes
        let data = try await call("changes/zone", body: Self.json(ZoneChangesRequest(zones: [options])))
        let response = try decode(ZoneChangesResponse.self, from: data, operation: "changes/zone")
        guard let first = response.zones.first else { throw .transport("changes/zone: the answer has no zone") }
        switch first {
        case .success(let changes): return changes
        case .failure(let error):
            throw CloudKitFailure(
                code: error.serverErrorCode, reason: error.reason, retryAfter: error.retryAfter.map(Double.init))
        }
    }

    /// Encodes a request body with the wire encoder the emulator shares.
    static func json(_ value: some WireEncodable) throws(CloudKitFailure) -> Data {
        do {
            return Data(try WireEncoder.encode(value))
        } catch {
            throw .transport("cannot encode a request: \(error)")
        }
    }

    static func percentEncode(_ text: String) -> String { WebAuthToken.percentEncoded(text) }

    static func describe(_ error: any Error) -> String {
        if let error = error as? URLError { return "\(error.code.rawValue) \(error.localizedDescription)" }
        return "\(error)"
    }
}
