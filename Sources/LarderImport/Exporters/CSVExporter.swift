import Foundation
package import LarderCore
import LarderFormats

/// Writes one RFC 4180 CSV file: the header ``header``, then one row per recipe, CRLF line endings,
/// and a cell quoted (quotes doubled) when it holds a comma, a quote, a line break or edge spaces.
///
/// Ingredients and instructions are one line per item (group and section headings are left out),
/// times are minutes, categories and tags are separated by `, `, the source is the URL (else its
/// name), the image the first remote image URL. ``CSVImporter`` maps every column back by name.
package final class CSVExporter: RecipeExporter {
    /// The header line's columns, in order.
    package static let header = [
        "title", "description", "ingredients", "instructions", "servings", "yield", "prep time", "cook time",
        "total time", "categories", "tags", "source", "notes", "image",
    ]

    private let sink: any ByteSink

    /// Opens the output file (written atomically) or standard output, and writes the header.
    package init(path: String?) throws {
        sink = try ExportSession.sink(path)
        try sink.write(Self.row(Self.header))
    }

    package func write(_ item: ExportItem) throws {
        try sink.write(Self.row(Self.cells(item.recipe)))
    }

    package func finish() throws {
        try sink.close()
    }

    /// One recipe's cells, in ``header`` order.
    package static func cells(_ recipe: Recipe) -> [String] {
        let imported = ImportedRecipe(recipe: recipe)
        return [
            recipe.title, recipe.description ?? "", imported.ingredients.joined(separator: "\n"),
            imported.instructionSteps.map(\.text).joined(separator: "\n"), recipe.servings.map(String.init) ?? "",
            recipe.yield?.text ?? "", recipe.prepTime.map(String.init) ?? "", recipe.cookTime.map(String.init) ?? "",
            recipe.totalTime.map(String.init) ?? "", imported.categories.joined(separator: ", "),
            imported.keywords.joined(separator: ", "), recipe.sourceURL ?? recipe.sourceName ?? "",
            ExportText.notesText(recipe.notes) ?? "", ExportText.remoteImageURL(recipe) ?? "",
        ]
    }

    /// A CSV row with its CRLF.
    package static func row(_ cells: [String]) -> String {
        cells.map(quoted).joined(separator: ",") + "\r\n"
    }

    /// A cell, quoted when it must be.
    ///
    /// A cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
    /// carriage return, and is not a plain number) gets a leading `'` (OWASP, "CSV Injection"):
    /// `=cmd|' /C calc'!A0` is written `'=cmd|' /C calc'!A0` and shows as text.
    static func quoted(_ cell: String) -> String {
        var cell = cell
        if let first = cell.first, "=+-@\t\r".contains(first), Double(cell) == nil { cell = "'" + cell }
        let needsQuotes =
            cell.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || cell.first == " " || cell.last == " "
        guard needsQuotes else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
