import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct PepperplateImportTests {
    @Test("the sample export: header labels, tab-indented blocks, times, yield, image URL and notes")
    func importsSample() throws {
        let sink = ImportCollector()
        try PepperplateImporter().importItems(
            at: ImportFixtures.sample("pepperplate-export.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty)
        #expect(sink.warnings.isEmpty)
        #expect(sink.titles == ["Lemon Ricotta Pancakes", "Tomato Bread Soup"])
        let pancakes = try #require(sink.recipes.first?.0)
        #expect(pancakes.description == "Light pancakes for a slow Sunday.")
        #expect(pancakes.sourceName == "Larder Test Kitchen")
        #expect(pancakes.sourceURL == "https://larder.example/recipes/lemon-ricotta-pancakes")
        #expect(pancakes.servings == 4)
        #expect(pancakes.prepMinutes == 15)
        #expect(pancakes.totalMinutes == 30)
        #expect(pancakes.images == [.url("https://larder.example/images/lemon-ricotta-pancakes.jpg")])
        #expect(
            pancakes.ingredients == [
                "1 cup ricotta", "2 eggs, separated", "3/4 cup flour", "1 tbsp sugar", "Zest of 1 lemon",
            ])
        #expect(pancakes.steps.count == 3)
        #expect(pancakes.steps.first?.text == "Whisk the ricotta, yolks, sugar and zest.")
        #expect(pancakes.notes == "Keep them warm in a low oven.")
        #expect(pancakes.fieldCensus.fate(of: "Active") == .carried("prepTime"))
        #expect(pancakes.fieldCensus.fate(of: "Original URL") == .carried("sourceURL"))
        let soup = try #require(sink.recipes.last?.0)
        #expect(sink.recipes.last?.1.entry == "Tomato Bread Soup.txt")
        // Labels written empty are no value and not counted.
        #expect(soup.description == nil && soup.sourceURL == nil && soup.prepMinutes == nil)
        #expect(soup.fieldCensus.fate(of: "Description") == nil)
        #expect(soup.totalMinutes == 70)
        #expect(soup.servings == 6)
        #expect(soup.steps.last?.text == "Serve warm with torn basil.")
        #expect(soup.notes == "Better the next day.\nThin with stock when reheating.")
        #expect(soup.extras.isEmpty)
    }

    @Test("an unknown label and a time that is not one are kept in extras; a Word: line inside a block stays in it")
    func keepsWhatItCannotRead() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "toast.txt",
            "Title: Toast\r\nDescription: Crisp.\r\nStill the description.\r\nTags: Breakfast\r\nActive: a while\r\n"
                + "Total: 5 minutes\r\nIngredients:\r\n\t1 slice bread\r\n\r\nInstructions:\r\n\tToast it.\r\n"
                + "Note: watch it closely.\r\n\r\n")
        #expect(try ImportFormat.detect(path: path) == .pepperplate)
        let sink = ImportCollector()
        try PepperplateImporter().importItems(at: path, context: sink.context)
        let toast = try #require(sink.recipes.first?.0)
        #expect(toast.description == "Crisp.\nStill the description.")
        #expect(toast.steps.map(\.text) == ["Toast it.", "Note: watch it closely."])
        #expect(toast.prepMinutes == nil)
        #expect(toast.fieldCensus.fate(of: "Active") == .extras)
        #expect(toast.fieldCensus.fate(of: "Tags") == .extras)
        let extras = try #require(toast.extras["pepperplate"]?.objectValue)
        #expect(extras["Tags"] == .string("Breakfast"))
        #expect(extras["Active"] == .string("a while"))
    }

    @Test(
        "a file without a title, with text before its first label or not text is rejected with its entry; the rest import"
    )
    func rejectsPerFile() throws {
        let dir = try TemporaryDirectory()
        let good = "Title: Tea\r\nTotal: 5 minutes\r\nIngredients:\r\n\t1 tea bag\r\n\r\nInstructions:\r\n\tBrew.\r\n"
        let path = dir.path("export.zip")
        try ImportFixtures.zip(
            [
                ("Tea.txt", Array(good.utf8)),
                ("Untitled.txt", Array("Title: \r\nIngredients:\r\n\t1 egg\r\n".utf8)),
                ("Scrap.txt", Array("Title: Scrap\r\n".utf8).map { $0 }),
                ("Junk.txt", Array("a stray line\r\nTitle: Junk\r\n".utf8)),
                ("Binary.txt", [0x54, 0x69, 0x74, 0x6C, 0x65, 0x3A, 0x00, 0x01]),
            ], at: path)
        #expect(try ImportFormat.detect(path: path) == .pepperplate)
        let sink = ImportCollector()
        try PepperplateImporter().importItems(at: path, context: sink.context)
        #expect(sink.titles == ["Tea", "Scrap"])
        #expect(sink.rejects.map(\.1.entry) == ["Untitled.txt", "Junk.txt", "Binary.txt"])
        #expect(sink.rejects[0].0.location?.fieldPath?.description == "Title")
        #expect(sink.rejects[0].0.location?.line == 1)
        #expect(sink.rejects[1].0.location?.line == 1)
        #expect(sink.rejects[1].0.message.contains("before the first label"))
        #expect(sink.rejects[2].0.message.contains("not a text file"))
        #expect(sink.rejects.allSatisfy { $0.0.location?.file?.hasSuffix("export.zip!" + ($0.1.entry ?? "")) == true })
    }

    @Test(
        "detection reads content: a lone .txt or a folder of them is Pepperplate, a labelled file without Active/Total is not"
    )
    func detectsByContent() throws {
        let dir = try TemporaryDirectory()
        let text = "Title: Tea\nActive: 2 minutes\nIngredients:\n\t1 tea bag\nInstructions:\n\tBrew.\n"
        #expect(try ImportFormat.detect(path: try dir.write("Tea.txt", text)) == .pepperplate)
        #expect(try ImportFormat.detect(path: try dir.write("tea.dat", text)) == .pepperplate)
        try FileManager.default.createDirectory(atPath: dir.path("export"), withIntermediateDirectories: true)
        _ = try dir.write("export/Tea.txt", text)
        #expect(try ImportFormat.detect(path: dir.path("export")) == .pepperplate)
        let sink = ImportCollector()
        try PepperplateImporter().importItems(at: dir.path("export"), context: sink.context)
        #expect(sink.recipes.map(\.1.entry) == ["Tea.txt"])
        let other = try dir.write("other.txt", "Title: Tea\nIngredients:\n\t1 tea bag\nInstructions:\n\tBrew.\n")
        // Without Pepperplate's own labels it is left to the other formats (here: a plain YAML-like recipe).
        #expect((try? ImportFormat.detect(path: other)) != .pepperplate)
    }

    @Test("a re-run of the sample into the same output adds nothing")
    func reRunAddsNothing() throws {
        let dir = try TemporaryDirectory()
        let report = try ImportFixtures.expectReRunAddsNothing(
            ImportFixtures.sample("pepperplate-export.zip"), imports: 2, in: dir)
        #expect(report.census.records[.pepperplate] == 2)
    }
}
