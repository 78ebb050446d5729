public import Foundation
import Hummingbird
import LarderCloudKit
public import LarderCore
public import Logging
import NIOCore
import Synchronization
import UnixSignals

/// Builds the router: `/database/1/{container}/{environment}/{database}/…` and `/_emulator/…`.
func buildRouter(services: EmulatorServices) -> Router<EmulatorRequestContext> {
    let router = Router(context: EmulatorRequestContext.self)
    router.add(middleware: EmulatorMiddleware(requestLog: services.requestLog, clock: services.clock))
    router.add(
        middleware: RequestGuard(
            policy: .init(host: services.configuration.host, adminToken: services.configuration.adminToken ?? "")))
    let route = DatabaseRequestPipeline(services: services)
    let base = "/database/1/:container/:environment/:database"
    RecordsController(route: route).register(on: router, base: base)
    ZonesController(route: route).register(on: router, base: base)
    ChangesController(route: route).register(on: router, base: base)
    UsersController(route: route).register(on: router, base: base)
    SubscriptionsController(route: route).register(on: router, base: base)
    AssetsController(route: route).register(on: router, base: base)
    AssetTransferController(services: services).register(on: router)
    ControlPlaneController(services: services).register(on: router)
    DashboardController(services: services, csrfToken: Secrets.hex(bytes: 16)).register(on: router)
    return router
}

/// A running (or ready to run) emulator: the Hummingbird application and its store.
///
/// ```swift
/// let emulator = try Emulator(configuration: configuration)
/// let url = try await emulator.start()      // http://127.0.0.1:PORT
/// …
/// await emulator.stop()
/// ```
public final class Emulator: Sendable {
    /// The resolved configuration.
    public let configuration: EmulatorConfiguration
    let store: EmulatorStore
    let services: EmulatorServices
    private let logger: Logger
    private let state = EmulatorState()

    /// Opens the store (creating default zones and the declared schema) and prepares the server.
    /// - Parameters:
    ///   - configuration: where to listen and store, who may call, and the limits.
    ///   - logger: the server's logger (requests at debug, with a request id).
    ///   - clock: the time the server reads (injected in tests).
    ///   - random: the source of ids, tokens and fault draws (injected in tests).
    /// - Throws: ``LarderError`` `store-error` when the store cannot be opened.
    public init(
        configuration: EmulatorConfiguration, logger: Logger = Logger(label: "larder.emulator"),
        clock: LarderClock = .system, random: RandomSource = .system
    )
        throws
    {
        var configuration = configuration
        if configuration.adminToken == nil { configuration.adminToken = Secrets.hex(bytes: 32) }
        self.configuration = configuration
        self.logger = logger
        store = try EmulatorStore(directory: configuration.inMemory ? nil : configuration.dataDirectory)
        do {
            try store.ensureDefaultZones(configuration: configuration)
            try store.seed(schema: configuration.schema, containers: configuration.containers)
        } catch {
            throw LarderError(.store, "cannot prepare the emulator store: \(error)", underlying: error)
        }
        services = EmulatorServices(
            configuration: configuration, store: store, authenticator: Authenticator(configuration: configuration),
            faults: FaultRuleSet(random: random), requestLog: RequestLog(capacity: configuration.requestLogCapacity),
            clock: clock,
            random: random)
    }

    /// The control plane's admin token (the configured one, or one made for this run).
    public var adminToken: String { configuration.adminToken ?? "" }

    /// Whether the server listens on loopback only (otherwise the control plane always needs ``adminToken``).
    public var isLoopbackOnly: Bool { RequestGuard.Policy.isLoopback(hostName: configuration.host) }

    /// Replaces the state with an exported document.
    /// - Throws: ``LarderError`` naming what is wrong in the document.
    public func importState(from data: Data) throws {
        try StateArchive.restore(data, into: store)
        try store.ensureDefaultZones(configuration: configuration)
    }

    /// The whole state as JSON.
    public func exportState() throws -> Data { try StateArchive.export(store) }

    private func makeApplication(onRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        Application(
            router: buildRouter(services: services),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "larder-emulator"),
            onServerRunning: { [services] channel in
                let port = channel.localAddress?.port ?? 0
                services.listeningPort.value.store(port, ordering: .relaxed)
                await onRunning(port)
            },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, calling `onRunning` with the bound URL once listening.
    /// - Throws: the server's error (for example, the port is taken).
    public func run(onRunning: @escaping @Sendable (URL) async -> Void) async throws {
        let host = configuration.host
        let app = makeApplication { port in
            await onRunning(Emulator.url(host: host, port: port))
        }
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }

    /// Starts serving in the background and returns the bound URL (use port 0 for a free port).
    ///
    /// ```swift
    /// var configuration = EmulatorConfiguration()
    /// configuration.port = 0
    /// configuration.inMemory = true
    /// let emulator = try Emulator(configuration: configuration)
    /// let url = try await emulator.start()
    /// // … requests to url …
    /// await emulator.stop()
    /// ```
    /// - Returns: the URL it listens on, `http://HOST:PORT`, once it listens.
    /// - Throws: the server's error if it fails before listening.
    public func start() async throws -> URL {
        let host = configuration.host
        let (stream, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let app = makeApplication { port in continuation.yield(.success(port)) }
        let task = Task {
            do {
                try await app.runService(gracefulShutdownSignals: [])
            } catch {
                continuation.yield(.failure(error))
            }
            continuation.finish()
        }
        state.set(task)
        for await result in stream {
            return Emulator.url(host: host, port: try result.get())
        }
        throw LarderError(.network, "the emulator stopped before it was listening")
    }

    /// Stops a server started with ``start()`` and waits for it to finish.
    public func stop() async {
        guard let task = state.take() else { return }
        task.cancel()
        _ = await task.result
    }

    static func url(host: String, port: Int) -> URL {
        let shown = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(shown):\(port)") ?? URL(fileURLWithPath: "/")
    }
}

/// The background task of a started emulator.
private final class EmulatorState: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)
    func set(_ value: Task<Void, Never>) { task.withLock { $0 = value } }
    func take() -> Task<Void, Never>? {
        task.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
