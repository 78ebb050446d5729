import ArgumentParser
import Foundation
import LarderCore
import LarderDedupe
import LarderFormats
import LarderSamples

/// `larder dedupe-generate` (hidden): writes labelled saved/created test sets for measuring dedupe.
struct DedupeGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dedupe-generate",
        abstract: "Generate labelled saved and created recipe sets with known duplicates (benchmarks and tests).",
        discussion: """
            Deterministic for a given --seed and --count. Duplicates carry every kind of edit (other id, \
            title formatting, reordered or reworded ingredient lines, an added note, changed servings, \
            the same record in both sets); near-misses (same title or same ingredients, another dish) \
            must stay apart. --labels writes the truth as NDJSON: {set, index, id, entity, kind, edits}.
            """,
        shouldDisplay: false
    )

    @Option(name: .long, help: "Records to generate (both sets together).")
    var count: Int = 10_000

    @Option(name: .long, help: "Random seed.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Fraction of records that are duplicates.")
    var duplicates: Double = 0.10

    @Option(name: .long, help: "Fraction of records that are near-misses.")
    var nearMisses: Double = 0.03

    @Option(name: .long, help: "Saved set output file.")
    var saved: String

    @Option(name: .long, help: "Created set output file.")
    var created: String

    @Option(name: .long, help: "Truth labels output file (NDJSON).")
    var labels: String?

    @Option(name: .long, help: "Output format: json, ndjson, yaml or xml.")
    var to: DataFormat = .ndjson

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be positive") }
        guard (0..<0.9).contains(duplicates), (0..<0.5).contains(nearMisses) else {
            throw ValidationError("--duplicates must be in 0..<0.9 and --near-misses in 0..<0.5")
        }
    }

    func run() throws {
        var generator = LabelledSetGenerator(seed: seed, count: count)
        generator.duplicateFraction = duplicates
        generator.nearMissFraction = nearMisses
        let options = WriterOptions(recordType: .recipe)
        let savedWriter = try RecordIO.openWriter(path: saved, format: to, options: options)
        let createdWriter = try RecordIO.openWriter(path: created, format: to, options: options)
        let labelsSink = try labels.map { try FileByteSink(path: $0) }
        var indices = [DedupeInput.Role.saved: 0, .created: 0]
        var line: [UInt8] = []
        try generator.generate { item in
            let role = item.role
            try (role == .saved ? savedWriter : createdWriter).write(item.recipe.value)
            if let labelsSink {
                line.removeAll(keepingCapacity: true)
                try JSONWriter.append(item.labelValue(index: indices[role, default: 0]), to: &line)
                line.append(0x0A)
                try labelsSink.write(line)
            }
            indices[role, default: 0] += 1
        }
        try savedWriter.finish()
        try createdWriter.finish()
        try labelsSink?.close()
        Stderr.print(
            "larder dedupe-generate: \(indices[.saved, default: 0]) saved, \(indices[.created, default: 0]) created")
    }
}
