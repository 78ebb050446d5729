public import LarderCore
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
public struct PepperplateImporter: RecipeImporter {
    public var format: ImportFormat { .pepperplate }

    /// Creates the importer.
    public init() {}

    public func importItems(at path: String, into sink: any ImportSink) throws {
        try TextExportFiles.importRecipes(
            at: path, into: sink, read: { try LabeledTextRecipe.read($0, layout: Self.layout, origin: $1, sink: sink) },
            raw: \.fields, recipe: Self.recipe(from:))
    }

    /// The labels Pepperplate writes; the last three are blocks.
    static let layout = LabeledTextRecipe.Layout(
        blocks: ["Ingredients", "Instructions", "Notes"],
        labels: [
            "Title", "Description", "Source", "Original URL", "Yield", "Active", "Total", "Image", "Ingredients",
            "Instructions", "Notes",
        ])

    /// The recipe one file describes.
    /// - Throws: ``LarderError`` `malformed-record` at `Title` when the file has no title.
    static func recipe(from text: LabeledTextRecipe) throws -> ImportedRecipe {
        var recipe = ImportedRecipe(title: try text.title())
        recipe.description = text.text("Description")
        recipe.sourceName = text.text("Source")
        recipe.sourceURL = text.text("Original URL")
        if let yield = text.text("Yield") { recipe.readYield(yield) }
        recipe.prepMinutes = text.text("Active").flatMap(RecipeTime.minutes(from:))
        recipe.totalMinutes = text.text("Total").flatMap(RecipeTime.minutes(from:))
        recipe.images = text.text("Image").map { [.url($0)] } ?? []
        recipe.ingredients = text.lines("Ingredients")
        recipe.steps = text.lines("Instructions").map { ImportedRecipe.Step(text: $0) }
        let notes = text.lines("Notes").joined(separator: "\n")
        recipe.notes = notes.isEmpty ? nil : notes
        recipe.takeCensus(of: text.fields, table: fieldTable)
        return recipe
    }

    /// What the importer does with each label; any other is kept in `extras.pepperplate`.
    public static let fieldTable = FieldTable(
        .pepperplate,
        [
            "Title": .carried("title"), "Description": .carried("description"), "Source": .carried("sourceName"),
            "Original URL": .carried("sourceURL"), "Yield": .carried("yield"), "Active": .carried("prepTime"),
            "Total": .carried("totalTime"), "Image": .carried("images"), "Ingredients": .carried("ingredients"),
            "Instructions": .carried("instructions"), "Notes": .carried("notes"),
        ])

    /// Whether a text file's first bytes are a Pepperplate recipe: a `Title:` first line, the
    /// `Ingredients:` and `Instructions:` blocks and Pepperplate's `Active:` or `Total:` label.
    static func claims(_ head: String) -> Bool {
        LabeledTextRecipe.labels(in: head).map {
            $0.first == "Title" && $0.contains("Ingredients") && $0.contains("Instructions")
                && ($0.contains("Active") || $0.contains("Total"))
        } ?? false
    }
}
