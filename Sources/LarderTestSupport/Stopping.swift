/// Something a test starts and must stop before it ends: an emulator on a port, a fixture around one.
public protocol StoppableTestResource: Sendable {
    /// Stops the resource and waits until it has stopped.
    func stop() async
}

/// Runs `body` with `resource`, then awaits `resource.stop()` whether `body` returns or throws.
///
/// `defer { Task { await server.stop() } }` lets a test end before its server has stopped (and
/// leaks the server when the test process exits first); this awaits the stop.
///
/// ```swift
/// let server = try await TestServer.start()
/// try await stopping(server) { _ in
///     // requests to server
/// }
/// ```
///
/// - Parameters:
///   - resource: What to stop when `body` is done.
///   - isolation: The caller's actor, so `body` runs where the test does (inferred).
///   - body: The test's work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, after the stop.
public func stopping<Resource: StoppableTestResource, Result>(
    _ resource: Resource, isolation: isolated (any Actor)? = #isolation,
    _ body: (Resource) async throws -> Result
) async throws -> Result {
    let result: Result
    do {
        result = try await body(resource)
    } catch {
        await resource.stop()
        throw error
    }
    await resource.stop()
    return result
}
