#if canImport(Glibc)
import Glibc
#endif

/// The C allocator's tuning, where it has any (glibc); on Darwin and Musl these do nothing.
package enum Allocator {
    /// Blocks at least `bytes` big are mmapped (and unmapped when freed); nothing where unsupported.
    package static func setMmapThreshold(_ bytes: Int32) {
        #if canImport(Glibc)
        // `mallopt` is in malloc.h, which the Glibc module does not import: look it up.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in glibc's malloc.h
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, bytes)
        #endif
    }

    /// Returns the free memory of every heap arena to the system (glibc `malloc_trim(0)`); nothing
    /// where unsupported.
    package static func trim() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
