import LarderCore
import Testing

/// `Fields` keeps a key table from ``Fields/indexedCount`` members: every operation must answer as
/// the linear scan does (first member of a name wins, order kept), and copies never share a write.
@Suite struct FieldsIndexTests {
    /// The reference: the same operations on a plain list of pairs, scanned.
    struct Reference {
        var pairs: [(String, Value)] = []
        subscript(key: String) -> Value? {
            get { pairs.first { $0.0 == key }?.1 }
            set {
                if let index = pairs.firstIndex(where: { $0.0 == key }) {
                    if let newValue { pairs[index].1 = newValue } else { pairs.remove(at: index) }
                } else if let newValue {
                    pairs.append((key, newValue))
                }
            }
        }
    }

    @Test("seeded operations across the indexed size answer as a scan does")
    func seededOperations() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<40 {
            var fields = Fields()
            var reference = Reference()
            var copies: [(Fields, [(String, Value)])] = []
            for step in 0..<400 {
                let key = "k\(Int.random(in: 0..<90, using: &generator))"
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<5:
                    fields[key] = .int(Int64(step))
                    reference[key] = .int(Int64(step))
                case 5:
                    fields[key] = nil
                    reference[key] = nil
                case 6:
                    fields.removeValue(forKey: key)
                    reference[key] = nil
                case 7:
                    let new = "k\(Int.random(in: 0..<90, using: &generator))"
                    fields.renameKey(key, to: new)
                    if key != new, let value = reference[key] {
                        reference.pairs.removeAll { $0.0 == new }
                        if let index = reference.pairs.firstIndex(where: { $0.0 == key }) {
                            reference.pairs[index] = (new, value)
                        }
                    }
                case 8:
                    copies.append((fields, reference.pairs))
                default:
                    fields.append(key: "a\(step)", value: .bool(true))
                    reference.pairs.append(("a\(step)", .bool(true)))
                }
                let probe = "k\(Int.random(in: 0..<90, using: &generator))"
                #expect(fields[probe] == reference[probe], "step \(step): \(probe)")
                #expect(fields.contains(key: probe) == (reference[probe] != nil))
            }
            #expect(fields.keys == reference.pairs.map(\.0))
            #expect(fields.map(\.value) == reference.pairs.map(\.1))
            // A copy taken earlier kept its own members and answers lookups for them.
            for (copy, pairs) in copies {
                #expect(copy.keys == pairs.map(\.0))
                for (key, value) in pairs { #expect(copy[key] == value) }
            }
        }
    }

    @Test("equal members are equal and hash alike, with or without a key table")
    func equality() {
        let members = (0..<100).map { Field(key: "k\($0)", value: .int(Int64($0))) }
        let read = Fields(uncheckedUniqueElements: members)
        var built = Fields()
        for member in members { built[member.key] = member.value }
        #expect(read == built)
        #expect(read.hashValue == built.hashValue)
        #expect(Fields(Array(members.prefix(10))) == Fields(uncheckedUniqueElements: Array(members.prefix(10))))
    }

    @Test("many members attack: 300,000 members set one by one take linear time", .timeLimit(.minutes(5)))
    func manyMembers() {
        var fields = Fields()
        for index in 0..<300_000 { fields["k\(index)"] = .int(Int64(index)) }
        for index in stride(from: 0, to: 300_000, by: 1000) { fields["k\(index)"] = .int(Int64(-index)) }
        #expect(fields.count == 300_000)
        #expect(fields["k299999"] == .int(299_999))
        #expect(fields["k5000"] == .int(-5000))
        let copy = Fields((0..<300_000).map { Field(key: "k\($0 % 150_000)", value: .int(Int64($0))) })
        #expect(copy.count == 150_000)
        #expect(copy["k1"] == .int(150_001))
    }
}
