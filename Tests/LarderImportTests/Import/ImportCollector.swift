import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Collects what an importer emits, for tests.
final class ImportCollector: ImportRecordSink, ImportDiagnostics {
    var recipes: [(ImportedRecipe, ImportOrigin)] = []
    var brewRecipes: [BrewRecipe] = []
    var brewLogs: [BrewLog] = []
    var rejects: [(LarderError, ImportOrigin)] = []
    var warnings: [String] = []
    var readerLimits = ReaderLimits.default

    func recipe(_ recipe: ImportedRecipe, origin: ImportOrigin) throws { recipes.append((recipe, origin)) }
    func brewRecipe(_ recipe: BrewRecipe, census: FieldCensus?, origin: ImportOrigin) throws {
        brewRecipes.append(recipe)
    }
    func brewLog(_ log: BrewLog, census: FieldCensus?, origin: ImportOrigin) throws { brewLogs.append(log) }
    func reject(_ error: LarderError, origin: ImportOrigin, raw: Value?) throws { rejects.append((error, origin)) }
    func warn(_ message: String, origin: ImportOrigin) { warnings.append(message) }

    /// A context handing an importer's records and diagnostics to this collector.
    var context: ImportContext { ImportContext(records: self, diagnostics: self, readerLimits: readerLimits) }

    var titles: [String] { recipes.map(\.0.title) }
}

enum ImportFixtures {
    /// The repository's samples/import folder.
    static func sample(_ name: String) -> String {
        CLI.packageRoot.appendingPathComponent("samples/import/\(name)").path
    }

    /// Writes a zip of `entries` with Larder's own writer.
    static func zip(_ entries: [(String, [UInt8])], at path: String, deflate: Bool = true) throws {
        let writer = ZipWriter(sink: try FileByteSink(path: path))
        for (name, bytes) in entries { try writer.add(path: name, bytes: bytes, deflate: deflate) }
        try writer.finish()
    }

    static func gzip(_ text: String) throws -> [UInt8] {
        let sink = MemoryByteSink()
        let gzip = try GzipWriter(sink)
        try gzip.write(text)
        try gzip.close()
        return sink.bytes
    }

    /// Imports `sample` twice into the same output in `directory`, expecting `count` recipes the first
    /// time and only duplicates the second; returns the first run's report.
    @discardableResult
    static func expectReRunAddsNothing(_ sample: String, imports count: Int, in directory: TemporaryDirectory) throws
        -> ImportSession.Report
    {
        let (first, _) = try session([sample], in: directory)
        #expect(first.imported.count == count, "\(first.rejected)")
        let (second, records) = try session([sample], in: directory)
        #expect(second.imported.isEmpty)
        #expect(second.duplicates.count == count)
        #expect(records.count == count)
        return first
    }

    /// Runs a whole import session into `directory` and returns its report and the records written.
    static func session(
        _ inputs: [String], in directory: TemporaryDirectory, output: String = "out.json", keepGoing: Bool = true
    ) throws -> (ImportSession.Report, [Value]) {
        let session = try ImportSession(
            options: ImportSession.Options(
                outputPath: directory.path(output), outputFormat: .json, keepGoing: keepGoing,
                rejectsPath: directory.path("rejects.ndjson"),
                importedAt: fixtureDate))
        let report = try session.run(inputs.map { ($0, nil) })
        var records: [Value] = []
        if FileManager.default.fileExists(atPath: directory.path(output)) {
            let reader = try RecordIO.openReader(path: directory.path(output))
            while let item = try reader.next() { records.append(item.value) }
        }
        return (report, records)
    }
}
