/// Numbers the distinct ingredient tokens (32-bit word hashes) 0, 1, 2, … in order of first
/// appearance, so that a record's tokens fit in 16 bits each while there are few enough.
///
/// An open-addressing table keyed by the token itself (already a hash), with a fixed capacity
/// of at least twice `limit`: a lookup is a few instructions, where a `Dictionary` would hash
/// the hash again.
struct TokenVocabulary {
    /// The token of each number.
    private(set) var tokens: [UInt32] = []
    private var slotTokens: [UInt32]
    /// The number in each slot plus one; 0 for an empty slot.
    private var slotNumbers: [UInt32]
    private let mask: Int
    /// The most tokens it numbers.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
        var capacity = 16
        while capacity < 2 * limit { capacity <<= 1 }
        slotTokens = [UInt32](repeating: 0, count: capacity)
        slotNumbers = [UInt32](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    /// The number of `token`, numbering it when it is new; `nil` when it is new and ``limit``
    /// tokens are numbered already.
    @inline(__always)
    mutating func number(_ token: UInt32) -> Int? {
        var slot = Int(StableHasher.scramble(UInt64(token)) & UInt64(mask))
        while slotNumbers[slot] != 0 {
            if slotTokens[slot] == token { return Int(slotNumbers[slot]) - 1 }
            slot = (slot + 1) & mask
        }
        guard tokens.count < limit else { return nil }
        slotTokens[slot] = token
        slotNumbers[slot] = UInt32(tokens.count + 1)
        tokens.append(token)
        return tokens.count - 1
    }
}
