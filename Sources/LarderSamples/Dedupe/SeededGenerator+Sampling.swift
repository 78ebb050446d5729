package import LarderCore

package typealias SeededRandom = SeededGenerator

/// Conveniences for the test-set generator on top of LarderCore's seeded SplitMix64 generator.
extension SeededGenerator {
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
        let digits: StaticString = "0123456789ABCDEF"
        let bits = (next(), next())
        return String(unsafeUninitializedCapacity: 36) { buffer in
            digits.withUTF8Buffer { hex in
                var n = 0
                for i in 0..<32 {
                    if i == 8 || i == 12 || i == 16 || i == 20 {
                        buffer[n] = UInt8(ascii: "-")
                        n += 1
                    }
                    let word = i < 16 ? bits.0 : bits.1
                    buffer[n] = hex[Int((word >> (UInt64(i % 16) * 4)) & 0xF)]
                    n += 1
                }
            }
            return 36
        }
    }
}
