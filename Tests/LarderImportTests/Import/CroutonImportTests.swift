import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

@Suite struct CroutonImportTests {
    @Test("the sample .crumb: quantities with unit codes and ranges, steps in order with a section, photo, tags")
    func importsSample() throws {
        let sink = ImportCollector()
        try CroutonImporter().importItems(
            at: ImportFixtures.sample("weeknight-chicken-soup.crumb"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        let soup = try #require(sink.recipes.first?.0)
        #expect(soup.title == "Weeknight Chicken Soup")
        #expect(soup.larderID == "3F2504E0-4F89-41D3-9A0C-0305E82C3301")
        #expect(
            soup.ingredients == [
                "¾ lb boneless chicken thighs", "1 yellow onion, chopped", "salt and black pepper",
                "5-6 cup chicken stock",
            ])
        #expect(soup.steps.map(\.isSection) == [true, false, false])
        #expect(soup.servings == 6)
        #expect(soup.prepMinutes == 15)
        #expect(soup.cookMinutes == 30)
        #expect(soup.sourceURL == "https://larder.example/recipes/chicken-soup/")
        #expect(soup.sourceName == "larder.example")
        #expect(soup.keywords == ["Soup", "Freezer"])
        #expect(soup.nutrition["calories"] == "528 kcal")
        #expect(soup.nutrition["proteinContent"] == "31 g")
        #expect(soup.nutrition["servingSize"] == "1 bowl")
        #expect(soup.images.count == 1)
        #expect(soup.fieldCensus.fate(of: "folderIDs") == .extras)
        #expect(soup.extras["crouton"]?.objectValue?["defaultScale"] == .int(1))
    }

    @Test("a nutrition panel in free text: its lines become nutrients, and the whole text is kept when some are not")
    func nutritionPanel() throws {
        let panel = """
            Servings: 2
            1683 Calories
            Total Fat 132g 170%
            Saturated Fat 41g 205%
            Cholesterol 345mg 115%
            Sodium 2051mg 89%
            Total Carbohydrates 38g 14%
            Dietary Fiber 6g 21%
            Protein 84g
            * Percent Daily Values are based on a 2,000 calorie diet.
            """
        let facts = CroutonImporter.nutrition(panel)
        #expect(facts["calories"] == "1683" && facts["fatContent"] == "132g")
        #expect(facts["saturatedFatContent"] == "41g" && facts["cholesterolContent"] == "345mg")
        #expect(facts["sodiumContent"] == "2051mg" && facts["carbohydrateContent"] == "38g")
        #expect(facts["proteinContent"] == "84g" && facts["Servings"] == "2")
        // "Dietary Fiber" and the footnote are no nutrient Larder names: the text stays whole.
        #expect(facts["text"] == panel)
        // Lines that all read leave no text.
        #expect(CroutonImporter.nutrition("Calories: 320 kcal\nProtein 12g")["text"] == nil)
    }

    @Test("a bad image or a missing name rejects that file, with its entry and field path; the others import")
    func rejectsPerFile() throws {
        let dir = try TemporaryDirectory()
        let good = try Array(
            Data(contentsOf: URL(fileURLWithPath: ImportFixtures.sample("weeknight-chicken-soup.crumb"))))
        let path = dir.path("crouton.zip")
        try ImportFixtures.zip(
            [
                ("Soup.crumb", good), ("Nameless.crumb", Array(#"{"uuid":"x","name":" ","steps":[]}"#.utf8)),
                ("Broken.crumb", Array(#"{"name":"Toast","images":["***"]}"#.utf8)),
            ], at: path)
        #expect(try ImportFormat.detect(path: path) == .crouton)
        let sink = ImportCollector()
        try CroutonImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Weeknight Chicken Soup"])
        #expect(sink.rejects.map(\.1.entry) == ["Nameless.crumb", "Broken.crumb"])
        #expect(sink.rejects.map { $0.0.location?.fieldPath?.description } == ["name", "images[0]"])
    }

    @Test("Larder → Crouton → Larder keeps every field Crouton can hold, and a re-import adds nothing")
    func roundTrip() throws {
        let dir = try TemporaryDirectory()
        let (_, records) = try ImportFixtures.session([ImportFixtures.sample("weeknight-chicken-soup.crumb")], in: dir)
        let original = try Recipe(value: try #require(records.first))
        let writer = try RecordIO.openWriter(path: dir.path("in.json"), format: .json)
        try writer.write(original.value)
        try writer.finish()
        _ = try ExportSession(
            inputs: [dir.path("in.json")], format: .crouton, outputPath: dir.path("out.crumb"), keepGoing: false
        ).run { _, error in throw error }
        let text = try String(contentsOfFile: dir.path("out.crumb"), encoding: .utf8)
        #expect(text.contains(#""quantityType":"POUND""#))
        let again = try TemporaryDirectory()
        let (report, backRecords) = try ImportFixtures.session([dir.path("out.crumb")], in: again)
        #expect(report.imported.count == 1, "\(report.rejected)")
        var restored = try Recipe(value: try #require(backRecords.first))
        #expect(restored.id == original.id)
        #expect(restored.ingredients == original.ingredients)
        #expect(restored.instructions == original.instructions)
        #expect(restored.nutrition == original.nutrition)
        #expect(restored.tags == original.tags)
        // The same members, kept by path; their order follows each file's key order.
        let members = { (recipe: Recipe) in
            Set((recipe.extras["crouton"]?.objectValue ?? Fields()).map { "\($0.key)=\($0.value)" })
        }
        #expect(members(restored) == members(original))
        restored.extras = original.extras
        // The photo is written beside each output under its own folder name.
        restored.imageRef = original.imageRef
        restored.images = original.images
        #expect(restored == original)
    }
}
