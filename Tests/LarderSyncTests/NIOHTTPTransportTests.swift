import Foundation
import LarderCloudKit
import LarderEmulator
import LarderSync
import LarderTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The plain-HTTP transport `larder upload`, `download` and `sync` use against the emulator.
@Suite struct NIOHTTPTransportTests {
    @Test("concurrent requests reuse kept-alive connections and every answer is the right one")
    func keepAliveReuse() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let transport = NIOHTTPTransport(timeout: 300)
            let client = CloudKitClient(
                target: server.target(zone: "nio"), transport: transport,
                credentials: .apiToken(UploadTestServer.apiToken, webAuthToken: UploadTestServer.user.webAuthToken))
            try await client.ensureZone()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        for round in 0..<10 {
                            let answer = try await client.call("zones/list", method: "GET", body: Data())
                            let text = String(decoding: answer, as: UTF8.self)
                            #expect(text.contains(#""zoneName":"nio""#), "worker \(worker) round \(round): \(text)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            // 41 requests, at most 4 at a time: the connections were reused.
            #expect(transport.connectionsOpened <= 5, "\(transport.connectionsOpened) connections")
            #expect(transport.connectionsOpened >= 1)
        }
    }

    @Test("a kept-alive connection the server closed is replaced: the next request still gets its answer")
    func staleConnectionIsReplaced() async throws {
        // Connection 1 answers once with keep-alive, then closes; connection 2 answers.
        let server = try SocketScript(connections: [[.answer], [.answer]])
        let transport = NIOHTTPTransport(timeout: 30)
        let url = URL(string: "http://127.0.0.1:\(server.port)/x")!
        let first = try await transport.send(TransportRequest(method: "POST", url: url, body: Data("one".utf8)))
        #expect(first.status == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == "3")
        server.waitForClose(connection: 0)
        let second = try await transport.send(TransportRequest(method: "POST", url: url, body: Data("second".utf8)))
        #expect(second.status == 200)
        #expect(String(decoding: second.body, as: UTF8.self) == "6")
        #expect(transport.connectionsOpened == 2)
    }

    @Test("a server that closes without answering, or never answers, gives an error, not a hang")
    func noAnswerIsAnError() async throws {
        let closing = try SocketScript(connections: [[.close]])
        let transport = NIOHTTPTransport(timeout: 30)
        await #expect(throws: (any Error).self) {
            _ = try await transport.send(
                TransportRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(closing.port)/")!))
        }
        let silent = try SocketScript(connections: [[.silence]])
        let quick = NIOHTTPTransport(timeout: 1)
        await #expect(throws: (any Error).self) {
            _ = try await quick.send(
                TransportRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(silent.port)/")!))
        }
    }
}

/// A loopback server that plays a script per accepted connection: answer a request (status 200,
/// body = the request body's length, keep-alive), close, or read and stay silent.
final class SocketScript: Sendable {
    enum Step: Sendable {
        case answer
        case close
        case silence
    }

    let port: Int
    private let listener: Int32
    private let closed = Mutex<Set<Int>>([])

    init(connections: [[Step]]) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else { throw CocoaError(.fileReadUnknown) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in self.serve(connections) }
        thread.start()
    }

    deinit { close(listener) }

    /// Waits (up to 10 s) until the server has closed connection `index`.
    func waitForClose(connection index: Int) {
        for _ in 0..<1000 where !closed.withLock({ $0.contains(index) }) { usleep(10_000) }
    }

    private func serve(_ connections: [[Step]]) {
        for (index, steps) in connections.enumerated() {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            for step in steps {
                switch step {
                case .answer:
                    guard let length = readRequest(client) else { break }
                    let body = String(length)
                    let reply =
                        "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\nConnection: keep-alive\r\n\r\n\(body)"
                    _ = reply.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                case .close:
                    _ = readRequest(client)
                case .silence:
                    _ = readRequest(client)
                    sleep(5)
                }
            }
            close(client)
            closed.withLock { _ = $0.insert(index) }
        }
    }

    /// Reads one request; returns its body's length.
    private func readRequest(_ fd: Int32) -> Int? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let declared =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                let have = received.count - text[..<end.upperBound].utf8.count
                if have >= declared { return declared }
            }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
    }
}
