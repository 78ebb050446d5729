public import Hummingbird
import Logging
import NIOCore

/// The emulator's request context.
///
/// Hummingbird's default upload limit (2 MiB) is too small for 200-operation batches, and its
/// default coders use ISO-8601 dates where CloudKit uses milliseconds. The emulator reads bodies
/// itself, up to `limits.maxRequestBodyBytes`, so the context only raises the ceiling.
public struct EmulatorRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    /// The peer connected from a loopback address (`127.x.x.x`, `::1`).
    var isLoopbackPeer: Bool

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        let peer = source.channel.remoteAddress?.ipAddress ?? ""
        isLoopbackPeer = peer.hasPrefix("127.") || peer == "::1" || peer.hasPrefix("::ffff:127.")
    }

    /// A hard ceiling; the configured limit is enforced by the handlers.
    public var maxUploadSize: Int { 1 << 30 }
}
