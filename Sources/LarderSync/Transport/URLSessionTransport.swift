public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``Transport`` over Foundation's `URLSession` (FoundationNetworking on Linux).
///
/// One session per transport, with a bounded number of connections per host, so concurrent
/// batches reuse keep-alive connections.
public final class URLSessionTransport: Transport {
    private let session: URLSession

    /// Creates a transport.
    /// - Parameters:
    ///   - timeout: seconds before a request without an answer fails (and is retried).
    ///   - maxConnections: connections per host.
    public init(timeout: TimeInterval = 60, maxConnections: Int = 8) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = maxConnections
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        if !request.body.isEmpty || request.method == "POST" { urlRequest.httpBody = request.body }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: urlRequest)
        // URLSession has taken the whole answer by now; the NIO transport (plain http) stops reading.
        guard data.count <= request.maxResponseBytes else { throw ResponseTooLarge(limit: request.maxResponseBytes) }
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}
