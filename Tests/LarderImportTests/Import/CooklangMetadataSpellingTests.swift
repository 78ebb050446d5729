import Foundation
import LarderCore
import LarderTestSupport
import Testing

@testable import LarderImport

/// Cooklang front matter as people write it (issue 29 part 2): every spelling of a time or a
/// nutrient their community uses fills Larder's field; references to other recipes stay references.
@Suite struct CooklangMetadataSpellingTests {
    private func imported(_ text: String) throws -> ImportedRecipe {
        let dir = try TemporaryDirectory()
        let path = try dir.write("r.cook", text)
        let sink = ImportCollector()
        try CooklangImporter().importItems(at: path, context: sink.context)
        return try #require(sink.recipes.first?.0)
    }

    @Test(
        "times in every spelling",
        arguments: [
            "prep time: 10 min\ncook time: 20 min\ntotal time: 30 min",
            "prep_time: 10 min\ncook_time: 20 min\ntotal_time: 30 min",
            "prep: 10 min\ncook: 20 min\ntotal: 30 min",
            "time:\n  prep: 10 min\n  cook: 20 min\n  total: 30 min",
            "time: {prep: 10 min, cook: 20 min, total: 30 min}",
            "Prep-Time: 10 minutes\nCooking Time: 20 minutes\nduration: 30 minutes",
        ])
    func times(_ frontMatter: String) throws {
        let recipe = try imported("---\ntitle: Soup\n\(frontMatter)\n---\nBoil @water{1%l}.\n")
        #expect(recipe.prepMinutes == 10 && recipe.cookMinutes == 20 && recipe.totalMinutes == 30)
        #expect(recipe.extras["cooklang"] == nil, "\(recipe.extras)")
        #expect(recipe.fieldCensus.entries.allSatisfy { $0.fate != .extras }, "\(recipe.fieldCensus.entries)")
    }

    @Test("nutrients fill nutrition; a time no reading understands stays in extras as written")
    func nutritionAndUnreadable() throws {
        let recipe = try imported(
            "---\ntitle: Soup\ncalories: 320 kcal\nprotein: 12 g\nnutrition:\n  fat: 9 g\nprep time: a while\nprep: 5 min\n---\nBoil @water{1%l}.\n"
        )
        #expect(recipe.nutrition["calories"] == "320 kcal" && recipe.nutrition["proteinContent"] == "12 g")
        #expect(recipe.nutrition["fatContent"] == "9 g")
        #expect(recipe.prepMinutes == 5)
        #expect(recipe.extras["cooklang"]?["prep time"] == "a while", "\(recipe.extras)")
        #expect(recipe.fieldCensus.fate(of: "calories") == .carried("nutrition"))
    }

    @Test("a recipe reference is named as the recipe, and the path stays in the line's note")
    func references() throws {
        let recipe = try imported(
            "Use the @./Shared/Pizza Dough{6%balls} and @../Sauces/Pesto.cook{2%tbsp}(fresh) on @flour{}.\n")
        #expect(
            recipe.ingredients == [
                "6 balls Pizza Dough (recipe: ./Shared/Pizza Dough)",
                "2 tbsp Pesto (fresh; recipe: ../Sauces/Pesto.cook)", "flour",
            ])
        #expect(recipe.steps.first?.text == "Use the Pizza Dough and Pesto on flour.")
    }

    @Test(
        "CookCLI's seed: every recipe whose front matter gives a time has it",
        .enabled(if: Corpus.has("exports/cooklang"), "needs ../shared/corpus/exports/cooklang (or LARDER_CORPUS)"))
    func seedTimes() throws {
        let root = Corpus.path("exports/cooklang/cookcli-seed")
        let files =
            FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".cook")
            } ?? []
        #expect(files.count >= 12)
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            let sink = ImportCollector()
            try CooklangImporter().importItems(at: root + "/" + file, context: sink.context)
            let recipe = try #require(sink.recipes.first?.0, "\(file)")
            let saysTime = text.lowercased().contains("time:") || text.lowercased().contains("prep:")
            if saysTime {
                #expect(recipe.prepMinutes != nil || recipe.cookMinutes != nil || recipe.totalMinutes != nil, "\(file)")
            }
            #expect(!recipe.ingredients.contains { $0.contains("./") && !$0.contains("recipe: ") }, "\(file)")
        }
    }
}
