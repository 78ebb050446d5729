import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded raw HTTP/1.1 client over a POSIX socket, for requests URLSession will not send (a
/// forged `Host`, a body bigger than the server accepts) and to see whether the server closes.
///
/// Runs on its own thread (never blocks the cooperative pool); every receive has a timeout, so a
/// server that never answers makes the call return what it got, never hang. The timeout is long
/// (120 s) because under a full parallel test run on 2 cores the server may answer late; the
/// tests assert what it answers, never how fast.
enum RawHTTPClient {
    struct Reply: Sendable {
        /// Everything received, head and body.
        var bytes: [UInt8]
        /// The server closed the connection (EOF) before the receive timeout.
        var closedByServer: Bool

        var text: String { String(decoding: bytes, as: UTF8.self) }
        var status: Int? {
            let line = text.split(separator: "\r\n", maxSplits: 1).first ?? ""
            let parts = line.split(separator: " ")
            return parts.count > 1 ? Int(parts[1]) : nil
        }
        var body: String {
            guard let range = text.range(of: "\r\n\r\n") else { return "" }
            return String(text[range.upperBound...])
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `head` (CRLF line endings added) then `body` `repeatBody` times, stopping early when the server
    /// stops reading, and reads until the server closes or `timeoutSeconds` pass without data.
    static func send(
        port: Int, head: [String], body: [UInt8] = [], repeatBody: Int = 1, timeoutSeconds: Int = 120
    ) async throws -> Reply {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        try exchange(
                            port: port, head: head, body: body, repeatBody: repeatBody, timeoutSeconds: timeoutSeconds)
                    })
            }
            thread.start()
        }
    }

    private static func exchange(port: Int, head: [String], body: [UInt8], repeatBody: Int, timeoutSeconds: Int) throws
        -> Reply
    {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var noSigPipe: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect() failed") }
        let headBytes = Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        guard writeAll(fd, headBytes) else { throw Failure(description: "could not send the request head") }
        for _ in 0..<repeatBody where !body.isEmpty {
            // The server may answer and close before the whole body is sent: stop sending then.
            if !writeAll(fd, body) { break }
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else {
                return Reply(bytes: received, closedByServer: count == 0)
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, flags) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}
