import Foundation
import Larder
import LarderTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The getting-started article's code (Sources/Larder/Larder.docc/GettingStarted.md), word for word: the
// `snippetsAreTheArticles` test below fails when a ```swift block of the article is no longer found here, and
// the other tests run these functions on the bundled samples, so the article shows code that compiles and works.

// MARK: The article's snippets

/// Converts a recipe file in any format Larder reads (gzip or not) to NDJSON; returns the record count.
func convertRecipes(from input: String, to output: String) throws -> Int {
    let reader = try RecordIO.openReader(path: input)
    let writer = try RecordIO.openWriter(path: output, format: .ndjson)
    var count = 0
    while let item = try reader.next() {
        let recipe = try Recipe(value: item.value)  // typed, with field-path errors
        try writer.write(recipe.value)
        count += 1
    }
    try writer.finish()  // the output appears only now, renamed into place
    return count
}

/// Imports another app's export (a Paprika file, a Mealie zip, a web page, a folder of them…).
func importExport(_ path: String, to output: String, rejects: String) throws -> ImportReport {
    let session = try ImportSession(options: .init(outputPath: output, keepGoing: true, rejectsPath: rejects))
    // nil: detect what the file holds; or name a format, as in ImportFormat(rawValue: "mealmaster").
    return try session.run([(path, nil)])
}

/// Migrates a file of recipes to schema version 4, after a dry run that checks every record.
func migrateRecipes(from input: String, to output: String) throws -> FileMigration.Summary {
    let migrator = Migrator(registry: try SchemaRegistry.load())
    let migration = FileMigration(migrator: migrator, inputs: [input], targetVersion: 4)
    _ = try migration.dryRun()  // writes nothing
    return try migration.run(output: output)
}

@Test func emulatorAnswers() async throws {
    var configuration = EmulatorConfiguration()
    configuration.port = 0  // a free port
    configuration.inMemory = true  // nothing on disk
    let emulator = try Emulator(configuration: configuration)
    let url = try await emulator.start()  // http://127.0.0.1:PORT
    let health = await Result { try await URLSession.shared.data(from: url.appending(path: "_emulator/health")) }
    await emulator.stop()
    #expect(String(decoding: try health.get().0, as: UTF8.self) == #"{"status":"ok"}"#)
}

// MARK: Checks

/// `Result(catching:)` for an async body.
extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

@Suite struct GettingStartedTests {
    static let article = CLI.packageRoot.appendingPathComponent("Sources/Larder/Larder.docc/GettingStarted.md")
    static let thisFile = CLI.packageRoot.appendingPathComponent("Tests/LarderSyncTests/GettingStartedTests.swift")

    static func sample(_ name: String) -> String { CLI.packageRoot.appendingPathComponent("samples/\(name)").path }

    @Test("the article's conversion reads the YAML sample and writes its recipes as NDJSON")
    func convertsTheSample() throws {
        let folder = try TemporaryDirectory()
        let count = try convertRecipes(from: Self.sample("recipes.yaml"), to: folder.path("recipes.ndjson"))
        #expect(count > 0)
        #expect(try folder.read("recipes.ndjson").split(separator: "\n").count == count)
    }

    @Test("the article's import reads the bundled Paprika export")
    func importsTheSample() throws {
        let folder = try TemporaryDirectory()
        let report = try importExport(
            Self.sample("import/sample.paprikarecipes"), to: folder.path("imported.json"),
            rejects: folder.path("rejects.ndjson"))
        #expect(!report.imported.isEmpty)
        #expect(report.rejected.isEmpty, "\(report.rejected)")
    }

    @Test("the article's migration takes the version 1 recipes to version 4")
    func migratesTheSample() throws {
        let folder = try TemporaryDirectory()
        let summary = try migrateRecipes(from: Self.sample("v1/recipes-v1.json"), to: folder.path("recipes-v4.json"))
        #expect(summary.migratedRecords > 0)
        #expect(try folder.read("recipes-v4.json").contains(#""version":4"#))
    }

    @Test("every swift block of GettingStarted.md is in this file, import lines aside")
    func snippetsAreTheArticles() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        let code = try String(contentsOf: Self.thisFile, encoding: .utf8)
        func lines(_ text: some StringProtocol) -> [String] {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty && !$0.hasPrefix("import ")
            }
        }
        let codeLines = lines(code)
        let blocks = article.matches(of: /```swift\n((?s).*?)```/).map { lines($0.1) }
        #expect(blocks.count >= 4, "GettingStarted.md has \(blocks.count) swift blocks")
        for block in blocks where !block.isEmpty {
            let found = codeLines.indices.contains { start in
                codeLines[start...].starts(with: block)
            }
            #expect(found, "not in GettingStartedTests.swift:\n\(block.joined(separator: "\n"))")
        }
    }
}
