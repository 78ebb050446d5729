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
/// million records cost about 175 bytes each and no per-record heap objects.
///
/// Records are numbered 0..<count in input order (first input first). Titles and ingredient
/// tokens live in shared arenas indexed by 32-bit start offsets. Ingredient tokens are stored
/// as 16-bit numbers into a ``TokenVocabulary`` while there are at most 65,536 distinct ones,
/// and as the 32-bit token hashes themselves beyond that. Ids are 16 bytes each when they are
/// canonical UUID strings (``PackedID``), which they almost always are; other ids are kept as
/// text in an arena of their own.
package struct FeatureTable: Sendable {
    package private(set) var count = 0

    private var titleBytes: [UInt8] = []
    private var titleStart: [UInt32] = [0]
    /// Each record's token numbers (sorted) while the vocabulary is narrow.
    private var narrowTokens: [UInt16] = []
    /// Each record's token hashes (sorted) once the vocabulary outgrew 16 bits.
    private var wideTokens: [UInt32] = []
    private var isWide = false
    private var vocabulary: TokenVocabulary
    private var tokenStart: [UInt32] = [0]
    /// A packed UUID's first 64 bits, or where an other id's text starts in `otherIDBytes`.
    private var idHigh: [UInt64] = []
    /// A packed UUID's last 64 bits, or the length of an other id's text.
    private var idLow: [UInt64] = []
    private var otherIDBytes: [UInt8] = []
    package private(set) var fingerprint: [UInt64] = []
    package private(set) var sourceURL: [UInt64] = []
    package private(set) var prepTime: [Int32] = []
    package private(set) var cookTime: [Int32] = []
    package private(set) var servings: [Int32] = []
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
    private static let hasIngredientsFlag: UInt8 = 8
    /// The id is a packed UUID (else its text is in `otherIDBytes`).
    private static let packedIDFlag: UInt8 = 16
    /// The packed UUID's letters are uppercase.
    private static let uppercaseIDFlag: UInt8 = 32
    private static let idKindMask = packedIDFlag | uppercaseIDFlag

    /// The seed of the id hash that groups records with the same id.
    private static let idHashSeed: UInt64 = 0x6964

    /// An empty table; `narrowTokenLimit` is how many distinct tokens 16-bit numbers cover
    /// (lower in tests, to exercise the widening).
    package init(narrowTokenLimit: Int = 1 << 16) {
        vocabulary = TokenVocabulary(limit: min(narrowTokenLimit, 1 << 16))
    }

    /// Appends one record.
    /// - Throws: ``LarderError`` `usage-error` when the title keys or ingredient tokens of one pass
    ///   outgrow the table's 32-bit offsets (4 GiB of title text, 4 Gi tokens).
    package mutating func append(_ features: RecordFeatures, _ identity: RecordIdentity) throws {
        titleBytes.append(contentsOf: features.titleKey)
        titleStart.append(try Self.offset(titleBytes.count, of: "title"))
        appendTokens(features.ingredientTokens)
        tokenStart.append(try Self.offset(isWide ? wideTokens.count : narrowTokens.count, of: "ingredient"))
        var id = identity.id
        let packed = id.withUTF8 { PackedID($0) }
        var idFlags: UInt8 = 0
        if let packed {
            idHigh.append(packed.high)
            idLow.append(packed.low)
            idFlags = Self.packedIDFlag | (packed.isUppercase ? Self.uppercaseIDFlag : 0)
        } else {
            idHigh.append(UInt64(otherIDBytes.count))
            id.withUTF8 { otherIDBytes.append(contentsOf: $0) }
            idLow.append(UInt64(otherIDBytes.count) - idHigh[idHigh.count - 1])
        }
        fingerprint.append(features.fingerprint)
        sourceURL.append(features.sourceURL)
        prepTime.append(features.prepTime)
        cookTime.append(features.cookTime)
        servings.append(features.servings)
        recordNameHash.append(identity.recordNameHash)
        key.append(identity.key)
        updatedAt.append(identity.updatedAt)
        flags.append(
            (identity.isCreated ? Self.createdFlag : 0) | (identity.isSaved ? Self.savedFlag : 0)
                | (identity.isDeleted ? Self.deletedFlag : 0)
                | (features.ingredientCount > 0 ? Self.hasIngredientsFlag : 0) | idFlags)
        input.append(UInt8(clamping: identity.input))
        inputIndex.append(UInt32(clamping: identity.inputIndex))
        spillOffset.append(identity.spillOffset)
        spillLength.append(identity.spillLength)
        count += 1
    }

    /// Appends one record's tokens (sorted hashes): as sorted numbers while they fit, widening
    /// the table when a new token does not.
    private mutating func appendTokens(_ tokens: [UInt32]) {
        if !isWide {
            let start = narrowTokens.count
            for token in tokens {
                guard let number = vocabulary.number(token) else {
                    narrowTokens.removeSubrange(start...)
                    widen()
                    break
                }
                narrowTokens.append(UInt16(truncatingIfNeeded: number))
            }
            if !isWide {
                narrowTokens[start...].sort()
                return
            }
        }
        wideTokens.append(contentsOf: tokens)
    }

    /// Stores tokens as their hashes from now on: every record's numbers become hashes (sorted).
    private mutating func widen() {
        guard !isWide else { return }
        wideTokens.reserveCapacity(narrowTokens.count)
        for i in 0..<count {
            let start = wideTokens.count
            for k in Int(tokenStart[i])..<Int(tokenStart[i + 1]) {
                wideTokens.append(vocabulary.tokens[Int(narrowTokens[k])])
            }
            wideTokens[start...].sort()
        }
        narrowTokens = []
        vocabulary = TokenVocabulary(limit: 0)
        isWide = true
    }

    /// Renumbers `other`'s tokens into this table's vocabulary (widening both when they do not fit).
    private mutating func adoptVocabulary(of other: inout FeatureTable) {
        if !isWide && !other.isWide {
            var numbers: [UInt16] = []
            numbers.reserveCapacity(other.vocabulary.tokens.count)
            for token in other.vocabulary.tokens {
                guard let number = vocabulary.number(token) else { break }
                numbers.append(UInt16(truncatingIfNeeded: number))
            }
            if numbers.count == other.vocabulary.tokens.count {
                for i in 0..<other.count {
                    let range = Int(other.tokenStart[i])..<Int(other.tokenStart[i + 1])
                    for k in range { other.narrowTokens[k] = numbers[Int(other.narrowTokens[k])] }
                    other.narrowTokens[range].sort()
                }
                return
            }
        }
        widen()
        other.widen()
    }

    private static func offset(_ count: Int, of arena: String) throws -> UInt32 {
        guard let offset = UInt32(exactly: count) else {
            throw LarderError(
                .usage, "too many \(arena) words for one dedupe pass (over 4 Gi); dedupe the inputs in parts")
        }
        return offset
    }

    /// Moves every record of `other` after this table's, leaving `other` empty.
    ///
    /// Column by column: each is grown to exactly the combined size, filled, and `other`'s copy
    /// released before the next column, so the move never holds both tables whole (a million
    /// recipes: peak 464 MiB when both stayed alive until the end, the table alone being 249).
    /// - Throws: ``LarderError`` `usage-error` when the combined arenas outgrow 32-bit offsets.
    package mutating func absorb(_ other: inout FeatureTable) throws {
        func move<T>(_ into: inout [T], _ from: inout [T]) {
            into.reserveCapacity(into.count + from.count)
            into.append(contentsOf: from)
            from = []
        }
        func moveStarts(_ into: inout [UInt32], _ from: inout [UInt32], base: UInt32) {
            into.reserveCapacity(into.count + from.count - 1)
            into.append(contentsOf: from.dropFirst().lazy.map { $0 + base })
            from = []
        }
        let titleBase = try Self.offset(titleBytes.count, of: "title")
        _ = try Self.offset(titleBytes.count + other.titleBytes.count, of: "title")
        adoptVocabulary(of: &other)
        let tokenCount = isWide ? wideTokens.count : narrowTokens.count
        let tokenBase = try Self.offset(tokenCount, of: "ingredient")
        _ = try Self.offset(
            tokenCount + (other.isWide ? other.wideTokens.count : other.narrowTokens.count), of: "ingredient")
        move(&titleBytes, &other.titleBytes)
        moveStarts(&titleStart, &other.titleStart, base: titleBase)
        move(&narrowTokens, &other.narrowTokens)
        move(&wideTokens, &other.wideTokens)
        moveStarts(&tokenStart, &other.tokenStart, base: tokenBase)
        let idBase = UInt64(otherIDBytes.count)
        for i in 0..<other.count where other.flags[i] & Self.packedIDFlag == 0 { other.idHigh[i] += idBase }
        move(&idHigh, &other.idHigh)
        move(&idLow, &other.idLow)
        move(&otherIDBytes, &other.otherIDBytes)
        move(&fingerprint, &other.fingerprint)
        move(&sourceURL, &other.sourceURL)
        move(&prepTime, &other.prepTime)
        move(&cookTime, &other.cookTime)
        move(&servings, &other.servings)
        move(&recordNameHash, &other.recordNameHash)
        move(&key, &other.key)
        move(&updatedAt, &other.updatedAt)
        move(&flags, &other.flags)
        move(&input, &other.input)
        move(&inputIndex, &other.inputIndex)
        move(&spillOffset, &other.spillOffset)
        move(&spillLength, &other.spillLength)
        count += other.count
        other = FeatureTable(narrowTokenLimit: 0)
    }

    /// The normalized title key of record `i`.
    @inline(__always)
    package func withTitle<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        titleBytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[Int(titleStart[i])..<Int(titleStart[i + 1])]))
        }
    }

    /// The normalized title key of record `i` as text.
    package func title(_ i: Int) -> String {
        String(decoding: titleBytes[Int(titleStart[i])..<Int(titleStart[i + 1])], as: UTF8.self)
    }

    /// The Dice overlap of the ingredient tokens of records `a` and `b`.
    @inline(__always)
    package func tokenOverlap(_ a: Int, _ b: Int) -> Double {
        let (x, y) = (Int(tokenStart[a])..<Int(tokenStart[a + 1]), Int(tokenStart[b])..<Int(tokenStart[b + 1]))
        if isWide {
            return wideTokens.withUnsafeBufferPointer {
                PairScorer.dice(UnsafeBufferPointer(rebasing: $0[x]), UnsafeBufferPointer(rebasing: $0[y]))
            }
        }
        return narrowTokens.withUnsafeBufferPointer {
            PairScorer.dice(UnsafeBufferPointer(rebasing: $0[x]), UnsafeBufferPointer(rebasing: $0[y]))
        }
    }

    /// The smallest `StableHasher.scramble(token, seed:)` over record `i`'s token hashes
    /// (`UInt64.max` when it has none): a MinHash value.
    @inline(__always)
    package func minScrambledToken(_ i: Int, seed: UInt64) -> UInt64 {
        var minimum = UInt64.max
        let range = Int(tokenStart[i])..<Int(tokenStart[i + 1])
        if isWide {
            for k in range { minimum = min(minimum, StableHasher.scramble(UInt64(wideTokens[k]), seed: seed)) }
        } else {
            vocabulary.tokens.withUnsafeBufferPointer { tokens in
                for k in range {
                    minimum = min(minimum, StableHasher.scramble(UInt64(tokens[Int(narrowTokens[k])]), seed: seed))
                }
            }
        }
        return minimum
    }

    /// Record `i`'s token hashes, sorted (for tests and explanations).
    package func tokens(_ i: Int) -> [UInt32] {
        let range = Int(tokenStart[i])..<Int(tokenStart[i + 1])
        if isWide { return Array(wideTokens[range]) }
        return range.map { vocabulary.tokens[Int(narrowTokens[$0])] }.sorted()
    }

    /// The number of ingredient tokens of record `i`.
    package func tokenCount(_ i: Int) -> Int { Int(tokenStart[i + 1] - tokenStart[i]) }

    /// Whether record `i` has ingredient lines.
    package func hasIngredients(_ i: Int) -> Bool { flags[i] & Self.hasIngredientsFlag != 0 }

    /// The UTF-8 bytes of record `i`'s id.
    package func withID<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if flags[i] & Self.packedIDFlag != 0 {
            let packed = PackedID(
                high: idHigh[i], low: idLow[i], isUppercase: flags[i] & Self.uppercaseIDFlag != 0)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: PackedID.textCount) { text in
                packed.write(into: text)
                return body(UnsafeBufferPointer(text))
            }
        }
        let start = Int(idHigh[i])
        return otherIDBytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[start..<(start + Int(idLow[i]))]))
        }
    }

    /// The id of record `i`.
    package func id(_ i: Int) -> String {
        withID(i) { String(decoding: $0, as: UTF8.self) }
    }

    /// The hash of record `i`'s id, which groups records with the same id.
    package func idHash(_ i: Int) -> UInt64 {
        withID(i) { StableHasher.hash($0, seed: Self.idHashSeed) }
    }

    /// Whether records `i` and `j` have the same id (compared byte for byte).
    package func hasSameID(_ i: Int, _ j: Int) -> Bool {
        let kind = flags[i] & Self.idKindMask
        guard kind == flags[j] & Self.idKindMask, idLow[i] == idLow[j] else { return false }
        // A packed id's text is a function of its bits and case; other ids compare as text.
        if kind & Self.packedIDFlag != 0 { return idHigh[i] == idHigh[j] }
        let a = Int(idHigh[i])
        let b = Int(idHigh[j])
        let n = Int(idLow[i])
        return otherIDBytes[a..<(a + n)] == otherIDBytes[b..<(b + n)]
    }

    /// Orders records by id bytes, then by content key: the output order.
    package func idPrecedes(_ i: Int, _ j: Int) -> Bool {
        let order = withID(i) { a in
            withID(j) { b -> Bool? in
                let common = min(a.count, b.count)
                for k in 0..<common where a[k] != b[k] { return a[k] < b[k] }
                return a.count != b.count ? a.count < b.count : nil
            }
        }
        return order ?? (key[i] < key[j])
    }

    /// The first eight bytes of record `i`'s id as a big-endian integer (zero-padded), which
    /// orders like the id bytes themselves.
    package func idPrefix(_ i: Int) -> UInt64 {
        withID(i) { id in
            var prefix: UInt64 = 0
            for k in 0..<8 { prefix = prefix << 8 | UInt64(k < id.count ? id[k] : 0) }
            return prefix
        }
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
        titleBytes.capacity + narrowTokens.capacity * 2 + wideTokens.capacity * 4 + otherIDBytes.capacity
            + (titleStart.capacity + tokenStart.capacity) * 4
            + count * (8 * 2 + 8 * 2 + 4 * 3 + 8 + 16 + 8 + 1 + 1 + 4 + 8 + 4)
    }
}
