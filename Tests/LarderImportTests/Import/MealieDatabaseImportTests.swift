import LarderCore
import LarderImport
import LarderTestSupport
import Testing

@Suite struct MealieDatabaseImportTests {
    @Test("database.json positions of the wrong type or past any integer (1e300) sort first, no crash")
    func positionsOfTheWrongTypeOrPastAnyInteger() throws {
        let database = """
            {"recipes":[{"id":"r1","name":"Chili","slug":"chili"}],
             "recipes_ingredients":[
               {"id":1,"recipe_id":"r1","position":2,"note":"1 onion"},
               {"id":2,"recipe_id":"r1","position":1e300,"note":"1 tin beans"},
               {"id":3,"recipe_id":"r1","position":"first","note":"1 pepper"}],
             "recipe_instructions":[
               {"id":"i2","recipe_id":"r1","position":-1e300,"text":"Simmer."},
               {"id":"i1","recipe_id":"r1","position":0.5,"text":"Chop."}]}
            """
        let dir = try TemporaryDirectory()
        try ImportFixtures.zip([("database.json", Array(database.utf8))], at: dir.path("mealie.zip"))
        let sink = ImportCollector()
        try MealieImporter().importItems(at: dir.path("mealie.zip"), context: sink.context)
        #expect(sink.rejects.isEmpty, "\(sink.rejects.map(\.0.description))")
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.ingredients == ["1 tin beans", "1 pepper", "1 onion"])
        #expect(recipe.steps.map(\.text) == ["Simmer.", "Chop."])
    }
}
