import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct PaprikaImportTests {
    @Test("imports every recipe of a .paprikarecipes archive with its photo")
    func importsSampleArchive() throws {
        let sink = ImportCollector()
        try PaprikaImporter().importItems(at: ImportFixtures.sample("sample.paprikarecipes"), context: sink.context)
        #expect(sink.titles == ["Weeknight Red Lentil Soup", "Buttermilk Pancakes", "Lemon Herb Roast Chicken"])
        #expect(sink.rejects.isEmpty)
        let pancakes = sink.recipes[1].0
        #expect(pancakes.ingredients.first == "2 cups flour")
        #expect(pancakes.steps.count == 4)
        #expect(pancakes.yieldText == "12 pancakes")
        #expect(pancakes.larderID == "5E0D7C1A-4F1B-4A57-9C2E-7A1D2B3C4D02")
        guard case .data(let bytes, let ext)? = pancakes.images.first else {
            Issue.record("the photo was not kept")
            return
        }
        #expect(ext == "png")
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let chicken = sink.recipes[2].0
        #expect(chicken.cookMinutes == 70)
        #expect(chicken.difficulty == .medium)
    }

    @Test("rejects a bad entry with its entry name and field path, and imports the rest")
    func isolatesBadEntries() throws {
        let dir = try TemporaryDirectory()
        let good =
            #"{"uid":"11111111-2222-3333-4444-555555555555","name":"Good","ingredients":"1 egg","directions":"Boil it."}"#
        let badField = #"{"uid":"x","name":"Bad categories","categories":[1,2],"ingredients":"","directions":""}"#
        try ImportFixtures.zip(
            [
                ("Good.paprikarecipe", try ImportFixtures.gzip(good)),
                ("Broken.paprikarecipe", Array("not gzip, not json".utf8)),
                ("Bad.paprikarecipe", try ImportFixtures.gzip(badField)),
            ], at: dir.path("mixed.paprikarecipes"))
        let sink = ImportCollector()
        try PaprikaImporter().importItems(at: dir.path("mixed.paprikarecipes"), context: sink.context)
        #expect(sink.titles == ["Good"])
        #expect(sink.rejects.count == 2)
        let broken = try #require(sink.rejects.first { $0.1.entry == "Broken.paprikarecipe" })
        #expect(broken.0.code == .syntax)
        let bad = try #require(sink.rejects.first { $0.1.entry == "Bad.paprikarecipe" })
        #expect(bad.0.location?.fieldPath?.description == "categories[0]")
        #expect(bad.0.description.contains("mixed.paprikarecipes!Bad.paprikarecipe"))
    }

    @Test("imports a single gzip .paprikarecipe")
    func importsSingleRecipe() throws {
        let dir = try TemporaryDirectory()
        let json =
            #"{"uid":"AAAAAAAA-2222-3333-4444-555555555555","name":"Toast","ingredients":"1 slice bread\n\nbutter","directions":"Toast.\nButter.","servings":"1","cook_time":"3 mins"}"#
        try Data(try ImportFixtures.gzip(json)).write(to: URL(fileURLWithPath: dir.path("toast.paprikarecipe")))
        let sink = ImportCollector()
        try PaprikaImporter().importItems(at: dir.path("toast.paprikarecipe"), context: sink.context)
        let toast = try #require(sink.recipes.first?.0)
        #expect(toast.ingredients == ["1 slice bread", "butter"])
        #expect(toast.steps.map(\.text) == ["Toast.", "Butter."])
        #expect(toast.cookMinutes == 3)
        #expect(toast.servings == 1)
    }
}

@Suite struct ExportRoundTripTests {
    private func recipe() -> Recipe {
        Recipe(
            id: "8C1A53F0-0000-4000-8000-00000000ABCD", title: "Roast Squash & Feta",
            // Structured as Larder's ingredient-line parser reads the lines, as an app would store them.
            ingredients: ["1 butternut squash, cubed", "200 g feta", "½ tsp chilli flakes"].map(IngredientLines.make),
            instructions: [
                InstructionStep(text: "Roast the squash at 200 °C.", timerSeconds: 1800),
                InstructionStep(text: "Crumble over the feta."),
            ],
            createdAt: Date(timeIntervalSince1970: 1_709_280_000),
            updatedAt: Date(timeIntervalSince1970: 1_709_366_400), ownerID: "user-42",
            imageRef: "https://larder.example/squash.jpg", cuisine: "Greek", difficulty: .easy, prepTime: 10,
            cookTime: 30, servings: 4,
            dietaryNotes: ["Vegetarian"], tags: ["autumn", "traybake, easy"], isPublic: false,
            sourceURL: "https://larder.example/squash",
            isSaved: true, isCreated: false, isFavorited: true)
    }

    private func importBack(_ path: String, format: ImportFormat) throws -> Recipe {
        let dir = try TemporaryDirectory()
        let session = try ImportSession(
            options: ImportSession.Options(outputPath: dir.path("back.json"), importedAt: fixtureDate))
        let report = try session.run([(path, format)])
        #expect(report.imported.count == 1)
        let reader = try RecordIO.openReader(path: dir.path("back.json"))
        return try Recipe(value: try #require(try reader.next()).value)
    }

    private func write(_ recipe: Recipe, format: ExportFormat, to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let input = dir + "/in.json"
        let writer = try RecordIO.openWriter(path: input, format: .json)
        try writer.write(recipe.value)
        try writer.finish()
        _ = try ExportSession(inputs: [input], format: format, outputPath: path, keepGoing: false).run { _, error in
            throw error
        }
    }

    @Test("Larder → schema.org → Larder keeps every field schema.org can hold")
    func schemaOrgRoundTrip() throws {
        let dir = try TemporaryDirectory()
        let original = recipe()
        try write(original, format: .schemaorg, to: dir.path("out.jsonld"))
        let back = try importBack(dir.path("out.jsonld"), format: .schemaorg)
        var expected = original
        // schema.org has no place for difficulty, visibility or the user's set memberships.
        expected.difficulty = nil
        expected.isFavorited = false
        expected.isCreated = false
        #expect(back == expected)
    }

    @Test("Larder → Paprika → Larder keeps every field Paprika can hold")
    func paprikaRoundTrip() throws {
        let dir = try TemporaryDirectory()
        let original = recipe()
        try write(original, format: .paprika, to: dir.path("out.paprikarecipes"))
        let back = try importBack(dir.path("out.paprikarecipes"), format: .paprika)
        var expected = original
        // Paprika holds no owner, cuisine, diets, step timers, modification date or set memberships.
        expected.ownerID = nil
        expected.cuisine = nil
        expected.dietaryNotes = []
        expected.instructions = original.instructions.map { InstructionStep(text: $0.text) }
        expected.updatedAt = original.createdAt
        expected.isCreated = false
        #expect(back == expected)
    }

    @Test("a Paprika export is laid out as Paprika's own: gzip JSON entries named after the recipes")
    func paprikaLayout() throws {
        let dir = try TemporaryDirectory()
        try write(recipe(), format: .paprika, to: dir.path("out.paprikarecipes"))
        let archive = try ZipArchive(path: dir.path("out.paprikarecipes"))
        let entry = try #require(try archive.nextEntry())
        #expect(entry.path == "Roast Squash & Feta.paprikarecipe")
        let source = PeekableByteSource(try archive.open(entry))
        #expect(GzipReader.isGzip(try source.peek(2)))
        let object = try JSONLDBlocks.parse(try GzipReader(source))
        for key in [
            "uid", "name", "ingredients", "directions", "servings", "prep_time", "cook_time", "categories", "created",
            "hash", "photo_data",
        ] {
            #expect(object.objectValue?.contains(key: key) == true, "\(key)")
        }
        #expect(try archive.nextEntry() == nil)
    }
}
