import LarderCore
import LarderFormats
import Testing

@testable import LarderImport

/// How ``HTMLText`` reads the HTML that recipe pages put inside their JSON-LD text.
@Suite struct HTMLTextTests {
    @Test("an inline tag leaves no space: a link before a full stop, bold before a comma, a superscript")
    func inlineTagsLeaveNoSpace() {
        #expect(
            HTMLText.normalize("Serve with <a href=\"https://example.com/salsa\">salsa</a>.") == "Serve with salsa.")
        #expect(HTMLText.normalize("1 <b>lemon</b>, zest and juice") == "1 lemon, zest and juice")
        #expect(HTMLText.normalize("Bake at 180<sup>o</sup>C (<em>see note</em>)") == "Bake at 180oC (see note)")
        #expect(HTMLText.normalize("<STRONG>Tip:</STRONG> rest the dough") == "Tip: rest the dough")
    }

    @Test("a tag that breaks the text still parts the words: paragraphs, line breaks, list items, images")
    func blockTagsStillPartWords() {
        #expect(HTMLText.normalize("<p>Mix.</p><p>Bake.</p>") == "Mix. Bake.")
        #expect(HTMLText.normalize("Mix<br/>Bake") == "Mix Bake")
        #expect(HTMLText.normalize("<li>flour</li><li>salt</li>") == "flour salt")
        #expect(HTMLText.normalize("Mix<img src=x>Bake") == "Mix Bake")
        // A tag whose name runs into something else is not taken for an inline one.
        #expect(HTMLText.stripTags("a<b<c>d") == "a d")
        #expect(HTMLText.stripTags("a<bold>d") == "a d")
    }

    @Test("a schema.org ingredient with a linked product reads as the page shows it")
    func schemaOrgIngredientWithLink() throws {
        let node: Value = [
            "@type": "Recipe", "name": "Toast",
            "recipeIngredient": [
                "2 slices <a href=\"/bread\">sourdough</a>, toasted", "1 tbsp <strong>butter</strong>.",
            ],
            "recipeInstructions": "Butter the <em>toast</em>.",
        ]
        let recipe = try SchemaOrgRecipeParser().parse(node)
        #expect(recipe.ingredients == ["2 slices sourdough, toasted", "1 tbsp butter."])
        #expect(recipe.steps.map(\.text) == ["Butter the toast."])
    }
}
