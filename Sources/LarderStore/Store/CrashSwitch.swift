import Foundation
import LarderSystem

/// A crash switch for the kill -9 tests: with `LARDER_FAULT_KILL_AT=N` in the environment, the
/// maintenance commands send themselves SIGKILL at their N-th write step (a row deleted or
/// updated, an entry copied, the commit or rename).
///
/// Unset (always, outside tests) it costs one comparison per step.
package enum CrashSwitch {
    private static let killAt: Int? = ProcessInfo.processInfo.environment["LARDER_FAULT_KILL_AT"].flatMap(Int.init)
    // Only the command's own thread counts steps; the counter is never shared across threads.
    nonisolated(unsafe) private static var steps = 0

    /// Counts one write step, and dies on the chosen one.
    @inline(__always)
    package static func step() {
        guard let killAt else { return }
        steps += 1
        if steps == killAt { kill(getpid(), SIGKILL) }
    }
}
