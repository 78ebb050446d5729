import Foundation
import Synchronization

/// One logged request.
public struct RequestLogEntry: Sendable, Codable, Hashable {
    public var id: Int
    public var timestamp: Int64
    public var method: String
    public var path: String
    public var operation: String?
    public var database: String?
    public var user: String?
    /// `api-token`, `web-auth` or `server-key`, when the request authenticated.
    public var auth: String?
    public var status: Int
    public var serverErrorCode: String?
    public var requestBytes: Int
    public var durationMs: Double
    /// The fault rule that fired, if one did.
    public var faultRule: String?
    /// The request body as text, cut to 4 KiB (database requests only).
    public var requestBody: String?
    /// The answer as text, cut to 4 KiB (database requests and errors).
    public var answerBody: String?
}

/// The last N requests, newest last (like LocalStack's and the Rust fake's request logs).
final class RequestLog: Sendable {
    private let state = Mutex<(entries: [RequestLogEntry], next: Int)>(([], 1))
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    func append(_ make: (Int) -> RequestLogEntry) {
        state.withLock { state in
            state.entries.append(make(state.next))
            state.next += 1
            if state.entries.count > capacity { state.entries.removeFirst(state.entries.count - capacity) }
        }
    }

    func entries(limit: Int?) -> [RequestLogEntry] {
        state.withLock { state in limit.map { Array(state.entries.suffix($0)) } ?? state.entries }
    }

    func clear() { state.withLock { $0.entries.removeAll() } }
}
