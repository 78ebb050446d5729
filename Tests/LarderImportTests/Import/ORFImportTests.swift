import Foundation
import LarderCore
import LarderFormats
import LarderImport
import LarderTestSupport
import Testing

@Suite struct ORFImportTests {
    @Test("maps an ORF document: ingredients keyed by name, yields, ranges, None for empty")
    func mapsORFDocument() throws {
        let document: Value = [
            "recipe_uuid": "None", "recipe_name": "Banana Bread", "source_url": "None", "oven_fan": "Off",
            "oven_time": "50 - 60 minutes", "yields": [["amount": 3, "unit": "loaves"]],
            "ingredients": [
                ["All Purpose Flour": ["usda_num": 20581, "amounts": [["amount": "3 1/2", "unit": "cups"]]]],
                ["Butter, Unsalted": ["amounts": [["amount": 1, "unit": "cup"]], "notes": ["Melted"]]],
                ["Bananas": ["amounts": [["amount": 6, "unit": "each"]]]],
            ],
            "steps": [["step": "Preheat oven to 350F."], ["step": "Mix."]],
            "notes": ["High altitude."],
        ]
        let bread = try ORFImporter.recipe(from: document)
        #expect(bread.ingredients == ["3 1/2 cups All Purpose Flour", "1 cup Butter, Unsalted (Melted)", "6 Bananas"])
        #expect(bread.cookMinutes == 60)
        #expect(bread.yieldText == "3 loaves")
        #expect(bread.sourceURL == nil)
        #expect(bread.nativeID == nil)
        #expect(bread.steps.map(\.text) == ["Preheat oven to 350F.", "Mix."])
        let error = try #require(throws: LarderError.self) {
            try ORFImporter.recipe(from: ["recipe_name": "X", "ingredients": [["a": [:], "b": [:]]]])
        }
        #expect(error.location?.fieldPath?.description == "ingredients[0]")
    }

    @Test(
        "nested values the record has no field for are carried or kept: substitutions, USDA numbers, step notes, HACCP, ranges"
    )
    func nestedLeavesKept() throws {
        let document: Value = [
            "recipe_name": "Fruit", "oven_time": "50 - 60 minutes", "yields": [["servings": 4], ["servings": 10]],
            "ingredients": [
                [
                    "apple": [
                        "usda_num": "09003",
                        "amounts": [["amount": 4, "unit": "each"], ["amount": 10, "unit": "each"]],
                        "substitutions": [["pears": ["amounts": [["amount": 4, "unit": "each"]]]]],
                    ]
                ]
            ],
            "steps": [
                [
                    "step": "Hand out the apples", "haccp": ["control_point": "The apples must be clean"],
                    "notes": ["Some people like green"],
                ]
            ],
        ]
        let recipe = try ORFImporter.recipe(from: document)
        #expect(recipe.ingredients == ["4 apple (or 4 pears)"])
        #expect(recipe.cookMinutes == 60)
        #expect(
            recipe.notes
                == "Step 1: Some people like green\nStep 1, HACCP control point: The apples must be clean")
        let kept = try #require(recipe.extras["orf"]?.objectValue)
        #expect(kept["oven_time"] == "50 - 60 minutes")
        #expect(kept["ingredients[0/1].apple.usda_num"] == "09003")
        #expect(kept["ingredients[0/1].apple.amounts"]?.arrayValue?.count == 2)
        #expect(kept["ingredients[0/1].apple.substitutions"] != nil)
        #expect(kept["yields"]?.arrayValue?.count == 2)
    }

    @Test("imports the Open Recipe Format sample, with strict YAML scalars")
    func importsORF() throws {
        let sink = ImportCollector()
        try ORFImporter().importItems(at: ImportFixtures.sample("tomato-salad.yaml"), context: sink.context)
        let salad = try #require(sink.recipes.first?.0)
        #expect(salad.title == "Summer Tomato Salad")
        #expect(
            salad.ingredients == [
                "600 g ripe tomatoes, sliced", "1/2 red onion, thinly sliced", "3 tablespoons olive oil",
                "1 pinch flaky salt",
            ])
        #expect(salad.servings == 4)
        #expect(salad.prepMinutes == 15)
        #expect(salad.cookMinutes == nil)
        #expect(salad.notes?.contains("Leave the dressing Off") == true)
        #expect(salad.steps.count == 2)
    }

    @Test(
        "imports the Open Recipe Format corpus recipes",
        .enabled(if: Corpus.has("orf/banana-bread.yaml"), "needs ../shared/corpus/orf (or LARDER_CORPUS)"))
    func importsORFCorpus() throws {
        let root = URL(fileURLWithPath: Corpus.path("orf"))
        let corpus = ImportCollector()
        try ORFImporter().importItems(
            at: root.appendingPathComponent("banana-bread.yaml").path, context: corpus.context)
        try ORFImporter().importItems(
            at: root.appendingPathComponent("orf-sample-1.yaml").path, context: corpus.context)
        #expect(corpus.rejects.isEmpty)
        let bread = try #require(corpus.recipes.first?.0)
        #expect(bread.title == "Banana Bread")
        #expect(
            bread.ingredients.first
                == "3 1/2 cups All Purpose Flour (or 3 1/2 cups Oat Flour (Make oat flour by processing instant oats in food processor.))"
        )
        #expect(bread.ingredients.contains("1 cup Butter, Unsalted (Melted)"))
        #expect(bread.steps.count == 9)
        #expect(bread.cookMinutes == 60)
        #expect(bread.yieldText == "3 loaves")
        #expect(bread.sourceURL == nil)
        let sample = try #require(corpus.recipes.last?.0)
        #expect(
            sample.ingredients.first
                == "4 apple, whole, raw (Use whole apples; Pears may be substituted, but produce a different flavor and mouthfeel; or 4 pears)"
        )
        #expect(sample.servings == 4)
    }
}
