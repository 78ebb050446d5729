import Foundation
import LarderTestSupport
import Testing

/// `larder import` of app exports (RecipeSage, Plan to Eat, MyRecipeBox, Recipe Keeper) through the built binary.
@Suite struct AppExportCLITests {
    private func sample(_ name: String) -> String {
        CLI.packageRoot.appendingPathComponent("samples/import/\(name)").path
    }

    @Test("the four app samples import by detection in one run, each reported in the census under its own name")
    func importsAppSamples() throws {
        let dir = try TemporaryDirectory()
        let inputs = ["recipesage-recipes.json", "plantoeat-recipes.csv", "myrecipebox.csv", "recipekeeper-export.zip"]
        let result = try CLI.run(["import"] + inputs.map(sample) + ["-o", dir.path("apps.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("9 imported, 0 rejected"), "\(result.stderr)")
        for name in [
            "RecipeSage (3 records)", "Plan to Eat (2 records)", "MyRecipeBox (2 records)", "Recipe Keeper (2 records)",
        ] {
            #expect(result.stderr.contains(name), "census lacks \(name): \(result.stderr)")
        }
        #expect(result.stderr.contains("recipeShareId: 2 kept in extras"), "\(result.stderr)")
        let again = try CLI.run(["import"] + inputs.map(sample) + ["-o", dir.path("apps.json"), "--merge"])
        #expect(again.stderr.contains("0 imported, 0 rejected, 9 duplicate"), "\(again.stderr)")
    }

    @Test("a file no format claims exits 2 naming the formats it was checked against")
    func unclaimedFile() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("notes.txt", "just words\n")
        let result = try CLI.run(["import", path, "-o", dir.path("out.json")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("matches none of Beanconqueror, "), "\(result.stderr)")
        for name in ["Pepperplate", "Saffron", "Plan to Eat", "MyRecipeBox", "CSV", "Gourmet", "Cookmate", "Domestica"]
        {
            #expect(result.stderr.contains(name), "\(name) is not named: \(result.stderr)")
        }
        #expect(result.stderr.contains("pass --from"), "\(result.stderr)")
    }
}
