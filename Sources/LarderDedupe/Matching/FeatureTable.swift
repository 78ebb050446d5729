import LarderCore

/// Where a record came from and how to find it again: the compact identity kept for every
/// record through the pass (the record itself waits in a ``SpillFile``).
package struct RecordIdentity: Sendable, Hashable {
    /// The record's id.
    package var id: String
    /// The hash of its CloudKit record name (explicit, else `recipe-<id>`).
    package var recordNameHash: UInt64
    /// The content key that orders records independently of input order.
    package var key: StableKey
    /// `updatedAt` in milliseconds since 1970.
    package var updatedAt: Int64
    /// In the created set (by input or by flag).
    package var isCreated: Bool
    /// In the saved set (by input or by flag).
    package var isSaved: Bool
    /// A tombstone.
    package var isDeleted: Bool
    /// Which input it came from (index into the pass's inputs).
    package var input: Int
    /// Its 0-based record index in that input.
    package var inputIndex: Int
    /// Where its bytes are in that input's spill file.
    package var spillOffset: UInt64
    /// How many bytes it takes there.
    package var spillLength: UInt32
}

/// The matching state of every record, stored column by column in flat arrays so that a
/// million records cost a few hundred bytes each and no per-record heap objects.
///
/// Records are numbered 0..<count in input order (first input first). Titles, ids and
/// ingredient tokens live in shared arenas indexed by start offsets.
package struct FeatureTable: Sendable {
    package private(set) var count = 0

    private var titleBytes: [UInt8] = []
    private var titleStart: [Int] = [0]
    private var tokenArena: [UInt32] = []
    private var tokenStart: [Int] = [0]
    private var idBytes: [UInt8] = []
    private var idStart: [Int] = [0]
    package private(set) var ingredientCount: [UInt16] = []
    package private(set) var fingerprint: [UInt64] = []
    package private(set) var sourceURL: [UInt64] = []
    package private(set) var prepTime: [Int32] = []
    package private(set) var cookTime: [Int32] = []
    package private(set) var servings: [Int32] = []
    package private(set) var idHash: [UInt64] = []
    package private(set) var recordNameHash: [UInt64] = []
    package private(set) var key: [StableKey] = []
    package private(set) var updatedAt: [Int64] = []
    private var flags: [UInt8] = []
    package private(set) var input: [UInt8] = []
    package private(set) var inputIndex: [UInt32] = []
    package private(set) var spillOffset: [UInt64] = []
    package private(set) var spillLength: [UInt32] = []

    private static let createdFlag: UInt8 = 1
    private static let savedFlag: UInt8 = 2
    private static let deletedFlag: UInt8 = 4

    package init() {}

    /// Appends one record.
    package mutating func append(_ features: RecordFeatures, _ identity: RecordIdentity) {
        titleBytes.append(contentsOf: features.titleKey)
        titleStart.append(titleBytes.count)
        tokenArena.append(contentsOf: features.ingredientTokens)
        tokenStart.append(tokenArena.count)
        var id = identity.id
        id.withUTF8 { idBytes.append(contentsOf: $0) }
        idStart.append(idBytes.count)
        ingredientCount.append(UInt16(clamping: features.ingredientCount))
        fingerprint.append(features.fingerprint)
        sourceURL.append(features.sourceURL)
        prepTime.append(features.prepTime)
        cookTime.append(features.cookTime)
        servings.append(features.servings)
        idHash.append(StableHasher.hash(identity.id, seed: 0x6964))
        recordNameHash.append(identity.recordNameHash)
        key.append(identity.key)
        updatedAt.append(identity.updatedAt)
        flags.append(
            (identity.isCreated ? Self.createdFlag : 0) | (identity.isSaved ? Self.savedFlag : 0)
                | (identity.isDeleted ? Self.deletedFlag : 0))
        input.append(UInt8(clamping: identity.input))
        inputIndex.append(UInt32(clamping: identity.inputIndex))
        spillOffset.append(identity.spillOffset)
        spillLength.append(identity.spillLength)
        count += 1
    }

    /// Moves every record of `other` after this table's, leaving `other` empty.
    ///
    /// Column by column: each is grown to exactly the combined size, filled, and `other`'s copy
    /// released before the next column, so the move never holds both tables whole (a million
    /// recipes: peak 464 MiB when both stayed alive until the end, the table alone being 249).
    package mutating func absorb(_ other: inout FeatureTable) {
        func move<T>(_ into: inout [T], _ from: inout [T]) {
            into.reserveCapacity(into.count + from.count)
            into.append(contentsOf: from)
            from = []
        }
        func moveStarts(_ into: inout [Int], _ from: inout [Int], base: Int) {
            into.reserveCapacity(into.count + from.count - 1)
            into.append(contentsOf: from.dropFirst().lazy.map { $0 + base })
            from = []
        }
        let titleBase = titleBytes.count
        move(&titleBytes, &other.titleBytes)
        moveStarts(&titleStart, &other.titleStart, base: titleBase)
        let tokenBase = tokenArena.count
        move(&tokenArena, &other.tokenArena)
        moveStarts(&tokenStart, &other.tokenStart, base: tokenBase)
        let idBase = idBytes.count
        move(&idBytes, &other.idBytes)
        moveStarts(&idStart, &other.idStart, base: idBase)
        move(&ingredientCount, &other.ingredientCount)
        move(&fingerprint, &other.fingerprint)
        move(&sourceURL, &other.sourceURL)
        move(&prepTime, &other.prepTime)
        move(&cookTime, &other.cookTime)
        move(&servings, &other.servings)
        move(&idHash, &other.idHash)
        move(&recordNameHash, &other.recordNameHash)
        move(&key, &other.key)
        move(&updatedAt, &other.updatedAt)
        move(&flags, &other.flags)
        move(&input, &other.input)
        move(&inputIndex, &other.inputIndex)
        move(&spillOffset, &other.spillOffset)
        move(&spillLength, &other.spillLength)
        count += other.count
        other = FeatureTable()
    }

    /// The normalized title key of record `i`.
    @inline(__always)
    package func withTitle<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        titleBytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[titleStart[i]..<titleStart[i + 1]]))
        }
    }

    /// The normalized title key of record `i` as text.
    package func title(_ i: Int) -> String {
        String(decoding: titleBytes[titleStart[i]..<titleStart[i + 1]], as: UTF8.self)
    }

    /// The ingredient tokens of record `i` (sorted, unique).
    @inline(__always)
    package func withTokens<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt32>) -> R) -> R {
        tokenArena.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[tokenStart[i]..<tokenStart[i + 1]]))
        }
    }

    /// The number of ingredient tokens of record `i`.
    package func tokenCount(_ i: Int) -> Int { tokenStart[i + 1] - tokenStart[i] }

    /// The id of record `i`.
    package func id(_ i: Int) -> String {
        String(decoding: idBytes[idStart[i]..<idStart[i + 1]], as: UTF8.self)
    }

    /// Whether records `i` and `j` have the same id (compared byte for byte).
    package func hasSameID(_ i: Int, _ j: Int) -> Bool {
        idHash[i] == idHash[j] && idBytes[idStart[i]..<idStart[i + 1]] == idBytes[idStart[j]..<idStart[j + 1]]
    }

    /// Orders records by id bytes, then by content key: the output order.
    package func idPrecedes(_ i: Int, _ j: Int) -> Bool {
        idBytes.withUnsafeBufferPointer { bytes in
            let a = UnsafeBufferPointer(rebasing: bytes[idStart[i]..<idStart[i + 1]])
            let b = UnsafeBufferPointer(rebasing: bytes[idStart[j]..<idStart[j + 1]])
            let common = min(a.count, b.count)
            for k in 0..<common where a[k] != b[k] { return a[k] < b[k] }
            if a.count != b.count { return a.count < b.count }
            return key[i] < key[j]
        }
    }

    /// The first eight bytes of record `i`'s id as a big-endian integer (zero-padded), which
    /// orders like the id bytes themselves.
    package func idPrefix(_ i: Int) -> UInt64 {
        var prefix: UInt64 = 0
        let start = idStart[i]
        let end = idStart[i + 1]
        for k in 0..<8 {
            prefix = prefix << 8 | UInt64(start + k < end ? idBytes[start + k] : 0)
        }
        return prefix
    }

    /// In the created set.
    package func isCreated(_ i: Int) -> Bool { flags[i] & Self.createdFlag != 0 }
    /// In the saved set.
    package func isSaved(_ i: Int) -> Bool { flags[i] & Self.savedFlag != 0 }
    /// A tombstone.
    package func isDeleted(_ i: Int) -> Bool { flags[i] & Self.deletedFlag != 0 }

    /// Survivor precedence: created first, then the newest `updatedAt`, then the smaller content key.
    package func precedes(_ i: Int, _ j: Int) -> Bool {
        if isCreated(i) != isCreated(j) { return isCreated(i) }
        if updatedAt[i] != updatedAt[j] { return updatedAt[i] > updatedAt[j] }
        if key[i] != key[j] { return key[i] < key[j] }
        return input[i] != input[j] ? input[i] < input[j] : inputIndex[i] < inputIndex[j]
    }

    /// Approximate bytes held, for reporting.
    package var byteCount: Int {
        titleBytes.capacity + tokenArena.capacity * 4 + idBytes.capacity
            + (titleStart.capacity + tokenStart.capacity + idStart.capacity) * 8
            + count * (2 + 8 * 4 + 4 * 3 + 16 + 8 + 1 + 1 + 4 + 8 + 4)
    }
}
