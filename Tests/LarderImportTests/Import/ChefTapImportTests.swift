import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct ChefTapImportTests {
    @Test("the sample export: title line, the ingredient paragraph, directions, description and source URL")
    func importsSample() throws {
        let sink = ImportCollector()
        try ChefTapImporter().importItems(at: ImportFixtures.sample("cheftap-export.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.titles == ["Chocolate Oat Cookies", "Green Shakshuka"])
        let cookies = try #require(sink.recipes.first?.0)
        #expect(sink.recipes.first?.1.entry == "cheftap_export/Chocolate Oat Cookies.txt")
        #expect(cookies.ingredients.count == 7)
        #expect(cookies.ingredients.first == "115 g butter, soft")
        #expect(cookies.ingredients[1] == "½ cup brown sugar")
        #expect(cookies.steps.map(\.text).first == "Heat the oven to 180 °C.")
        #expect(cookies.steps.count == 4)
        #expect(cookies.sourceURL == "https://larder.example/recipes/chocolate-oat-cookies")
        #expect(cookies.description == nil)
        #expect(cookies.fieldCensus.fate(of: "source") == .carried("sourceURL"))
        #expect(cookies.fieldCensus.fate(of: "directions") == .carried("instructions"))
        let shakshuka = try #require(sink.recipes.last?.0)
        #expect(shakshuka.description == "A weeknight pan of eggs in greens.")
        #expect(shakshuka.ingredients.last == "Salt and pepper")
        #expect(
            shakshuka.steps.map(\.text) == [
                "Soften the leek in the oil.", "Wilt the spinach and season.",
                "Make four wells, crack in the eggs and cover until set.",
            ])
        #expect(shakshuka.sourceURL == nil)
    }

    @Test("an empty file, a title alone or a binary file is rejected with its entry and where; the others import")
    func rejectsPerFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("cheftap.zip")
        try ImportFixtures.zip(
            [
                ("cheftap_export/Empty.txt", Array("\n\n".utf8)),
                ("cheftap_export/Tea.txt", Array("Tea\n\n1 tea bag\n\nBrew for 3 minutes.\n".utf8)),
                ("cheftap_export/Lonely.txt", Array("Lonely title\n\nhttps://larder.example/x\n".utf8)),
                ("cheftap_export/Photo.txt", [0xFF, 0xD8, 0x00, 0x10, 0x0A]),
            ], at: path)
        #expect(try ImportFormat.detect(path: path) == .cheftap)
        let sink = ImportCollector()
        try ChefTapImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tea"])
        #expect(
            sink.rejects.map(\.1.entry) == [
                "cheftap_export/Empty.txt", "cheftap_export/Lonely.txt", "cheftap_export/Photo.txt",
            ])
        #expect(sink.rejects[0].0.location?.fieldPath?.description == "title")
        #expect(sink.rejects[1].0.location?.fieldPath?.description == "ingredients")
        #expect(sink.rejects[2].0.location?.line == 1)
        #expect(sink.rejects[2].0.message.contains("not a text file"))
    }

    @Test("a cheftap_export folder is detected and read; a lone unlabelled .txt is claimed by no format")
    func detectsFolderNotLoneFile() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("cheftap_export"), withIntermediateDirectories: true)
        let file = try dir.write("cheftap_export/Tea.txt", "Tea\n\n1 tea bag\n\nBrew.\n")
        #expect(try ImportFormat.detect(path: dir.path("cheftap_export")) == .cheftap)
        #expect(try ImportFormat.detect(path: dir.path("")) == .cheftap)
        let sink = ImportCollector()
        try ChefTapImporter().importItems(at: dir.path("cheftap_export"), context: sink.context)
        #expect(sink.titles == ["Tea"])
        let error = try #require(throws: LarderError.self) { try ImportFormat.detect(path: file) }
        #expect(error.code == .usage)
        let lone = ImportCollector()
        try ChefTapImporter().importItems(at: file, context: lone.context)
        #expect(lone.titles == ["Tea"])
    }

    @Test("an ingredient paragraph starts with an amount (½, 1.5); a numbered paragraph is directions")
    func quantityLines() throws {
        let dir = try TemporaryDirectory()
        let numbered = try dir.write("Soup.txt", "Soup\n\n1. Heat the oil.\n2) Stir in the stock.\n")
        let sink = ImportCollector()
        try ChefTapImporter().importItems(at: numbered, context: sink.context)
        #expect(sink.recipes.first?.0.ingredients == [])
        #expect(sink.recipes.first?.0.steps.map(\.text) == ["Heat the oil.", "Stir in the stock."])
        let amounts = try dir.write("Stock.txt", "Stock\nserves many\n\n½ lemon\n1.5 l water\n\nSimmer.\n")
        let other = ImportCollector()
        try ChefTapImporter().importItems(at: amounts, context: other.context)
        #expect(other.recipes.first?.0.ingredients == ["½ lemon", "1.5 l water"])
        #expect(other.recipes.first?.0.description == "serves many")
        #expect(other.recipes.first?.0.steps.map(\.text) == ["Simmer."])
    }

    @Test("a re-run of the sample into the same output adds nothing")
    func reRunAddsNothing() throws {
        let dir = try TemporaryDirectory()
        let report = try ImportFixtures.expectReRunAddsNothing(
            ImportFixtures.sample("cheftap-export.zip"), imports: 2, in: dir)
        #expect(report.census.records[.cheftap] == 2)
    }
}
