import Foundation
import LarderCloudKit
import LarderCore
import LarderEmulator
import LarderTestSupport
import Testing

/// Issue #12: a body over the limit on a `Connection: close` request used to leave the client hanging.
@Suite struct OversizedBodyTests {
    static func modifyPath(_ server: TestServer) -> String {
        server.client().url("records/modify").absoluteString.replacingOccurrences(
            of: server.baseURL.absoluteString, with: "")
    }

    @Test("a 50 MB body with Connection: close gets the too-large BAD_REQUEST and the connection closes")
    func oversizedBodyWithConnectionClose() async throws {
        let server = try await TestServer.start()
        try await stopping(server) { _ in
            let port = try #require(server.baseURL.port)
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20)
            let reply = try await RawHTTPClient.send(
                port: port,
                head: [
                    "POST \(Self.modifyPath(server)) HTTP/1.1", "Host: 127.0.0.1:\(port)",
                    "Content-Type: application/json",
                    "Content-Length: \(50 * chunk.count)", "Connection: close",
                ],
                body: chunk, repeatBody: 50)
            #expect(reply.status == 400, "\(reply.text.prefix(300))")
            #expect(reply.body.contains(#""serverErrorCode":"BAD_REQUEST""#))
            #expect(reply.body.contains("larger than the \(16 << 20)-byte limit"))
            #expect(reply.closedByServer)
            // The server is still fine.
            #expect(try await server.client().get("zones/list").status == 200)
        }
    }

    @Test("an oversized chunked body with Connection: close gets the too-large BAD_REQUEST and the connection closes")
    func oversizedChunkedBody() async throws {
        let server = try await TestServer.start { $0.limits.maxRequestBodyBytes = 10_000 }
        try await stopping(server) { _ in
            let port = try #require(server.baseURL.port)
            let piece = String(repeating: " ", count: 4096)
            let chunk = Array((String(4096, radix: 16) + "\r\n" + piece + "\r\n").utf8)
            let body = Array(repeating: chunk, count: 8).flatMap { $0 } + Array("0\r\n\r\n".utf8)
            let reply = try await RawHTTPClient.send(
                port: port,
                head: [
                    "POST \(Self.modifyPath(server)) HTTP/1.1", "Host: 127.0.0.1:\(port)",
                    "Content-Type: application/json",
                    "Transfer-Encoding: chunked", "Connection: close",
                ],
                body: body)
            #expect(reply.status == 400 && reply.body.contains("10000-byte limit"), "\(reply.text.prefix(300))")
            #expect(reply.closedByServer)
        }
    }
}
