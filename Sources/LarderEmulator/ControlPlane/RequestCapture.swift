import Synchronization

/// The request and answer bodies of the request being handled, kept (cut to ``limit`` bytes) for
/// the request log, so the dashboard can show them on click.
///
/// ``EmulatorMiddleware`` binds ``current`` around each request; the database pipeline records
/// the body it read and the answer it encoded; the middleware records error answers itself.
final class RequestCapture: Sendable {
    @TaskLocal static var current: RequestCapture?

    /// Bytes kept per body (the log holds `requestLogCapacity` entries).
    static let limit = 4096

    private let state = Mutex<(request: String?, answer: String?)>((nil, nil))

    var request: String? { state.withLock { $0.request } }
    var answer: String? { state.withLock { $0.answer } }

    func record(request bytes: some Collection<UInt8>) {
        let text = Self.text(bytes)
        state.withLock { $0.request = text }
    }

    func record(answer bytes: some Collection<UInt8>) {
        let text = Self.text(bytes)
        state.withLock { $0.answer = text }
    }

    /// The first ``limit`` bytes as UTF-8 text, saying how long the whole was when cut.
    static func text(_ bytes: some Collection<UInt8>) -> String? {
        guard !bytes.isEmpty else { return nil }
        let text = String(decoding: bytes.prefix(limit), as: UTF8.self)
        return bytes.count > limit ? text + "… (\(bytes.count) bytes)" : text
    }
}
