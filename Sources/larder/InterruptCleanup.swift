import Dispatch
import LarderFormats
import LarderSystem
import Synchronization

/// SIGINT, SIGTERM and SIGHUP end a run without leaving temporary files: the outputs in flight
/// (``TemporaryFiles``) are removed and larder exits with 128 + the signal number (130 for
/// Ctrl-C, 143 for SIGTERM), as a shell reports a process killed by that signal.
///
/// The signals are ignored while dispatch signal sources handle them on their own queue, so the
/// handler runs as ordinary code, not in a signal handler, whatever the main thread is doing.
enum InterruptCleanup {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// What an interrupted run leaves, said when a signal ends it; a command that keeps
    /// something (an upload's journal) says so here.
    static let note = Mutex("nothing was written (outputs in progress removed)")

    /// Installs the handlers (once, before the command runs).
    static func install() {
        guard sources.isEmpty else { return }
        let queue = DispatchQueue(label: "larder.interrupt-cleanup")
        let registered = DispatchSemaphore(value: 0)
        let signals = [SIGINT, SIGTERM, SIGHUP]
        for signalNumber in signals {
            Signals.ignore(signalNumber)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                TemporaryFiles.removeAll()
                RunProgress.current.withLock { $0 }?.clearForInterrupt()
                let name = signalNumber == SIGINT ? "interrupted" : signalNumber == SIGTERM ? "terminated" : "hung up"
                Stderr.write("larder: \(name): \(note.withLock { $0 })\n")
                _exit(128 + signalNumber)
            }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            sources.append(source)
        }
        // Sources register asynchronously: until they have, an ignored signal would be lost.
        // Wait (bounded) so that the command starts only once a signal is handled.
        for _ in signals { _ = registered.wait(timeout: .now() + 2) }
    }
}
