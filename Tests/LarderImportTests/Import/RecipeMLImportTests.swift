import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct RecipeMLImportTests {
    @Test("imports RecipeML declared as ISO-8859-1, without fetching its DTD")
    func importsLatin1Sample() throws {
        let sink = ImportCollector()
        try RecipeMLImporter().importItems(at: ImportFixtures.sample("cafe-scones.xml"), context: sink.context)
        let scones = try #require(sink.recipes.first?.0)
        #expect(scones.title == "Café Scones")
        #expect(
            scones.ingredients == [
                "2 cups self-raising flour", "1/4 cup caster sugar", "60 g cold butter, cubed", "3/4 cup milk",
                "crème fraîche & jam",
            ])
        #expect(scones.ingredientHeadings == [4: "To serve"])
        #expect(scones.steps.count == 4)
        #expect(scones.servings == 8)
        #expect(scones.prepMinutes == 15)
        #expect(scones.cookMinutes == 12)
        #expect(scones.categories == ["Baking", "Teatime"])
    }

    @Test("never expands entities a document declares, and names line and column of malformed XML")
    func refusesHostileAndMalformedXML() throws {
        let dir = try TemporaryDirectory()
        let bomb = try dir.write(
            "bomb.xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<recipeml><recipe><head><title>Tea &b;</title></head><directions><step>Brew.</step></directions></recipe></recipeml>"
        )
        let sink = ImportCollector()
        try RecipeMLImporter().importItems(at: bomb, context: sink.context)
        let title = try #require(sink.recipes.first?.0.title)
        #expect(!title.contains("aaaaaaaaaa"))
        let broken = try dir.write("broken.xml", "<recipeml>\n<recipe><head><title>X</title></head>\n</recipeml>")
        let error = try #require(throws: LarderError.self) {
            try RecipeMLImporter().importItems(at: broken, context: ImportCollector().context)
        }
        #expect(error.code == .syntax)
        #expect(error.location?.line == 3)
    }

    @Test("round-trips through the RecipeML exporter")
    func roundTripsExport() throws {
        let dir = try TemporaryDirectory()
        let input = dir.path("in.json")
        let writer = try RecordIO.openWriter(path: input, format: .json)
        try writer.write(Recipe.make().value)
        try writer.finish()
        _ = try ExportSession(inputs: [input], format: .recipeml, outputPath: dir.path("out.xml"), keepGoing: false).run
        { _, e in throw e }
        let sink = ImportCollector()
        try RecipeMLImporter().importItems(at: dir.path("out.xml"), context: sink.context)
        let back = try #require(sink.recipes.first?.0)
        #expect(back.title == "Pasta Carbonara")
        #expect(back.ingredients == ["200 g spaghetti", "2 eggs"])
        #expect(back.steps.map(\.text) == ["Boil the pasta", "Mix"])
        #expect(back.prepMinutes == 15)
        #expect(back.cookMinutes == 20)
        #expect(back.servings == 4)
    }
}
