public import LarderCore
import Synchronization

/// A ``DiagnosticSink`` that keeps what it is given, for a report or a test.
///
/// Rejected records are counted and their diagnostics kept (not the records); warnings are kept
/// in order. Safe to share between tasks.
public final class DiagnosticLog: DiagnosticSink, Sendable {
    private struct State {
        var rejected: [Diagnostic] = []
        var warnings: [Diagnostic] = []
    }

    private let state = Mutex(State())

    /// Creates an empty log.
    public init() {}

    /// The diagnostics of the records rejected so far, in order.
    public var rejected: [Diagnostic] { state.withLock { $0.rejected } }

    /// The warnings so far, in order.
    public var warnings: [Diagnostic] { state.withLock { $0.warnings } }

    /// Keeps the record's diagnostic.
    public func reject(_ record: Value?, _ error: LarderError, raw: String?) {
        state.withLock { $0.rejected.append(error.diagnostic) }
    }

    /// Keeps the warning.
    public func warn(_ diagnostic: Diagnostic) {
        state.withLock { $0.warnings.append(diagnostic) }
    }
}
