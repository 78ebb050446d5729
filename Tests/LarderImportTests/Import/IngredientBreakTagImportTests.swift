import LarderCore
import LarderFormats
import Testing

@testable import LarderImport

/// A schema.org `recipeIngredient` given as one string whose lines are parted by HTML tags
/// rather than line breaks (issue 29 part 4).
@Suite struct IngredientBreakTagImportTests {
    @Test("one ingredient string parted by <br>, </li> or an escaped <br> gives a line each, as one parted by newlines")
    func breakTagsPartLines() throws {
        let texts: [String] = [
            "1 cup flour<br>2 eggs<br />a pinch of salt",
            "<ul><li>1 cup flour</li><li>2 eggs</li><li>a pinch of salt</li></ul>",
            "1 cup flour&lt;br&gt;2 eggs&lt;br/&gt;a pinch of salt",
        ]
        for text in texts {
            let node: Value = ["@type": "Recipe", "name": "Batter", "recipeIngredient": .string(text)]
            let recipe = try SchemaOrgRecipeParser().parse(node)
            #expect(recipe.ingredients == ["1 cup flour", "2 eggs", "a pinch of salt"], "\(text)")
        }
    }

    @Test("an ingredient with inline markup stays one line")
    func inlineMarkupStaysOneLine() throws {
        let node: Value = [
            "@type": "Recipe", "name": "Toast", "recipeIngredient": ["2 slices <b>sourdough</b> &amp; butter"],
        ]
        let recipe = try SchemaOrgRecipeParser().parse(node)
        #expect(recipe.ingredients == ["2 slices sourdough & butter"])
    }
}
