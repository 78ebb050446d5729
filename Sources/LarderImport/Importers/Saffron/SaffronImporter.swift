import LarderCore
import LarderFormats

/// Imports Saffron's text export: a zip of `.txt` files, one recipe each (or such a file alone,
/// or a folder of them).
///
/// A file is `Label: value` lines as Tandoor's Saffron importer and exporter
/// (cookbook/integration/saffron.py) read and write them: `Title:`, `Description:`, `Source:`,
/// `Original URL:`, `Yield:`, `Cookbook:`, `Section:`, `Image:`, `Prep:` and `Cook:` (times), then
/// the blocks `Ingredients:` and `Instructions:` (a line each), and `Notes:` (see
/// ``LabeledTextRecipe``). `Cookbook` becomes a tag and `Section` a category; a label Larder does not
/// know is kept in `extras.saffron`. Each file is one record, isolated: one without a title is
/// rejected with its entry and the field `Title`. Saffron has no recipe ids in the export; the id
/// derives from the source URL (else the entry) and the title.
package struct SaffronImporter: RecipeImporter {
    package var format: ImportFormat { .saffron }

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
        recipe.prepMinutes = text.text("Prep").flatMap(RecipeTime.minutes(from:))
        recipe.cookMinutes = text.text("Cook").flatMap(RecipeTime.minutes(from:))
        recipe.keywords = text.text("Cookbook").map { [$0] } ?? []
        recipe.categories = text.text("Section").map { [$0] } ?? []
        recipe.takeCensus(of: text.fields, table: fieldTable)
        return recipe
    }

    /// What the importer does with each label; any other is kept in `extras.saffron`.
    package static let fieldTable = FieldTable(
        .saffron,
        LabeledTextRecipe.commonFates.merging([
            "Prep": .carried("prepTime"), "Cook": .carried("cookTime"), "Cookbook": .carried("tags"),
            "Section": .carried("categories"),
        ]) { $1 })

    /// Whether a text file's first bytes are a Saffron recipe: a `Title:` first label, the
    /// `Ingredients:` and `Instructions:` blocks and Saffron's `Cookbook:` or `Section:` label.
    static func claims(_ head: String) -> Bool {
        LabeledTextRecipe.claims(head, distinctive: ["Cookbook", "Section"])
    }
}
