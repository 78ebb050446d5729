import Foundation
import LarderCloudKit
import LarderCore
import LarderDedupe
import LarderFormats
import LarderRegistry
import LarderTestSupport
import Synchronization
import Testing

@testable import LarderSync

/// `larder upload --dedupe` as a chain of stages (issue 28 part 3): the recipes are merged without
/// duplicates, other records go first, and no stage file is written and read back.
@Suite struct DedupeUploadTests {
    /// Brew logs, and saved and created recipe sets that share five recipes (same ids).
    static func inputs(in directory: TemporaryDirectory) throws -> [String] {
        let logs = (0..<3).map { BrewLog.make(id: "log-\($0)").value }
        let saved = TestRecords.recipes(10, seed: 1)
        let created = Array(TestRecords.recipes(10, seed: 1).prefix(5)) + TestRecords.recipes(3, seed: 2)
        return [
            try directory.write("saved.json", TestRecords.envelope(saved, type: .recipe)),
            try directory.write("logs.json", TestRecords.envelope(logs, type: .brewLog)),
            try directory.write("created.json", TestRecords.envelope(created, type: .recipe)),
        ]
    }

    @Test("with dedupe, the merged recipes and the logs go up once, with no stage file; a re-run sends nothing")
    func dedupeStreams() async throws {
        let server = try await UploadTestServer.start()
        try await stopping(server) { _ in
            let directory = try TemporaryDirectory()
            let inputs = try Self.inputs(in: directory)
            let work = directory.path("work")
            let preparation = UploadPreparation(
                inputs: inputs, migrator: Migrator(registry: try .load()), isDeduplicating: true, workDirectory: work)
            var upload = FileUpload(
                client: server.client(zone: "dedupe"), journalPath: directory.path("j"),
                deadLetterPath: directory.path("dead.ndjson"))
            let seen = Mutex<Set<String>>([])
            upload.progress = { _ in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: work)) ?? []
                seen.withLock { $0.formUnion(names) }
            }
            let report = try await upload.run(preparation: preparation)
            // What `larder dedupe` keeps of the 18 recipes: at most 13 (five ids repeat; similar ones merge too).
            let expected = try await Self.dedupedIDs(inputs[0], inputs[2])
            #expect(expected.count <= 13)
            #expect(report.read == 21)
            #expect(report.mergedByDedupe == 18 - expected.count)
            #expect(report.uploaded == 3 + expected.count)
            #expect(report.deadLetters == 0)
            let files = seen.withLock { $0 }
            #expect(!files.contains { $0.hasSuffix(".json") || $0.hasSuffix(".ndjson") }, "\(files)")

            // The zone holds what `larder dedupe` writes for the recipes, and the logs.
            let (contents, _) = try await server.zoneContents(zone: "dedupe")
            let recipes = contents.values.filter { $0.recordType == RecordType.recipe.rawValue }
            let mapping = RecordMapping()
            let ids = try recipes.map { try mapping.value(of: $0)["id"]?.stringValue ?? "?" }
            #expect(ids.count == expected.count)
            #expect(Set(ids) == Set(expected))
            #expect(contents.values.filter { $0.recordType == RecordType.brewLog.rawValue }.count == 3)

            let again = try await upload.run(preparation: preparation)
            #expect(again.uploaded == 0)
            #expect(again.skippedByJournal == 3 + expected.count)
        }
    }

    /// The ids `DedupePass` writes for the recipe files, merged as the upload merges them.
    static func dedupedIDs(_ paths: String...) async throws -> [String] {
        var configuration = DedupeConfiguration()
        configuration.keepGoing = true
        let pass = DedupePass(
            inputs: paths.map { .file($0, role: .mixed, format: .json) }, configuration: configuration)
        let records = try await pass.analyze().records()
        var ids: [String] = []
        while let record = try records.next() { ids.append(record["id"]?.stringValue ?? "?") }
        return ids
    }
}
