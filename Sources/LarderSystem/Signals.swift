#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Signal dispositions.
package enum Signals {
    /// Ignores `signal` (`signal(signal, SIG_IGN)`): a dispatch signal source then handles it.
    package static func ignore(_ signal: Int32) { ignoreSignal(signal) }
}

private func ignoreSignal(_ number: Int32) { _ = signal(number, SIG_IGN) }

/// The calling thread.
package enum CurrentThread {
    /// A number that tells the calling thread from the others running now (`pthread_self()`; an
    /// integer in glibc, a pointer in Darwin and Musl).
    package static var identifier: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: Int(bitPattern: pthread_self()))
        #endif
    }
}
