public import Foundation
import LarderCore
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// ``Transport`` for plain `http://` servers (the emulator, `larder serve`) over SwiftNIO, with
/// kept-alive connections reused; anything else (`https://`, the real CloudKit) goes through
/// ``URLSessionTransport``.
///
/// Why a second transport: on Linux, URLSession drives libcurl through Dispatch sources, and a
/// 500 KB `records/modify` body costs hundreds of thread hops and system calls (measured: half of
/// `larder upload`'s CPU on 100k recipes was Dispatch and the kernel's task switching). NIO
/// writes the body from one event loop with a few `writev`s. NIO is already linked for the
/// emulator's server, so this adds no build time.
///
/// A connection is used by one request at a time. A request on a reused connection that the
/// server had closed before any answer arrived is sent once more on a new connection (the
/// uploader treats a repeated write as already there).
public final class NIOHTTPTransport: Transport {
    private let timeout: TimeInterval
    private let pool = ConnectionPool()
    private let fallback: URLSessionTransport
    private let opened = Atomic<Int>(0)
    /// Connections opened so far.
    public var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    /// Creates a transport.
    /// - Parameter timeout: seconds before a request without an answer fails (and is retried).
    public init(timeout: TimeInterval = 60) {
        self.timeout = timeout
        fallback = URLSessionTransport(timeout: timeout)
    }

    deinit {
        let pool = self.pool
        Task { await pool.closeAll() }
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.url.scheme?.lowercased() == "http", let host = request.url.host else {
            return try await fallback.send(request)
        }
        let port = request.url.port ?? 80
        let exchange = try HTTPExchange.make(request, host: host, port: port)
        while true {
            let (channel, reused) = try await connection(host: host, port: port)
            do {
                let response = try await send(exchange, on: channel)
                if response.keepAlive, channel.isActive {
                    await pool.put(channel, key: exchange.key)
                } else {
                    channel.close(promise: nil)
                }
                return response.response
            } catch let closed as ClosedBeforeAnswer where reused && !closed.receivedAny {
                channel.close(promise: nil)
                continue
            } catch {
                channel.close(promise: nil)
                throw error
            }
        }
    }

    private func connection(host: String, port: Int) async throws -> (any Channel, reused: Bool) {
        if let idle = await pool.take(key: "\(host):\(port)") { return (idle, true) }
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(Int64(max(1, min(timeout, 30)))))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(ExchangeHandler())
                }
            }
        let channel = try await bootstrap.connect(host: host, port: port).get()
        opened.add(1, ordering: .relaxed)
        return (channel, false)
    }

    private func send(_ exchange: HTTPExchange, on channel: any Channel) async throws -> ExchangeHandler.Answer {
        let promise = channel.eventLoop.makePromise(of: ExchangeHandler.Answer.self)
        // At most a year: a timeout of 1e300 s or infinity waits as long as NIO can schedule, not trap.
        let timeout = TimeAmount.milliseconds(Int64(saturating: min(timeout, 31_536_000) * 1000, .towardZero))
        let timer = channel.eventLoop.scheduleTask(in: timeout) {
            promise.fail(URLError(.timedOut))
            channel.close(promise: nil)
        }
        channel.writeAndFlush(ExchangeHandler.Outbound(exchange: exchange, promise: promise), promise: nil)
        defer { timer.cancel() }
        return try await promise.futureResult.get()
    }
}

/// A request ready for the wire.
struct HTTPExchange: Sendable {
    var head: HTTPRequestHead
    var body: ByteBuffer
    /// The most bytes of answer body to take.
    var maxResponseBytes = TransportRequest.defaultMaxResponseBytes
    /// `host:port`, the pool's key.
    var key: String

    static func make(_ request: TransportRequest, host: String, port: Int) throws -> HTTPExchange {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
            throw URLError(.badURL)
        }
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: port == 80 ? host : "\(host):\(port)")
        for (name, value) in request.headers { headers.replaceOrAdd(name: name, value: value) }
        if !request.body.isEmpty || request.method == "POST" {
            headers.replaceOrAdd(name: "Content-Length", value: String(request.body.count))
        }
        let head = HTTPRequestHead(
            version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: target, headers: headers)
        return HTTPExchange(
            head: head, body: ByteBuffer(bytes: request.body), maxResponseBytes: request.maxResponseBytes,
            key: "\(host):\(port)")
    }
}

/// The connection closed (or failed) before the whole answer arrived.
struct ClosedBeforeAnswer: Error, CustomStringConvertible {
    /// Whether any of the answer had arrived.
    var receivedAny: Bool
    /// The socket's error, when the connection failed rather than closed (a reset).
    var underlying: (any Error)?
    var description: String {
        "the server closed the connection before it answered" + (underlying.map { " (\($0))" } ?? "")
    }
}

/// Sends one request at a time and collects its answer.
final class ExchangeHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Outbound
    typealias OutboundOut = HTTPClientRequestPart

    struct Outbound: Sendable {
        var exchange: HTTPExchange
        var promise: EventLoopPromise<Answer>
    }

    struct Answer: Sendable {
        var response: TransportResponse
        var keepAlive: Bool
    }

    private var promise: EventLoopPromise<Answer>?
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var maxResponseBytes = TransportRequest.defaultMaxResponseBytes

    func write(context: ChannelHandlerContext, data: NIOAny, promise writePromise: EventLoopPromise<Void>?) {
        let outbound = unwrapOutboundIn(data)
        guard promise == nil else {
            outbound.promise.fail(ChannelError.inappropriateOperationForState)
            return
        }
        promise = outbound.promise
        head = nil
        body.clear()
        maxResponseBytes = outbound.exchange.maxResponseBytes
        context.write(wrapOutboundOut(.head(outbound.exchange.head)), promise: nil)
        if outbound.exchange.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(outbound.exchange.body))), promise: nil)
        }
        context.write(wrapOutboundOut(.end(nil)), promise: writePromise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let received):
            head = received
        case .body(var chunk):
            guard chunk.readableBytes <= maxResponseBytes - body.readableBytes else {
                // Stop reading: the rest of the answer is never taken in.
                fail(ResponseTooLarge(limit: maxResponseBytes))
                context.close(promise: nil)
                return
            }
            body.writeBuffer(&chunk)
        case .end:
            guard let promise, let head else { return }
            self.promise = nil
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let response = TransportResponse(
                status: Int(head.status.code), headers: headers, body: Data(body.readableBytesView))
            promise.succeed(Answer(response: response, keepAlive: head.isKeepAlive))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(ClosedBeforeAnswer(receivedAny: head != nil, underlying: nil))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset before any answer (a kept-alive connection the server had closed) is a closed
        // connection: on a reused one the request goes again on a new one.
        fail(head == nil ? ClosedBeforeAnswer(receivedAny: false, underlying: error) : error)
        context.close(promise: nil)
    }

    private func fail(_ error: any Error) {
        guard let promise else { return }
        self.promise = nil
        promise.fail(error)
    }
}

/// Idle kept-alive connections by `host:port`.
actor ConnectionPool {
    private var idle: [String: [any Channel]] = [:]

    func take(key: String) -> (any Channel)? {
        while let channel = idle[key]?.popLast() {
            if channel.isActive { return channel }
        }
        return nil
    }

    func put(_ channel: any Channel, key: String) {
        idle[key, default: []].append(channel)
    }

    func closeAll() {
        for channel in idle.values.joined() { channel.close(promise: nil) }
        idle.removeAll()
    }
}
