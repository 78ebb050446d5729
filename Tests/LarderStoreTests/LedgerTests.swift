import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderRegistry
@testable import LarderStore

@Suite struct LedgerTests {
    private func samplePath(_ name: String) -> String { CLI.packageRoot.appendingPathComponent(name).path }

    private func importedStore(_ directory: TemporaryDirectory, migrator: Migrator = RegistryFixture.migrator) throws
        -> Ledger
    {
        let ledger = Ledger(store: try Store(path: directory.path("larder.db"), create: true), migrator: migrator)
        let summary = try ledger.importRecords(inputs: [samplePath("samples/v1/recipes-v1.json")])
        #expect(summary.imported == 24)
        return ledger
    }

    /// Stores the records' bodies by id, for before/after comparisons.
    private func snapshot(_ store: Store) throws -> [String: String] {
        var bodies: [String: String] = [:]
        try store.forEachStoredRecord { bodies[$0.id] = $0.body }
        return bodies
    }

    @Test("migrating a store runs one transaction per step and records each in the history")
    func migrateStore() throws {
        let directory = try TemporaryDirectory()
        let ledger = try importedStore(directory)
        let outcome = try ledger.migrate(type: "recipe")
        #expect(outcome.finalVersion == 4 && outcome.steps.count == 34)
        let history = try ledger.store.history().filter { $0.kind == .migration }
        #expect(history.count == 34 && history.allSatisfy { $0.isSuccess && $0.checksum?.hasPrefix("sha256:") == true })
        #expect(history.first { $0.stepID == "recipe-1-2-image" }?.recordsTouched == 6)
        #expect(try ledger.store.schemaStates().first?.version == 4)
        for record in try ledger.store.records(type: "recipe") { #expect(try Recipe(value: record).validate().isEmpty) }
        let images = try ledger.store.rowCount(table: "images")
        #expect(images == 6)
        #expect(try ledger.validate().problems.isEmpty)
        // Down again through the inverses: images come back inline.
        let down = try ledger.migrate(type: "recipe", to: 1)
        #expect(down.finalVersion == 1)
        let restored = try ledger.store.records(type: "recipe")
        #expect(restored.filter { $0["imageData"] != nil }.count == 6)
        #expect(try RegistryFixture.registry.jsonSchema(type: "recipe", version: 1).isValid(restored[0]))
    }

    @Test("a step that fails half way leaves the store as it was before the step, and the next run resumes there")
    func crashResume() throws {
        let directory = try TemporaryDirectory()
        // A stage that breaks on the 10th record it sees, like a crash in the middle of a step.
        final class Counter: @unchecked Sendable {
            // @unchecked: the test runs the migration on one thread.
            var seen = 0
            var failAt: Int? = 10
        }
        let counter = Counter()
        let flaky = MigrationStage(id: "ingredient-lines", summary: "flaky") { record, context in
            counter.seen += 1
            if let failAt = counter.failAt, counter.seen == failAt { throw ConversionFailure("simulated crash") }
            return try MigrationStage.builtIn["ingredient-lines"]!.run(&record, context)
        }
        let ledger = try importedStore(directory, migrator: RegistryFixture.migrator.registering(flaky))
        #expect(throws: LarderError.self) { try ledger.migrate(type: "recipe") }
        // v1 → v2 committed; the first step of v2 → v3 rolled back as a whole.
        let state = try #require(try ledger.store.schemaStates().first)
        #expect(state.version == 2 && state.pendingTo == nil)
        let records = try ledger.store.records(type: "recipe")
        // Still lines: nothing half-applied.
        #expect(records.allSatisfy { $0["ingredients"]?.arrayValue?.first?.stringValue != nil })
        let failed = try ledger.store.history().filter { !$0.isSuccess }
        #expect(failed.map(\.stepID) == ["recipe-2-3-ingredients"])
        #expect(try ledger.validate().problems.contains { $0.message.contains("step recipe-2-3-ingredients failed") })
        // The next run resumes with the failed step.
        counter.failAt = nil
        let before = try snapshot(ledger.store)
        let outcome = try ledger.migrate(type: "recipe")
        #expect(outcome.steps.first?.id == "recipe-2-3-ingredients" && outcome.finalVersion == 4)
        #expect(try snapshot(ledger.store) != before)
        _ = try ledger.repair()
        #expect(try ledger.validate().problems.isEmpty)
    }

    @Test("a run stopped between the steps of a transition resumes after the last committed step")
    func resumeMidTransition() throws {
        let directory = try TemporaryDirectory()
        let failing = MigrationStage(id: "image-move", summary: "always fails") { _, _ in
            throw ConversionFailure("disk full")
        }
        let broken = try importedStore(directory, migrator: RegistryFixture.migrator.registering(failing))
        #expect(throws: LarderError.self) { try broken.migrate(type: "recipe") }
        let state = try #require(try broken.store.schemaStates().first)
        #expect(state.version == 1 && state.pendingTo == 2 && state.stepsDone == 4)
        let fixed = Ledger(store: broken.store, migrator: RegistryFixture.migrator)
        let (_, _, skip) = try fixed.dryRun(type: "recipe")
        #expect(skip == 4)
        let outcome = try fixed.migrate(type: "recipe")
        #expect(outcome.resumedFrom?.contains("after step 4 of 6") == true)
        #expect(outcome.steps.first?.id == "recipe-1-2-image" && outcome.finalVersion == 4)
    }

    @Test(
        "an applied step whose definition changed fails validation, naming the file and both checksums; repair realigns"
    )
    func checksumTampering() throws {
        let directory = try TemporaryDirectory()
        let schemas = directory.path("Schemas")
        try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        for (path, text) in EmbeddedSchemas.files {
            let target = (schemas as NSString).appendingPathComponent(path)
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: target, atomically: true, encoding: .utf8)
        }
        let original = Migrator(registry: try SchemaRegistry.load(try SchemaSource.directory(schemas)))
        let ledger = try importedStore(directory, migrator: original)
        _ = try ledger.migrate(type: "recipe", to: 2)
        // Reformatting the manifest changes nothing…
        let manifestPath = (schemas as NSString).appendingPathComponent(
            original.registry.source.manifestName ?? "registry.yaml")
        let text = try String(contentsOfFile: manifestPath, encoding: .utf8)
        // (CRLF line endings, a comment, a byte-order mark and trailing blanks: formatting only.)
        let reformattedText = "\u{FEFF}# reformatted\n" + text.replacingOccurrences(of: "\n", with: "  \r\n")
        try reformattedText.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let reformatted = Ledger(
            store: ledger.store,
            migrator: Migrator(registry: try SchemaRegistry.load(try SchemaSource.directory(schemas))))
        #expect(try reformatted.validate().problems.isEmpty)
        // …changing an applied step does.
        let tamperedText = text.replacingOccurrences(of: "very easy: easy", with: "very easy: medium")
        #expect(tamperedText != text)
        try tamperedText.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let tampered = Ledger(
            store: ledger.store,
            migrator: Migrator(registry: try SchemaRegistry.load(try SchemaSource.directory(schemas))))
        let problems = try tampered.validate().problems
        #expect(problems.count == 1)
        let message = try #require(problems.first?.message)
        #expect(message.contains("step recipe-1-2-difficulty in \(manifestPath)"))
        let applied = try ledger.store.history().first { $0.stepID == "recipe-1-2-difficulty" }?.checksum ?? "?"
        #expect(message.contains("applied checksum \(applied)") && message.contains("current checksum sha256:"))
        let actions = try tampered.repair()
        #expect(actions.count == 1 && actions[0].contains("recipe-1-2-difficulty"))
        #expect(try tampered.validate().problems.isEmpty)
        #expect(try ledger.store.history().last?.kind == .repair)
    }

    @Test("baseline adopts unversioned records at a version they validate against")
    func baseline() throws {
        let directory = try TemporaryDirectory()
        let ledger = Ledger(
            store: try Store(path: directory.path("larder.db"), create: true), migrator: RegistryFixture.migrator)
        // NDJSON declares no version: the records stay unversioned.
        let ndjson = directory.path("v2.ndjson")
        let records = try RegistryFixture.records("samples/v2/recipes-v2.json")
        var lines = ""
        for record in records { lines += try JSONWriter.string(record) + "\n" }
        try lines.write(toFile: ndjson, atomically: true, encoding: .utf8)
        let summary = try ledger.importRecords(inputs: [ndjson], recordType: .recipe)
        #expect(summary.versions["recipe"] == .some(nil))
        #expect { try ledger.migrate(type: "recipe") } throws: { "\($0)".contains("schema baseline") }
        #expect { try ledger.baseline(type: "recipe", version: 1) } throws: {
            "\($0)".contains("cannot baseline recipe at v1")
        }
        #expect(try ledger.baseline(type: "recipe", version: 2) == 20)
        #expect(try ledger.store.history().last?.kind == .baseline)
        #expect(try ledger.migrate(type: "recipe").finalVersion == 4)
        #expect(throws: LarderError.self) { try ledger.baseline(type: "recipe", version: 3) }
    }

    @Test("store import is linear: it does not query the records table once per record")
    func importQueriesRecordsTableOncePerType() throws {
        let directory = try TemporaryDirectory()
        let store = try Store(path: directory.path("larder.db"), create: true)
        final class Statements: @unchecked Sendable {
            // @unchecked: guarded by the lock; the store calls the trace on its connection's queue.
            private let lock = NSLock()
            private var sql: [String] = []
            func append(_ text: String) { lock.withLock { sql.append(text) } }
            var all: [String] { lock.withLock { sql } }
        }
        let statements = Statements()
        try store.traceStatements { statements.append($0) }
        let ledger = Ledger(store: store, migrator: RegistryFixture.migrator)
        // Twice: an empty store, then one already holding the records (both paths check the table).
        for _ in 0..<2 {
            let summary = try ledger.importRecords(inputs: [samplePath("samples/v1/recipes-v1.json")])
            #expect(summary.imported == 24)
        }
        // A per-record `SELECT count(*) FROM records WHERE type = ?` scans the type's records for
        // every record read: quadratic. Reads of the records table must not grow with the records.
        let reads = statements.all.filter { $0.uppercased().hasPrefix("SELECT") && $0.contains("FROM records") }
        #expect(reads.count <= 2, "\(reads.count) reads of the records table for 48 records: \(reads.prefix(3))")
    }

    @Test("a store newer than the registry is refused with a clear message")
    func tooNewStore() throws {
        let directory = try TemporaryDirectory()
        let ledger = try importedStore(directory)
        try ledger.store.executeRaw("UPDATE schema_state SET version = 5 WHERE type = 'recipe'")
        #expect {
            try ledger.migrate(type: "recipe")
        } throws: { error in
            "\(error)".contains("holds recipe records at schema version 5, newer than")
                && "\(error)".contains("(newest: 4)")
        }
        #expect(try ledger.validate().problems.count == 1)
        // A store whose tables come from a newer larder is refused when opened.
        try ledger.store.executeRaw("INSERT INTO grdb_migrations (identifier) VALUES ('larder-store-99')")
        #expect { try Store(path: directory.path("larder.db")) } throws: {
            "\($0)".contains("written by a newer larder")
        }
    }

    @Test("keep-going moves records that fail a step to the rejects table and goes on")
    func keepGoingRejects() throws {
        let directory = try TemporaryDirectory()
        let ledger = try importedStore(directory)
        // A v1 record whose image is not base64 fails the image-move stage (the one with the smallest id).
        var value = try #require(try ledger.store.records(type: "recipe").first)
        if case .object(var fields) = value {
            fields["imageData"] = "%%% not base64 %%%"
            value = .object(fields)
        }
        try ledger.store.executeRaw(
            "UPDATE records SET body = ? WHERE id = ?",
            arguments: [try JSONWriter.string(value), value["id"]?.stringValue])
        var rejected: [String] = []
        let outcome = try ledger.migrate(type: "recipe", keepGoing: true) { _, error in rejected.append(error.message) }
        #expect(outcome.rejected == 1 && outcome.finalVersion == 4)
        #expect(rejected.first?.contains("imageData is not valid base64") == true)
        #expect(try ledger.store.recordCount(type: "recipe") == 23)
        #expect(try ledger.store.rowCount(table: "rejects") == 1)
    }
}
