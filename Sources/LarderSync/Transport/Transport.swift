public import Foundation

/// One HTTP exchange, as the uploader needs it: a method, a URL, headers and a body.
public struct TransportRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The full URL, query string included.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body (empty for `GET`).
    public var body: Data
    /// The most bytes of answer body to take: a longer answer fails with ``ResponseTooLarge``
    /// instead of filling memory (a server answering 1.5 GB took the client to 4.65 GB).
    public var maxResponseBytes: Int

    /// Answers of the API: 200 records of at most 1 MB each, and their envelope.
    public static let defaultMaxResponseBytes = 256 << 20

    /// Creates a request.
    public init(
        method: String, url: URL, headers: [String: String] = [:], body: Data = Data(),
        maxResponseBytes: Int = TransportRequest.defaultMaxResponseBytes
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maxResponseBytes = maxResponseBytes
    }
}

/// An answer longer than the request allowed (``TransportRequest/maxResponseBytes``); never retried.
public struct ResponseTooLarge: Error, CustomStringConvertible {
    /// The limit that was passed.
    public var limit: Int
    public var description: String { "the server's answer is longer than \(limit) bytes" }
}

/// What came back: a status, headers (names lowercased) and the body.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Moves bytes to a CloudKit Web Services server and back.
///
/// The uploader talks to the server only through this protocol: ``URLSessionTransport`` in
/// production, anything that answers like CloudKit in tests. A transport throws only when no
/// HTTP answer arrived (connection refused, reset, timed out); an HTTP error status is a
/// normal ``TransportResponse``.
public protocol Transport: Sendable {
    /// Sends `request` and returns the server's answer.
    /// - Throws: any error when no HTTP answer arrived; callers treat it as retryable.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
