import Synchronization

/// A counter shared with progress callbacks.
final class SendableCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Adds `amount`.
    func add(_ amount: Int) { value.add(amount, ordering: .relaxed) }

    /// The count so far.
    var count: Int { value.load(ordering: .relaxed) }
}
