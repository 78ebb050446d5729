import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport

@testable import LarderDedupe

/// Runs a dedupe pass over in-memory record sets, the way the CLI does over files.
struct DedupeHarness {
    struct Run {
        var analysis: DedupeAnalysis
        /// The output, as written.
        var text: String
        /// The output records.
        var records: [Value]
        /// The merge log document.
        var log: Value
        var summary: DedupeSummary

        /// The output record with `id`.
        func record(_ id: String) -> Value? { records.first { $0["id"]?.stringValue == id } }
        /// The log's clusters.
        var clusters: [Value] { log["clusters"]?.arrayValue ?? [] }
    }

    /// NDJSON text of some records.
    static func ndjson(_ records: [Value]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for record in records {
            try JSONWriter.append(record, to: &bytes)
            bytes.append(0x0A)
        }
        return bytes
    }

    static func input(_ records: [Value], role: DedupeInput.Role) throws -> DedupeInput {
        let bytes = try ndjson(records)
        let name = "\(role.rawValue).ndjson"
        return DedupeInput(name: name, role: role) {
            JSONReader(source: MemoryByteSource(bytes, name: name), lineMode: true)
        }
    }

    static func run(
        saved: [Value], created: [Value], threshold: Double = PairScorer.defaultThreshold, format: DataFormat = .ndjson,
        keepGoing: Bool = false, rejects: (any DiagnosticSink)? = nil
    ) async throws -> Run {
        var configuration = DedupeConfiguration()
        configuration.threshold = threshold
        configuration.outputFormat = format
        configuration.keepGoing = keepGoing
        let pass = DedupePass(
            inputs: [try input(saved, role: .saved), try input(created, role: .created)], configuration: configuration)
        let analysis = try await pass.analyze(rejects: rejects)
        let sink = MemoryByteSink()
        let writer = try RecordIO.makeWriter(sink: sink, format: format, options: WriterOptions(recordType: .recipe))
        let logSink = MemoryByteSink()
        let log = try MergeLogWriter(
            sink: logSink, threshold: threshold, inputs: [("saved.ndjson", "saved"), ("created.ndjson", "created")])
        let summary = try await analysis.write(to: writer, log: log)
        let reader = try RecordIO.openReader(source: MemoryByteSource(sink.bytes), format: format)
        var records: [Value] = []
        while let item = try reader.next() { records.append(item.value) }
        let logValue = try JSONReader(source: MemoryByteSource(logSink.bytes)).next()?.value ?? .null
        return Run(analysis: analysis, text: sink.text, records: records, log: logValue, summary: summary)
    }

    /// A recipe value with sensible defaults.
    static func recipe(
        id: String, title: String, ingredients: [String], steps: [String] = ["Cook it."],
        updatedAt: String = "2024-03-01T08:00:00Z",
        createdAt: String = "2024-01-01T08:00:00Z", servings: Int? = 4, prepTime: Int? = 10, cookTime: Int? = 20,
        sourceURL: String? = nil, ownerID: String? = nil, tags: [String] = [], dietaryNotes: [String] = [],
        isFavorited: Bool = false, extra: [(String, Value)] = []
    ) -> Value {
        var b = ValueBuilder()
        b.set("id", id)
        b.set("title", title)
        b.set(
            "ingredients",
            value: .array(ingredients.map { line in ["item": .string(line), "original": .string(line)] }))
        b.set("instructions", value: .array(steps.map { ["text": .string($0)] }))
        b.set("createdAt", createdAt)
        b.set("updatedAt", updatedAt)
        b.set("ownerID", ownerID)
        b.set("prepTime", prepTime)
        b.set("cookTime", cookTime)
        b.set("servings", servings)
        b.set("sourceURL", sourceURL)
        b.set("tags", tags)
        b.set("dietaryNotes", dietaryNotes)
        b.set("isFavorited", isFavorited)
        var fields = b.fields
        for (key, value) in extra { fields[key] = value }
        return .object(fields)
    }

    static let pancakeLines = ["plain flour", "milk", "eggs", "baking powder", "caster sugar", "melted butter", "salt"]
    static let potatoPancakeLines = [
        "potatoes", "onion", "egg", "plain flour", "vegetable oil", "chives", "sour cream",
    ]
}

extension Value {
    /// The strings of a list member.
    func strings(_ key: String) -> [String] { self[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
}
