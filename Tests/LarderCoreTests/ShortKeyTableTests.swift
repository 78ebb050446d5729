import LarderCore
import Testing

@Suite struct ShortKeyTableTests {
    @Test("answers exactly as the dictionary it is built from, for keys it has and keys it has not")
    func agreesWithDictionary() {
        var generator = SeededGenerator(seed: 99)
        // Few letters, so keys often share their length and first and last byte.
        let alphabet = Array("abé🍋_")
        func key(maxLength: Int) -> String {
            String(
                (0..<Int.random(in: 0...maxLength, using: &generator)).map { _ in
                    alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                })
        }
        for _ in 0..<300 {
            var entries: [String: Int] = [:]
            for n in 0..<Int.random(in: 0...40, using: &generator) { entries[key(maxLength: 6)] = n }
            let table = ShortKeyTable(entries)
            for (name, value) in entries { #expect(table[name] == value, "\(name)") }
            for _ in 0..<50 {
                let probe = key(maxLength: 9)
                #expect(table[probe] == entries[probe], "\(probe)")
            }
        }
    }
}
