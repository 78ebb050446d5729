import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// schema.org `HowToStep`s named "Step 1", "Step 2" (issue 29 part 4): a name that only numbers
/// the step is neither a heading nor a step of its own.
@Suite struct StepNameImportTests {
    @Test(
        "names that only number the step",
        arguments: [
            "Step 1", "step1", "Stap 3:", "stap 10", "Schritt 2", "Étape 4", "1.", "#2", "Paso 5)", " 12 ", "Krok 2.",
        ])
    func numbering(name: String) {
        #expect(StepLabel.onlyNumbers(name))
    }

    @Test(
        "names that say something",
        arguments: ["Marinate", "Step one", "Bake 30 minutes", "Day 1", "Prepare the dough", "2 hours", "1234", "Step"])
    func saying(name: String) {
        #expect(!StepLabel.onlyNumbers(name))
    }

    @Test("a numbered step's name is left out (the census says why); a name that says something stays before its step")
    func importedSteps() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(
            "r.json",
            """
            {"@context": "https://schema.org", "@type": "Recipe", "name": "Biscuits", "recipeIngredient": ["flour"],
             "recipeInstructions": [
               {"@type": "HowToStep", "name": "Step 1", "text": "Preheat the oven."},
               {"@type": "HowToStep", "name": "Stap 2:", "text": "Mix the flour."},
               {"@type": "HowToStep", "name": "Rest", "text": "Let the dough rest."}]}
            """)
        let sink = ImportCollector()
        try SchemaOrgImporter().importItems(at: path, context: sink.context)
        let recipe = try #require(sink.recipes.first?.0)
        #expect(recipe.steps.map(\.text) == ["Preheat the oven.", "Mix the flour.", "Rest", "Let the dough rest."])
        let fates = recipe.fieldCensus.entries.filter { $0.field == "recipeInstructions[].name" }.map(\.fate)
        #expect(fates.contains(.dropped(#"only numbers the step ("Step 1"): the steps keep their order"#)), "\(fates)")
        #expect(fates.contains(.carried("instructions")), "\(fates)")
    }
}
