import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// `--from auto`: every sample goes to its own importer by content, and a file no format claims
/// says what it was checked against.
@Suite struct FormatDetectionTests {
    /// The importer each file in samples/import must go to.
    static let expected: [String: ImportFormat] = [
        "Beanconqueror.zip": .beanconqueror, "cafe-scones.xml": .recipeml, "lemon-posset.html": .schemaorg,
        "mealmaster-classics.mmf": .mealmaster, "mealmaster-legacy.mm": .mealmaster,
        "overnight-oats.jsonld": .schemaorg, "plain-recipes.yaml": .plain, "recipes.csv": .csv,
        "rezkonv-apfelkuchen.txt": .mealmaster, "sample.paprikarecipes": .paprika, "shakshuka.cook": .cooklang,
        "tomato-salad.yaml": .orf, "recipesage-recipes.json": .recipesage, "plantoeat-recipes.csv": .plantoeat,
        "myrecipebox.csv": .myrecipebox, "recipekeeper-export.zip": .recipekeeper,
        "weeknight-chicken-soup.crumb": .crouton, "copymethat-export.zip": .copymethat,
        "openeats-dump.json": .openeats, "chowdown-master.zip": .chowdown, "cookmate-backup.mcb": .cookmate,
        "recettetek-backup.rtk": .recettetek, "rezeptsuite-export.xml": .rezeptsuite,
        "domestica-recipes.json": .domestica, "cookn-cookbook.zip": .cookn,
        "mealmaster-unframed.txt": .mealmaster, "pepperplate-export.zip": .pepperplate, "cheftap-export.zip": .cheftap,
        "saffron-export.zip": .saffron, "gourmet-export.zip": .gourmet, "cookbookapp-export.zip": .cookbookapp,
        "cookbookapp-yaml.zip": .cookbookapp, "bigoven-recipes.json": .bigoven, "bigoven-recipes.csv": .bigoven,
    ]

    static var samples: [String] {
        let folder = ImportFixtures.sample("")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0 != "README.md" }.sorted()
    }

    @Test("samples/import holds a sample of every format detection knows by content")
    func everyFormatHasASample() {
        #expect(Self.samples.count >= Self.expected.count)
        let covered = Set(Self.expected.values)
        for format in [
            ImportFormat.recipesage, .plantoeat, .myrecipebox, .recipekeeper, .crouton, .copymethat, .csv, .mealmaster,
            .chowdown, .cookmate, .recettetek, .rezeptsuite, .domestica, .cookn, .pepperplate, .cheftap, .saffron,
            .gourmet, .cookbookapp, .bigoven,
        ] {
            #expect(covered.contains(format), "no sample goes to \(format.rawValue)")
        }
    }

    @Test("each sample imported with --from auto goes to the right importer and imports", arguments: samples)
    func detectsSample(_ name: String) throws {
        let expected = try #require(Self.expected[name], "samples/import/\(name) has no expected format here")
        let path = ImportFixtures.sample(name)
        let detected = try ImportFormat.detect(path: path)
        #expect(detected == expected, "\(name) went to \(detected.rawValue)")
        let sink = ImportCollector()
        try detected.makeImporter().importItems(at: path, context: sink.context)
        #expect(sink.recipes.count + sink.brewLogs.count > 0, "\(name) imported nothing")
        #expect(sink.rejects.allSatisfy { $0.1.file == path })
    }

    @Test("a file no format claims names every format its content was checked against")
    func unclaimedFileSaysWhatWasChecked() throws {
        let dir = try TemporaryDirectory()
        let error = try #require(throws: LarderError.self) {
            try ImportFormat.detect(path: try dir.write("notes.txt", "just some words\nnothing else\n"))
        }
        #expect(error.code == .usage)
        for format in ImportFormat.all {
            #expect(error.message.contains(format.displayName), "\(format.displayName) not named: \(error.message)")
        }
        let zip = dir.path("other.zip")
        try ImportFixtures.zip([("notes.txt", Array("hi".utf8))], at: zip)
        let zipError = try #require(throws: LarderError.self) { try ImportFormat.detect(path: zip) }
        for format in ImportFormat.all {
            #expect(
                zipError.message.contains(format.displayName), "\(format.displayName) not named: \(zipError.message)")
        }
    }

    @Test("a CSV with an app's header row goes to that app whatever its extension; --from csv still reads it")
    func headerRowDecides() throws {
        let dir = try TemporaryDirectory()
        let text = try String(contentsOfFile: ImportFixtures.sample("plantoeat-recipes.csv"), encoding: .utf8)
        #expect(try ImportFormat.detect(path: try dir.write("export.txt", text)) == .plantoeat)
        let sink = ImportCollector()
        try ImportFormat.csv.makeImporter().importItems(
            at: ImportFixtures.sample("plantoeat-recipes.csv"), context: sink.context)
        #expect(sink.titles.count == 2)
    }
}
