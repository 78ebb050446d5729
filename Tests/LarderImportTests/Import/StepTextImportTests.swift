import Foundation
import LarderCore
import LarderFormats
import LarderTestSupport
import Testing

@testable import LarderImport

/// A method published as one text (issue 29 part 4): split at its line breaks (`\n`, `\r\n`),
/// its inline step numbers or its glued sentences; texts among others in a list stay whole.
@Suite struct StepTextImportTests {
    private func parse(_ json: String) throws -> ImportedRecipe {
        let node = try JSONLDBlocks.parse(MemoryByteSource(Array(json.utf8), name: "r.json"))
        return try SchemaOrgRecipeParser().parse(node)
    }

    @Test("steps numbered inline are split and lose their numbers; 1.5 inside a step is no marker")
    func numberedInline() {
        #expect(
            StepText.numberedSteps("1.Chop the onion 2.Fry it for 1.5 minutes 3) Serve")
                == ["Chop the onion", "Fry it for 1.5 minutes", "Serve"])
        #expect(StepText.numberedSteps("Bake 1. Cool 2.") == nil)
        #expect(StepText.numberedSteps("1. Mix 2. Bake") == nil)
    }

    @Test("sentences glued without a space are split; abbreviations and decimals are not")
    func gluedSentences() {
        #expect(
            StepText.gluedSentences("Line a tin.Snap the chocolate (if using).Sift the flour!)Bake")
                == ["Line a tin.", "Snap the chocolate (if using).", "Sift the flour!)", "Bake"])
        #expect(StepText.gluedSentences("Use U.S. flour, 3.5 cups.") == ["Use U.S. flour, 3.5 cups."])
    }

    @Test("a method in one text with glued sentences becomes its steps")
    func oneTextMethod() throws {
        let recipe = try parse(
            #"{"@type": "Recipe", "name": "Brownies", "recipeInstructions": "Preheat the oven.Melt the butter.Bake."}"#)
        #expect(recipe.steps.map(\.text) == ["Preheat the oven.", "Melt the butter.", "Bake."])
    }

    @Test("a string with Windows line breaks is split, the ingredient list as the method")
    func windowsLineBreaks() throws {
        let recipe = try parse(
            #"{"@type": "Recipe", "name": "Tzatziki", "recipeIngredient": "\r\n2 concombres\r\nSel\r\n ","#
                + #" "recipeInstructions": "Râper.\r\nSaler."}"#)
        #expect(recipe.ingredients == ["2 concombres", "Sel"])
        #expect(recipe.steps.map(\.text) == ["Râper.", "Saler."])
    }

    @Test("a text among others in a list is one step; a wrapped ingredient line stays one line")
    func listElementsStayWhole() throws {
        let recipe = try parse(
            #"{"@type": "Recipe", "name": "Stew", "recipeIngredient": ["1 kg beef", "2 \r\nbay leaves"],"#
                + #" "recipeInstructions": ["Brown the beef.", "Simmer.\r\nTip: add wine."]}"#)
        #expect(recipe.ingredients == ["1 kg beef", "2 bay leaves"])
        #expect(recipe.steps.map(\.text) == ["Brown the beef.", "Simmer. Tip: add wine."])
    }

    @Test("each line marked `ingredients` is read over one `recipeIngredient` holding them run together")
    func ingredientsOverRunTogetherLine() throws {
        let recipe = try parse(
            #"{"@type": "Recipe", "name": "Gratin", "recipeIngredient": "2 koolrabi 6 aardappelen","#
                + #" "ingredients": ["2 koolrabi", "6 aardappelen"]}"#)
        #expect(recipe.ingredients == ["2 koolrabi", "6 aardappelen"])
        #expect(recipe.fieldCensus.fate(of: "recipeIngredient") == .extras)
        #expect(recipe.fieldCensus.fate(of: "ingredients") == .carried("ingredients"))
    }

    @Test("a CJK numeral after a step number is the step's text, not a decimal")
    func cjkAfterMarker() {
        #expect(StepText.numberedSteps("1.切丁 2.六寸模具 3.烤28分钟") == ["切丁", "六寸模具", "烤28分钟"])
    }

    @Test("a section's steps under a capitalised ItemListElement are read, not lost")
    func capitalisedItemListElement() throws {
        let recipe = try parse(
            #"{"@type": "Recipe", "name": "Tikka", "recipeInstructions": [{"@type": "HowToSection", "name": "Raita:","#
                + #" "ItemListElement": [{"@type": "HowToStep", "text": "Grate the cucumber."}]}]}"#)
        #expect(recipe.steps.map(\.text) == ["Raita:", "Grate the cucumber."])
    }
}
