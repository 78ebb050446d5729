import Foundation
import LarderCore
import Testing

@testable import LarderFormats

/// A repeated key is refused in every object, the top-level one included.
///
/// RFC 8259 §4 leaves repeated keys undefined; the scanner skips the comparisons for keys whose
/// signature bit is new, so these hold it to the plain rule.
@Suite struct JSONDuplicateKeyTests {
    private func parse(_ text: String) -> Result<Value, LarderError> {
        let reader = JSONReader(source: MemoryByteSource(text, name: "d.json"))
        do {
            guard let item = try reader.next() else { return .failure(LarderError(.syntax, "no record")) }
            return .success(item.value)
        } catch let error as LarderError {
            return .failure(error)
        } catch {
            return .failure(LarderError(.syntax, "\(error)"))
        }
    }

    @Test(
        "many members attack: an object of 300,000 keys is read in linear time; a repeat at its end is found",
        .timeLimit(.minutes(5)))
    func manyMembers() throws {
        let count = 300_000
        var text = "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        guard case .success(let value) = parse(text + "}") else {
            Issue.record("300,000 distinct keys were refused")
            return
        }
        #expect(value.objectValue?.count == count)
        #expect(value["k299999"] == .int(299_999))
        text += ",\"k17\":0}"
        guard case .failure(let error) = parse(text) else {
            Issue.record("a repeated key among 300,000 was accepted")
            return
        }
        #expect(error.description.contains("duplicate key \"k17\""), "\(error.description)")
    }

    @Test("names a repeated key with its line and column")
    func namesTheKey() throws {
        guard case .failure(let error) = parse("{\"title\":\"a\",\n \"id\":\"x\",\n \"title\":\"b\"}") else {
            Issue.record("a repeated key was accepted")
            return
        }
        #expect(error.description.contains("d.json:3:2"), "\(error.description)")
        #expect(error.description.contains("duplicate key \"title\""), "\(error.description)")
    }

    @Test("seeded objects: refused exactly when a key repeats, at any depth, whatever the signatures")
    func seededObjects() {
        var generator = SeededGenerator(seed: 7)
        // Few letters and short keys, so distinct keys often share a signature bit.
        let letters = Array("abAB_é")
        var refused = 0
        for _ in 0..<3_000 {
            var keys: [String] = []
            for _ in 0..<Int.random(in: 0...120, using: &generator) {
                keys.append(
                    String(
                        (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                            letters[Int.random(in: 0..<letters.count, using: &generator)]
                        }))
            }
            let repeats = Set(keys).count != keys.count
            let members = keys.enumerated().map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",")
            // The same object nested one level down must be judged the same way.
            let nested = Bool.random(using: &generator)
            let text = nested ? "{\"outer\":{\(members)},\"k\":1}" : "{\(members)}"
            let result = parse(text)
            switch result {
            case .success:
                #expect(!repeats, "accepted a repeated key: \(text)")
            case .failure(let error):
                refused += 1
                #expect(repeats, "refused \(text): \(error.description)")
                #expect(error.description.contains("duplicate key"), "\(error.description)")
            }
        }
        #expect(refused > 100 && refused < 2_900)  // both outcomes are exercised
    }
}
