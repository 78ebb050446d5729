/// A record id in 16 bytes when it is a canonical UUID string, which ids almost always are.
///
/// A canonical UUID string is 36 bytes: hex digits grouped 8-4-4-4-12 by hyphens. Its 128 bits
/// and the case of its letters give the string back exactly, so the feature table keeps those
/// instead of the text (20 bytes less per record). Ids of any other form, and UUIDs that mix
/// upper- and lowercase letters, are kept as text.
struct PackedID: Hashable {
    /// The first 64 bits (the first 16 hex digits).
    var high: UInt64
    /// The last 64 bits.
    var low: UInt64
    /// Whether the letters are uppercase (an id of digits only counts as lowercase).
    var isUppercase: Bool

    /// The length of a canonical UUID string.
    static let textCount = 36

    init(high: UInt64, low: UInt64, isUppercase: Bool) {
        self.high = high
        self.low = low
        self.isUppercase = isUppercase
    }

    /// The packed form of `text`, or `nil` when it is not a canonical UUID string in one case.
    init?(_ text: UnsafeBufferPointer<UInt8>) {
        guard text.count == Self.textCount else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        var digits = 0
        var hasLower = false
        var hasUpper = false
        for (k, byte) in text.enumerated() {
            if k == 8 || k == 13 || k == 18 || k == 23 {
                guard byte == 0x2D else { return nil }
                continue
            }
            let nibble: UInt8
            switch byte {
            case 0x30...0x39: nibble = byte - 0x30
            case 0x61...0x66:
                nibble = byte - 0x61 + 10
                hasLower = true
            case 0x41...0x46:
                nibble = byte - 0x41 + 10
                hasUpper = true
            default: return nil
            }
            if digits < 16 {
                words.0 = words.0 << 4 | UInt64(nibble)
            } else {
                words.1 = words.1 << 4 | UInt64(nibble)
            }
            digits += 1
        }
        guard !(hasLower && hasUpper) else { return nil }
        high = words.0
        low = words.1
        isUppercase = hasUpper
    }

    /// Writes the 36 bytes of the UUID string into `out`, which holds at least ``textCount``.
    func write(into out: UnsafeMutableBufferPointer<UInt8>) {
        let letterBase: UInt8 = isUppercase ? 0x41 - 10 : 0x61 - 10
        var position = 0
        for digit in 0..<32 {
            if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                out[position] = 0x2D
                position += 1
            }
            let word = digit < 16 ? high : low
            let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (digit % 16))) & 0xF
            out[position] = nibble < 10 ? 0x30 + nibble : letterBase + nibble
            position += 1
        }
    }
}
