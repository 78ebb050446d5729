import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Importers as plugins: one folder and one registration line per format, one detection path for
/// files, archive entries and folders, and `--from` forcing a format below a folder or inside a zip.
@Suite struct ImportPluginTests {
    /// The importer folders, and the plugin types their files declare.
    static func declaredPlugins() throws -> [String: [String]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Sources/LarderImport/Importers")
        var found: [String: [String]] = [:]
        for folder in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
            let path = root.appendingPathComponent(folder).path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                continue
            }
            for file in try FileManager.default.contentsOfDirectory(atPath: path) where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n")
                where line.hasPrefix("struct ") && line.contains(": ImportPlugin") {
                    let name = line.dropFirst("struct ".count).prefix { $0 != ":" }
                    found[folder, default: []].append(String(name))
                }
            }
        }
        return found
    }

    @Test("every importer folder declares its plugins, each registered by one line; names and display names are unique")
    func registry() throws {
        let declared = try Self.declaredPlugins()
        let registry = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                    "Sources/LarderImport/Importers/ImportPlugins.swift"
                ).path, encoding: .utf8)
        let all = declared.values.flatMap { $0 }
        #expect(
            all.count == ImportFormat.all.count, "\(all.count) plugins declared, \(ImportFormat.all.count) registered")
        for name in all {
            #expect(
                registry.components(separatedBy: "        \(name)(),\n").count == 2, "\(name) is not registered once")
        }
        // Every folder but the shared helpers and the web-page reader schema.org uses is a format.
        for folder in ["Common", "HTMLPage"] { #expect(declared[folder] == nil) }
        #expect(Set(declared.keys).count == all.count - 2, "CSV holds three profiles' plugins")
        #expect(Set(ImportFormat.all).count == ImportFormat.all.count)
        #expect(Set(ImportFormat.all.map(\.displayName)).count == ImportFormat.all.count)
        for format in ImportFormat.all {
            #expect(ImportFormat(rawValue: format.rawValue) == format)
            #expect(!format.lookedFor.isEmpty)
        }
        #expect(ImportFormat(rawValue: "auto") == .auto)
        #expect(ImportFormat(rawValue: "nosuch") == nil)
    }

    @Test("the surest claim wins; a tie goes to the plugin registered first")
    func confidenceAndTies() throws {
        let dir = try TemporaryDirectory()
        // BigOven's keys (strong) beat schema.org's `@type` (likely), whatever the order of the keys.
        let bigOven = try dir.write(
            "b.json", #"{"@type": "Recipe", "Title": "Soup", "RecipeID": 7, "IngredientsTextBlock": "1 leek"}"#)
        #expect(try ImportFormat.detect(path: bigOven) == .bigoven)
        // A RecipeSage file saved as `.jsonld`: RecipeSage and schema.org are both certain; RecipeSage
        // is registered first.
        let sage = try dir.write(
            "s.jsonld", #"[{"@type": "Recipe", "name": "Soup", "creditText": "", "isBasedOn": ""}]"#)
        #expect(try ImportFormat.detect(path: sage) == .recipesage)
        let order = ImportFormat.all
        let sageIndex = try #require(order.firstIndex(of: .recipesage))
        let schemaIndex = try #require(order.firstIndex(of: .schemaorg))
        #expect(sageIndex < schemaIndex)
        // Plain recipe files are the last resort.
        #expect(order.last == .plain)
    }

    @Test("a zip no app claims is read entry by entry, each named by the archive and the entry; others are warnings")
    func zipOfRecipeFiles() throws {
        let dir = try TemporaryDirectory()
        let scones = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportFixtures.sample("cafe-scones.xml"))))
        let orf = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportFixtures.sample("tomato-salad.yaml"))))
        let zip = dir.path("box.zip")
        try ImportFixtures.zip(
            [("xml/scones.xml", scones), ("salad.yaml", orf), ("notes.txt", Array("just words\n".utf8))], at: zip)
        let (report, records) = try ImportFixtures.session([zip], in: dir)
        #expect(records.count == 2, "\(report.rejected) \(report.warnings)")
        #expect(report.imported.map(\.origin).contains { $0.hasPrefix(zip + "!xml/scones.xml") }, "\(report.imported)")
        #expect(report.imported.map(\.origin).contains { $0.hasPrefix(zip + "!salad.yaml") }, "\(report.imported)")
        #expect(report.warnings.contains { $0.contains("box.zip!notes.txt") && $0.contains("no recipe format claims") })
        // No temporary copy's path leaks into the report.
        #expect(!report.imported.contains { $0.origin.contains("larder-nested") })
        #expect(report.census.lines.contains { $0.format == .recipeml })
        #expect(report.census.lines.contains { $0.format == .orf })
    }

    @Test("a rejected entry of a zip read entry by entry names the archive and the entry, not a temporary file")
    func rejectedEntryNamesTheArchive() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.path("box.zip")
        try ImportFixtures.zip(
            [("bad.xml", Array("<recipeml><recipe><head><title>Half".utf8))], at: zip)
        let (report, _) = try ImportFixtures.session([zip], in: dir)
        #expect(report.rejected.count == 1, "\(report)")
        let reason = try #require(report.rejected.first?.reason)
        #expect(reason.contains("box.zip!bad.xml"), "\(reason)")
        #expect(!reason.contains("larder-nested"), "\(reason)")
        let rejects = try String(contentsOfFile: dir.path("rejects.ndjson"), encoding: .utf8)
        #expect(rejects.contains("box.zip!bad.xml") && !rejects.contains("larder-nested"), "\(rejects)")
    }

    @Test("--from on a folder reads the files the format claims or names, and lists each other file")
    func forcedFolder() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("mm/sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: ImportFixtures.sample("mealmaster-classics.mmf"), toPath: dir.path("mm/sub/classics.txt"))
        _ = try dir.write("mm/LICENSE", "Permission is hereby granted\n")
        _ = try dir.write("mm/README.md", "# Recipes\n")
        let session = try ImportSession(
            options: ImportSession.Options(outputPath: dir.path("out.json"), keepGoing: true))
        let report = try session.run([(dir.path("mm"), .mealmaster)])
        #expect(!report.imported.isEmpty && report.rejected.isEmpty, "\(report.rejected)")
        for name in ["LICENSE", "README.md"] {
            #expect(
                report.warnings.contains { $0.contains("mm!\(name)") && $0.contains("not read as MealMaster") },
                "\(report.warnings)")
        }
    }

    @Test("--from a format that reads files on a zip reads the entries it claims or names")
    func forcedZip() throws {
        let dir = try TemporaryDirectory()
        let scones = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ImportFixtures.sample("cafe-scones.xml"))))
        let zip = dir.path("box.zip")
        try ImportFixtures.zip([("a.xml", scones), ("readme.txt", Array("hello\n".utf8))], at: zip)
        let session = try ImportSession(
            options: ImportSession.Options(outputPath: dir.path("out.json"), keepGoing: true))
        let report = try session.run([(zip, .recipeml)])
        #expect(report.imported.count == 1, "\(report.rejected) \(report.warnings)")
        #expect(report.warnings.contains { $0.contains("box.zip!readme.txt") && $0.contains("not read as RecipeML") })
        // A format that reads nothing in the zip says what it looked for.
        let error = try #require(throws: LarderError.self) {
            try ImportSession(options: ImportSession.Options(outputPath: dir.path("o2.json"))).run([(zip, .orf)])
        }
        #expect(error.code == .usage && error.message.contains("Open Recipe Format"), "\(error)")
    }

    @Test("an import's rejects and warnings reach the caller's DiagnosticSink as well as the rejects file")
    func diagnosticSink() throws {
        let dir = try TemporaryDirectory()
        let zip = dir.path("box.zip")
        try ImportFixtures.zip(
            [("bad.xml", Array("<recipeml><recipe><head><title>Half".utf8)), ("notes.txt", Array("words\n".utf8))],
            at: zip)
        let log = DiagnosticLog()
        let session = try ImportSession(
            options: ImportSession.Options(
                outputPath: dir.path("out.json"), keepGoing: true, rejectsPath: dir.path("rejects.ndjson"),
                diagnostics: log))
        let report = try session.run([(zip, nil)])
        #expect(report.rejected.count == 1 && log.rejected.count == 1, "\(log.rejected)")
        #expect(log.rejected.first?.location.file?.hasSuffix("box.zip!bad.xml") == true, "\(log.rejected)")
        #expect(log.warnings.contains { $0.location.file?.hasSuffix("box.zip!notes.txt") == true }, "\(log.warnings)")
        #expect(try String(contentsOfFile: dir.path("rejects.ndjson"), encoding: .utf8).contains("bad.xml"))
    }
}
