import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

/// `larder export --to markdown`: Chowdown's front matter and layout.
@Suite struct MarkdownExportTests {
    /// The front matter of a Markdown text, read back by Larder's YAML reader.
    private func frontMatter(_ text: String) throws -> Fields {
        let parts = text.components(separatedBy: "\n---\n")
        #expect(text.hasPrefix("---\n"))
        let yaml = String(try #require(parts.first).dropFirst(4))
        let reader = try YAMLReader(source: MemoryByteSource(Array(yaml.utf8)))
        return try #require(try reader.next()?.value.objectValue)
    }

    private static func tricky() -> Recipe {
        var dough = IngredientLines.make("200 g flour")
        dough.group = "Dough"
        return Recipe(
            id: "r-1", title: "Pie: \"best\" #1", ingredients: [dough, IngredientLines.make("yes")],
            instructions: [InstructionStep(text: "- mix\nthen rest"), InstructionStep(text: "4")],
            createdAt: fixtureDate, prepTime: 90, cookTime: 5, tags: ["on", "sweet"],
            sourceURL: "https://example.com/pie", description: "A pie.\n\nReally.", notes: [RecipeNote(text: "Keeps.")],
            nutrition: Nutrition(calories: "240 kcal", fatContent: "12 mg", sodiumContent: "30 mg"),
            yield: Recipe.Yield(quantity: 8, unit: "slices", text: "8 slices"))
    }

    @Test("the front matter reads back as the same strings, however odd: colons, quotes, 'yes', numbers, line breaks")
    func frontMatterReadsBack() throws {
        let text = MarkdownExporter.text(Self.tricky(), image: "pie.jpg")
        let fields = try frontMatter(text)
        #expect(fields["layout"] == "recipe")
        #expect(fields["title"] == "Pie: \"best\" #1")
        #expect(fields["image"] == "pie.jpg")
        #expect(fields["tags"] == ["on", "sweet"])
        #expect(fields["ingredients"] == ["Dough:", "200 g flour", "yes"])
        #expect(fields["directions"] == ["- mix\nthen rest", "4"])
        #expect(fields["preptime"] == "PT1H30M")
        #expect(fields["cooktime"] == "PT5M")
        #expect(fields["yield"] == "8 slices")
        #expect(fields["url"] == "https://example.com/pie")
        // Chowdown shows calories and sodium followed by their unit: the number alone; fat is in g there.
        #expect(fields["nutrition"] == ["calories": "240", "fatContent": "12 mg", "sodiumContent": "30"])
        #expect(text.hasSuffix("---\n\nA pie.\n\nReally.\n\n## Notes\n\nKeeps.\n"))
        // Chowdown's files: plain scalars where they read back the same.
        #expect(text.contains("\n- 200 g flour\n"))
        #expect(text.contains("\n- \"Dough:\"\n"))
    }

    @Test("a folder export is laid out as a Chowdown site: _recipes/<slug>.md and images/<slug>.<ext>")
    func layout() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("p"), withIntermediateDirectories: true)
        try Data(HTMLCookbookExportTests.jpeg).write(to: URL(fileURLWithPath: dir.path("p/pie.jpg")))
        var pie = Self.tricky()
        pie.imageRef = "p/pie.jpg"
        let other = Recipe(id: "r-2", title: "Pie: best 1", createdAt: fixtureDate)
        try ExportFixtures.writeRecords([pie, other], to: dir.path("records.json"))
        try ExportFixtures.export(dir.path("records.json"), to: .markdown, output: dir.path("site"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path("site/_recipes")).sorted() == [
                "pie-best-1-2.md", "pie-best-1.md",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("site/images")) == ["pie-best-1.jpg"])
        let fields = try frontMatter(try dir.read("site/_recipes/pie-best-1.md"))
        #expect(fields["image"] == "pie-best-1.jpg")
        let bare = try dir.read("site/_recipes/pie-best-1-2.md")
        #expect(bare == "---\n\nlayout: recipe\ntitle: \"Pie: best 1\"\n\n---\n")
        // -o x.zip: the same layout in an archive; -o x.md: one recipe's file.
        try ExportFixtures.export(dir.path("records.json"), to: .markdown, output: dir.path("site.zip"))
        let entries = try ExportFixtures.zipEntries(dir.path("site.zip")).map(\.0).sorted()
        #expect(entries == ["_recipes/pie-best-1-2.md", "_recipes/pie-best-1.md", "images/pie-best-1.jpg"])
        try ExportFixtures.writeRecords([other], to: dir.path("one.json"))
        try ExportFixtures.export(dir.path("one.json"), to: .markdown, output: dir.path("one.md"))
        #expect(try dir.read("one.md") == bare)
    }
}
