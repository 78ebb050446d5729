import LarderCore
import LarderFormats

/// Imports Pepperplate's export: a zip of `.txt` files, one recipe each (or such a file alone, or a
/// folder of them).
///
/// A file is `Label: value` lines: `Title:`, `Description:`, `Source:`, `Original URL:`, `Yield:`,
/// `Active:` (preparation time), `Total:`, `Image:` (a URL), then the blocks `Ingredients:` and
/// `Instructions:` with one tab-indented line per ingredient or step, and `Notes:` (see
/// ``LabeledTextRecipe``), as Tandoor's importer (cookbook/integration/pepperplate.py) and public
/// parsers of the export read it. A label Larder does not know is kept in `extras.pepperplate`.
/// Each file is one record, isolated: one without a title is rejected with its entry and the field
/// `Title`, and the others import. Pepperplate has no recipe ids; the id derives from the source URL
/// (else the entry) and the title, so a re-run finds the same ids.
package struct PepperplateImporter: RecipeImporter {
    package var format: ImportFormat { .pepperplate }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        try TextExportFiles.importRecipes(
            at: path, context: context,
            read: { try LabeledTextRecipe.read($0, layout: .appExport, origin: $1, context: context) },
            raw: \.fields, recipe: Self.recipe(from:))
    }

    /// The recipe one file describes.
    /// - Throws: ``LarderError`` `malformed-record` at `Title` when the file has no title.
    static func recipe(from text: LabeledTextRecipe) throws -> ImportedRecipe {
        var recipe = try text.commonRecipe()
        recipe.prepMinutes = text.text("Active").flatMap(RecipeTime.minutes(from:))
        recipe.totalMinutes = text.text("Total").flatMap(RecipeTime.minutes(from:))
        recipe.takeCensus(of: text.fields, table: fieldTable)
        return recipe
    }

    /// What the importer does with each label; any other is kept in `extras.pepperplate`.
    package static let fieldTable = FieldTable(
        .pepperplate,
        LabeledTextRecipe.commonFates.merging(["Active": .carried("prepTime"), "Total": .carried("totalTime")]) { $1 })

    /// Whether a text file's first bytes are a Pepperplate recipe: a `Title:` first line, the
    /// `Ingredients:` and `Instructions:` blocks and Pepperplate's `Active:` or `Total:` label.
    static func claims(_ head: String) -> Bool {
        LabeledTextRecipe.claims(head, distinctive: ["Active", "Total"])
    }
}
