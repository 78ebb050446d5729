/// A small, fast, seedable random generator (SplitMix64): the same seed gives the same
/// sequence on every machine, which makes generated test sets reproducible.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range`.
    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `p`.
    package mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }

    /// A uniform element.
    package mutating func pick<T>(_ items: [T]) -> T {
        items[Int(next() % UInt64(items.count))]
    }

    /// The elements in random order.
    package mutating func shuffled<T>(_ items: [T]) -> [T] {
        var result = items
        if result.count < 2 { return result }
        for i in stride(from: result.count - 1, to: 0, by: -1) {
            let j = Int(next() % UInt64(i + 1))
            result.swapAt(i, j)
        }
        return result
    }

    /// A UUID-formatted id.
    package mutating func uuid() -> String {
        let hex = Array("0123456789ABCDEF")
        var chars: [Character] = []
        chars.reserveCapacity(36)
        var bits = next()
        var more = next()
        for i in 0..<32 {
            if i == 8 || i == 12 || i == 16 || i == 20 { chars.append("-") }
            if i == 16 { bits = more; more = 0 }
            chars.append(hex[Int(bits & 0xF)])
            bits >>= 4
        }
        return String(chars)
    }
}
