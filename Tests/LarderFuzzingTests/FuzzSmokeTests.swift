import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderFuzzing

/// The fuzz smoke that `make test` (and so CI) runs: a few seconds per target of libFuzzer-style
/// mutations of its seeds, in-process and uninstrumented, so that it fits the test budget
/// without the sanitizer build `make fuzz` needs.
///
/// It is no substitute for `make fuzz` (no coverage guidance, no AddressSanitizer): it catches
/// the crashes, traps and hangs that a few thousand stacked byte mutations, splices and
/// structural tokens reach. The generator is seeded per target, so a failure reproduces; set
/// `LARDER_FUZZ_SMOKE_SEED` to explore other sequences and `LARDER_FUZZ_SMOKE_SECONDS` to run longer.
@Suite(.serialized) struct FuzzSmokeTests {
    /// Seconds per target; the run also stops after ``maxInputs`` inputs.
    static let seconds = Double(ProcessInfo.processInfo.environment["LARDER_FUZZ_SMOKE_SECONDS"] ?? "") ?? 1.5
    static let maxInputs = 20_000
    static let baseSeed = UInt64(ProcessInfo.processInfo.environment["LARDER_FUZZ_SMOKE_SEED"] ?? "") ?? 0x5EED_1A2D

    @Test(
        "a mutation smoke of each fuzz target finishes without a crash",
        arguments: FuzzRegressionTests.targets.map(\.name))
    func smoke(name: String) async throws {
        let target = try #require(FuzzRegressionTests.target(name))
        let seeds = try FuzzRegressionTests.seeds(target).filter { $0.count <= 256 << 10 }
        try #require(!seeds.isEmpty, "no seed small enough for \(name)")
        let seed = name.utf8.reduce(Self.baseSeed) { ($0 &* 31) &+ UInt64($1) }
        let ran = try await offCooperativePool {
            var mutator = Mutator(seed: seed, seeds: seeds)
            let deadline = Date().addingTimeInterval(Self.seconds)
            var count = 0
            while count < Self.maxInputs, count < 50 || Date() < deadline {
                _ = target.run(mutator.next())
                count += 1
            }
            return count
        }
        #expect(ran >= 50, "\(name) ran \(ran) inputs")
    }

    @Test("the mutator is deterministic for a seed and changes its input")
    func mutatorIsDeterministic() {
        let seeds = [Array(#"{"title":"Soup","ingredients":["1 onion"]}"#.utf8)]
        var a = Mutator(seed: 7, seeds: seeds)
        var b = Mutator(seed: 7, seeds: seeds)
        let first = (0..<100).map { _ in a.next() }
        #expect(first == (0..<100).map { _ in b.next() })
        #expect(first.contains { $0 != seeds[0] })
    }
}

/// libFuzzer's cheap mutations, stacked one to four deep: bit flips, interesting bytes, inserted
/// and erased ranges, duplicated ranges, splices with another seed, and structural tokens of the
/// formats the targets read.
struct Mutator {
    private var generator: SeededGenerator
    private let seeds: [[UInt8]]

    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ":", ",", "null", "true", "-1e999", "\\u", "\\ud800", "<", "</", "/>", "&#", "&amp;",
        "<!DOCTYPE x [<!ENTITY a \"b\">]>", "<![CDATA[", "- ", "? ", "&a", "*a", "!!binary", "---", "\n", "\r\n", "\t",
        "PK\u{3}\u{4}", "\u{1F}\u{8B}\u{8}", "@context", "@type", "@graph", "\"recordName\"", "\"filterBy\"", "\u{0}",
        ">>", "~", "{{", "}}", "PT1H30M", "1/2", "½",
    ].map { Array($0.utf8) }

    init(seed: UInt64, seeds: [[UInt8]]) {
        generator = SeededGenerator(seed: seed)
        self.seeds = seeds
    }

    private mutating func random() -> UInt64 { generator.next() }

    private mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(random() % UInt64(bound)) }

    /// The next input: a seed with one to four mutations.
    mutating func next() -> [UInt8] {
        var bytes = seeds[below(seeds.count)]
        for _ in 0...below(4) { mutate(&bytes) }
        return bytes
    }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        let at = below(bytes.count + 1)
        switch below(8) {
        case 0 where !bytes.isEmpty:
            bytes[min(at, bytes.count - 1)] ^= UInt8(1) << UInt8(below(8))
        case 1 where !bytes.isEmpty:
            let interesting: [UInt8] = [0, 0x7F, 0x80, 0xFF, 0xC0, 0xED, 0x22, 0x5C, 0x3C, 0x0A]
            bytes[min(at, bytes.count - 1)] = interesting[below(interesting.count)]
        case 2 where !bytes.isEmpty:
            let end = min(bytes.count, at + 1 + below(64))
            bytes.removeSubrange(min(at, end)..<end)
        case 3 where !bytes.isEmpty:
            let start = below(bytes.count)
            let chunk = Array(bytes[start..<min(bytes.count, start + 1 + below(256))])
            bytes.insert(contentsOf: chunk, at: at)
        case 4:
            let other = seeds[below(seeds.count)]
            guard !other.isEmpty else { return }
            let start = below(other.count)
            let chunk = other[start..<min(other.count, start + 1 + below(512))]
            bytes.replaceSubrange(at..<min(bytes.count, at + chunk.count), with: chunk)
        case 5:
            bytes.insert(contentsOf: Self.tokens[below(Self.tokens.count)], at: at)
        case 6:
            bytes.removeSubrange(at..<bytes.count)
        default:
            bytes.insert(UInt8(truncatingIfNeeded: random()), at: at)
        }
    }
}
