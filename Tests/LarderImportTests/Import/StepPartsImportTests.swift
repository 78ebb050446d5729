import LarderCore
import LarderFormats
import Testing

@testable import LarderImport

/// schema.org `HowToStep`s whose text is given in parts: `HowToDirection`s and `HowToTip`s in the
/// step's `itemListElement` (issue 29 part 4).
@Suite struct StepPartsImportTests {
    @Test("a step given as directions and a tip keeps every part, in order, as one step")
    func everyPartKept() throws {
        let node: Value = [
            "@type": "Recipe", "name": "Omelette",
            "recipeInstructions": [
                [
                    "@type": "HowToStep",
                    "itemListElement": [
                        ["@type": "HowToDirection", "text": "Whisk the eggs."],
                        ["@type": "HowToDirection", "text": "Season them."],
                        ["@type": "HowToTip", "text": "A fork will do."],
                    ],
                ],
                ["@type": "HowToStep", "itemListElement": ["@type": "HowToDirection", "text": "Fry gently."]],
                ["@type": "HowToStep", "text": "Fold and serve."],
            ],
        ]
        let recipe = try SchemaOrgRecipeParser().parse(node)
        #expect(
            recipe.steps.map(\.text) == [
                "Whisk the eggs. Season them. A fork will do.", "Fry gently.", "Fold and serve.",
            ])
    }
}
