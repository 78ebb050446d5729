import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// Every recipe sample in `samples/` (Larder records, and the other apps' files once imported)
/// exports through every exporter without failing, and the export imports back with its own
/// format's importer: as many recipes, none rejected.
@Suite struct ExportEverySampleTests {
    /// Larder recipe record files in samples/.
    static let recordSamples = ["recipes.json", "recipes.yaml", "recipes.xml", "created.json", "saved.json"]
    /// Other apps' recipe files in samples/import/ (Beanconqueror holds brews, not recipes).
    static let importSamples = [
        "cafe-scones.xml", "overnight-oats.jsonld", "plain-recipes.yaml", "sample.paprikarecipes", "shakshuka.cook",
        "tomato-salad.yaml", "chowdown-master.zip", "cookbookapp-export.zip", "cookbookapp-yaml.zip",
        "bigoven-recipes.json",
    ]

    /// Where each format's export goes.
    static func output(_ format: ExportFormat) -> String {
        switch format {
        case .cooklang: "cook-out"
        case .nextcloud: "nextcloud-out"
        default: "out.\(format.fileExtension)"
        }
    }

    /// The recipes of every sample, as one Larder records file.
    static func allSamples(in dir: TemporaryDirectory) throws -> (String, Int) {
        var recipes: [Recipe] = []
        for name in recordSamples {
            let reader = try RecordIO.openReader(path: CLI.packageRoot.appendingPathComponent("samples/\(name)").path)
            while let item = try reader.next() {
                let recipe = try Recipe(value: item.value)
                if !recipe.sync.isDeleted, recipe.validate().isEmpty { recipes.append(recipe) }
            }
        }
        for (index, name) in importSamples.enumerated() {
            let (_, imported) = try ExportFixtures.importRecipes(
                ImportFixtures.sample(name), format: nil, into: dir, name: "sample-\(index)")
            recipes.append(contentsOf: imported)
        }
        // Titles repeat across the samples; ids must not, for one records file.
        var ids = Set<String>()
        recipes = recipes.filter { ids.insert($0.id).inserted }
        let path = dir.path("all.json")
        try ExportFixtures.writeRecords(recipes, to: path)
        return (path, recipes.count)
    }

    /// The formats an importer reads back (the HTML and Markdown cookbooks have their own tests).
    static let readBack = ExportFormat.allCases.filter { $0.importFormat != nil }

    @Test("every sample exports through every exporter and imports back, none rejected", arguments: readBack)
    func everySampleEveryExporter(format: ExportFormat) throws {
        let dir = try TemporaryDirectory()
        let (records, count) = try Self.allSamples(in: dir)
        #expect(count > 10)
        let output = dir.path(Self.output(format))
        let summary = try ExportFixtures.export(records, to: format, output: output)
        #expect(summary.exported.count == count)
        #expect(summary.rejected.isEmpty)
        let back = try ImportSession(
            options: ImportSession.Options(outputPath: dir.path("back.json"), keepGoing: true, importedAt: fixtureDate)
        ).run([(output, format.importFormat)])
        #expect(back.rejected.isEmpty, "\(format): \(back.rejected.map { "\($0.origin): \($0.reason ?? "")" })")
        // Every recipe comes back; importers that tell duplicates by name report them as such.
        #expect(back.imported.count + back.duplicates.count == count, "\(format)")
        if format == .cooklang || format == .nextcloud { return }
        if let ok = ExportFixtures.unzipAccepts(output), [.paprika, .mealie, .tandoor, .mela].contains(format) {
            #expect(ok, "unzip -t refuses the \(format) archive")
        }
    }
}
