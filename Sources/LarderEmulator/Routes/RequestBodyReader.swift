import HTTPTypes
import Hummingbird
import NIOCore

/// Reads a request body up to a limit.
///
/// Past the limit it keeps reading and discards the rest (memory stays at the limit) before throwing, so the client,
/// which is still sending, gets the answer and a `Connection: close` request's connection closes instead of stalling
/// with an unread body.
enum RequestBodyReader {
    /// The body, at most `limit` bytes.
    /// - Throws: ``CloudKitServerError`` `BAD_REQUEST` "request body is larger than the N-byte limit"
    ///   once the whole body has been received, when it is larger than `limit`.
    static func collect(_ request: Request, upTo limit: Int) async throws -> ByteBuffer {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        var tooLarge = (declared ?? 0) > limit
        var collected = ByteBuffer()
        for try await chunk in request.body {
            if tooLarge { continue }
            if collected.readableBytes + chunk.readableBytes > limit {
                tooLarge = true
                collected = ByteBuffer()
                continue
            }
            var chunk = chunk
            collected.writeBuffer(&chunk)
        }
        if tooLarge { throw CloudKitServerError.badRequest("request body is larger than the \(limit)-byte limit") }
        return collected
    }
}
