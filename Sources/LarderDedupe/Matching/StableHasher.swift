/// A fast 64-bit hash that is the same in every process and on every machine.
///
/// Swift's `Hasher` is seeded per process, so anything that decides an order or a block
/// (fingerprints, MinHash, stable record keys) uses this instead: the same input always
/// hashes the same, which is what makes dedupe output independent of the run.
/// The mixing is wyhash-style (64×64→128-bit multiply, fold the halves).
package struct StableHasher: Sendable {
    private var state: UInt64
    private var length: UInt64 = 0

    private static let p0: UInt64 = 0xA076_1D64_78BD_642F
    private static let p1: UInt64 = 0xE703_7ED1_A0B4_28DB
    private static let p2: UInt64 = 0x8EBC_6AF0_9C88_C6E3

    /// Creates a hasher; different seeds give independent hash functions.
    package init(seed: UInt64 = 0) {
        state = seed ^ Self.p0
    }

    @inline(__always)
    package static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// Mixes one 64-bit word into a well-spread 64-bit value (a finalizer).
    @inline(__always)
    package static func scramble(_ x: UInt64, seed: UInt64 = 0) -> UInt64 {
        mix(x ^ seed ^ p0, p1 ^ (seed &+ p2))
    }

    /// Feeds a 64-bit word.
    @inline(__always)
    package mutating func combine(_ word: UInt64) {
        state = Self.mix(state ^ word, Self.p1)
        length &+= 8
    }

    /// Feeds bytes, 8 at a time, then the tail with its length.
    package mutating func combine(bytes: UnsafeRawBufferPointer) {
        Self.forEachWord(of: bytes) { combine($0) }
    }

    /// Feeds the same bytes to two hashers in one pass: the same as `a.combine(bytes:)` then
    /// `b.combine(bytes:)`, with the two multiply chains interleaved.
    package static func combine(bytes: UnsafeRawBufferPointer, into a: inout StableHasher, _ b: inout StableHasher) {
        forEachWord(of: bytes) { word in
            a.combine(word)
            b.combine(word)
        }
    }

    /// The words `combine(bytes:)` feeds: the bytes 8 at a time (little-endian), then the tail
    /// with its length in the top byte.
    @inline(__always)
    private static func forEachWord(of bytes: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) {
        var i = 0
        let count = bytes.count
        while i + 8 <= count {
            body(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        var tail: UInt64 = UInt64(count - i) << 56
        var shift: UInt64 = 0
        while i < count {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
        }
        body(tail)
    }

    /// Feeds the UTF-8 of a string, with its length (so `"ab","c"` differs from `"a","bc"`).
    package mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Feeds bytes from an array.
    package mutating func combine(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { combine(bytes: $0) }
    }

    /// The hash of everything fed.
    package func finalize() -> UInt64 {
        Self.mix(state ^ length, Self.p2)
    }

    /// The hash of one string.
    package static func hash(_ text: String, seed: UInt64 = 0) -> UInt64 {
        var hasher = StableHasher(seed: seed)
        hasher.combine(text)
        return hasher.finalize()
    }

    /// The hash of some bytes.
    package static func hash(_ bytes: some Collection<UInt8>, seed: UInt64 = 0) -> UInt64 {
        var hasher = StableHasher(seed: seed)
        if let result = bytes.withContiguousStorageIfAvailable({ buffer -> UInt64 in
            hasher.combine(bytes: UnsafeRawBufferPointer(buffer))
            return hasher.finalize()
        }) {
            return result
        }
        hasher.combine(Array(bytes))
        return hasher.finalize()
    }
}

/// A 128-bit content key that orders records the same way in every run, whatever the input order.
package struct StableKey: Sendable, Hashable, Comparable {
    package var high: UInt64
    package var low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    package static func < (a: StableKey, b: StableKey) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    /// 32 hex digits.
    package var hex: String {
        func pad(_ x: UInt64) -> String {
            let s = String(x, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return pad(high) + pad(low)
    }
}
