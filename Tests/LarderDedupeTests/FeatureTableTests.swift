import LarderCore
import Testing

@testable import LarderDedupe

@Suite struct FeatureTableTests {
    static let ids = [
        "5f2c1a9e-0b3d-4e6f-8a7b-9c0d1e2f3a4b",  // lowercase UUID: packed
        "5F2C1A9E-0B3D-4E6F-8A7B-9C0D1E2F3A4B",  // the same in uppercase: packed, another id
        "12345678-1234-1234-1234-123456789012",  // digits only: packed
        "5f2c1a9e-0b3d-4e6f-8a7b-9C0D1E2F3A4B",  // mixed case: kept as text
        "5f2c1a9e-0b3d-4e6f-8a7b-9c0d1e2f3a4",  // one digit short: text
        "5f2c1a9e00b3d-4e6f-8a7b-9c0d1e2f3a4b",  // a digit where a hyphen goes: text
        "5f2c1a9g-0b3d-4e6f-8a7b-9c0d1e2f3a4b",  // not hex: text
        "r1", "x", "rezept-ü-1",
    ]

    func makeTable(_ ids: [String]) throws -> FeatureTable {
        var table = FeatureTable()
        for (n, id) in ids.enumerated() {
            let recipe = try Recipe(value: DedupeHarness.recipe(id: id, title: "Soup", ingredients: ["leek"]))
            try table.append(RecordFeatures(recipe: recipe), .make(id: id, key: UInt64(n)))
        }
        return table
    }

    @Test("ids come back exactly, case included, whether packed as UUIDs or kept as text")
    func idsRoundTrip() throws {
        let table = try makeTable(Self.ids + Self.ids)
        for (i, id) in (Self.ids + Self.ids).enumerated() {
            #expect(table.id(i) == id)
            #expect(table.idHash(i) == StableHasher.hash(id, seed: 0x6964))
        }
        let packed = Self.ids.map { id in Array(id.utf8).withUnsafeBufferPointer { PackedID($0) != nil } }
        #expect(packed == [true, true, true] + Array(repeating: false, count: Self.ids.count - 3))
    }

    @Test("two records have the same id exactly when the id strings are equal, and order by id bytes")
    func sameIDAndOrder() throws {
        // Every id once in each half (after absorbing a second table), so ids in both halves meet.
        var table = try makeTable(Self.ids)
        var other = try makeTable(Self.ids.reversed())
        try table.absorb(&other)
        let all = Self.ids + Self.ids.reversed()
        for i in all.indices {
            #expect(table.id(i) == all[i])
            for j in all.indices {
                #expect(table.hasSameID(i, j) == (all[i] == all[j]), "\(all[i]) vs \(all[j])")
                if all[i] != all[j] {
                    #expect(table.idPrecedes(i, j) == Array(all[i].utf8).lexicographicallyPrecedes(all[j].utf8))
                }
            }
            var prefix: UInt64 = 0
            let bytes = Array(all[i].utf8)
            for k in 0..<8 { prefix = prefix << 8 | UInt64(k < bytes.count ? bytes[k] : 0) }
            #expect(table.idPrefix(i) == prefix)
        }
    }

    @Test("in-place keyed sort groups equal keys and orders keys, records kept with their keys")
    func keyedSort() {
        var state: UInt64 = 42
        for n in [0, 1, 2, 17, 1000, 5000] {
            var keys = (0..<n).map { _ -> UInt64 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return (state >> 33) % UInt64(max(n / 3, 1))
            }
            var records = (0..<UInt32(n)).map { $0 }
            let expected = Dictionary(uniqueKeysWithValues: zip(records, keys))
            keys.withUnsafeMutableBufferPointer { k in
                records.withUnsafeMutableBufferPointer { r in KeyedSort.sort(keys: k, records: r) }
            }
            #expect(keys == keys.sorted())
            #expect(Set(records).count == n)
            #expect(zip(records, keys).allSatisfy { expected[$0.0] == $0.1 })
        }
    }

    /// Records with overlapping ingredient lists drawn from 40 words.
    static func tokenRecords(_ range: Range<Int>) throws -> [(RecordFeatures, RecordIdentity)] {
        let words = (0..<40).map { "word\(String(UnicodeScalar(UInt8(97 + $0 % 26))))\($0 / 26 == 0 ? "" : "x")" }
        return try range.map { n in
            let ingredients = (0..<(3 + n % 5)).map { words[(n * 7 + $0 * 3) % words.count] }
            let recipe = try Recipe(
                value: DedupeHarness.recipe(id: "r\(n)", title: "Dish \(n)", ingredients: ingredients))
            return (RecordFeatures(recipe: recipe), .make(id: "r\(n)", key: UInt64(n)))
        }
    }

    @Test(
        "token numbers give the same overlaps and MinHash values as the token hashes, before and after widening",
        arguments: [1 << 16, 12, 30])
    func tokenNumbersMatchHashes(limit: Int) throws {
        let records = try Self.tokenRecords(0..<60)
        var wide = FeatureTable(narrowTokenLimit: 0)
        var first = FeatureTable(narrowTokenLimit: limit)
        var second = FeatureTable(narrowTokenLimit: limit)
        for (n, record) in records.enumerated() {
            try wide.append(record.0, record.1)
            if n < 30 { try first.append(record.0, record.1) } else { try second.append(record.0, record.1) }
        }
        try first.absorb(&second)
        #expect(first.count == records.count)
        for i in records.indices {
            #expect(first.tokens(i) == records[i].0.ingredientTokens)
            #expect(wide.tokens(i) == records[i].0.ingredientTokens)
            for seed: UInt64 in [0, 0x5EC0] {
                let expected = records[i].0.ingredientTokens.map { StableHasher.scramble(UInt64($0), seed: seed) }.min()
                #expect(first.minScrambledToken(i, seed: seed) == expected ?? .max)
            }
            for j in records.indices {
                let expected = records[i].0.ingredientTokens.withUnsafeBufferPointer { x in
                    records[j].0.ingredientTokens.withUnsafeBufferPointer { y in PairScorer.dice(x, y) }
                }
                #expect(first.tokenOverlap(i, j) == expected)
                #expect(wide.tokenOverlap(i, j) == expected)
            }
        }
    }
}
