import Foundation
package import LarderCore
import LarderFormats

/// Writes RezKonv, MealMaster's German variant: one text file (CRLF line endings) holding every
/// recipe between a `=====  REZKONV-Rezept` header line and a `=====` end line, as
/// ``MealMasterImporter`` reads it (and as the RezkonvSystem sample in samples/import has it).
///
/// Each recipe has `Titel:`, `Kategorien:` and `Menge:` (the yield text, else `<n> Portionen`), its
/// ingredients one per line with the quantity right-aligned in 7 columns (fractions such as
/// `1 1/2`) and then the unit word and text as written (RezKonv units are words of any length:
/// `EL`, `Prise`, `Msp.`), ingredient groups and step sections as `=====` heading lines, and the
/// directions as paragraphs indented by two spaces, wrapped at 72 columns. A quantity wider than
/// 7 columns stays in the text. The file is Windows-1252, as RezkonvSystem writes it, when every
/// character fits; otherwise UTF-8, so that nothing is lost (the importer reads both). RezKonv has
/// no place for times, description, notes, images or step timers, which are left out.
package final class RezKonvExporter: RecipeExporter {
    private let sink: any ByteSink
    /// The file so far in UTF-8, and in Windows-1252 while every character fits: which one is the
    /// output is known only at the end, so both stream to scratch files (memory stays flat).
    private let utf8Path: String
    private let windows1252Path: String
    private let utf8: FileByteSink
    private var windows1252: FileByteSink?

    /// Opens the output file (written atomically) or standard output.
    package init(path: String?) throws {
        sink = try ExportSession.sink(path)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "larder-rezkonv-\(UUID().uuidString)")
        utf8Path = scratch.path + ".utf8"
        windows1252Path = scratch.path + ".cp1252"
        utf8 = try FileByteSink(path: utf8Path)
        windows1252 = try FileByteSink(path: windows1252Path)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: utf8Path)
        try? FileManager.default.removeItem(atPath: windows1252Path)
    }

    package func write(_ item: ExportItem) throws {
        let text = Self.lines(item.recipe).map { $0 + "\r\n" }.joined()
        try utf8.write(text)
        guard let windows1252 else { return }
        if let bytes = TextRepair.windows1252Bytes(of: text) {
            try windows1252.write(bytes)
        } else {
            try windows1252.close()
            self.windows1252 = nil
        }
    }

    package func finish() throws {
        try utf8.close()
        try windows1252?.close()
        let chosen = windows1252 == nil ? utf8Path : windows1252Path
        let source = try FileByteSource(path: chosen)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            try sink.write(Array(buffer[0..<count]))
        }
        try sink.close()
    }

    /// The lines of one recipe, header line to the blank line after its end line.
    package static func lines(_ recipe: Recipe) -> [String] {
        let imported = ImportedRecipe(recipe: recipe)
        var out = ["=====  REZKONV-Rezept - exportiert von Larder", ""]
        out.append("      Titel: " + MealMasterExporter.oneLine(recipe.title))
        let categories = imported.categories.map(MealMasterExporter.oneLine).joined(separator: ", ")
        out.append(categories.isEmpty ? " Kategorien:" : " Kategorien: " + categories)
        if let text = recipe.yield?.text, !text.isEmpty {
            out.append("      Menge: " + MealMasterExporter.oneLine(text))
        } else if let servings = recipe.servings {
            out.append("      Menge: \(servings) Portionen")
        }
        out.append("")
        for (index, line) in imported.ingredients.enumerated() {
            if let heading = imported.ingredientHeadings[index] { out.append(headingLine(heading)) }
            out.append(ingredientLine(line))
        }
        for step in imported.steps {
            out.append("")
            if step.isSection {
                out.append(headingLine(step.text))
            } else {
                out += MealMasterExporter.wrap(MealMasterExporter.oneLine(step.text), width: 70).map { "  " + $0 }
            }
        }
        out += ["", "=====", ""]
        return out
    }

    /// A heading line, `=` around the text, 66 columns wide (`===… TEIG ===…`).
    static func headingLine(_ text: String) -> String {
        let label = " " + MealMasterExporter.oneLine(text) + " "
        let signs = max(10, 66 - label.count)
        let left = signs / 2
        return String(repeating: "=", count: left) + label + String(repeating: "=", count: signs - left)
    }

    /// One ingredient: the quantity right-aligned in 7 columns, a space, then the rest as written.
    static func ingredientLine(_ line: String) -> String {
        let tokens = MealMasterExporter.oneLine(line).split(separator: " ").map(String.init)
        guard let (quantity, count) = MealMasterExporter.leadingQuantity(tokens) else {
            // No quantity: the text starts after the quantity column.
            return String(repeating: " ", count: 8) + tokens.joined(separator: " ")
        }
        return String(repeating: " ", count: 7 - quantity.count) + quantity + " "
            + tokens[count...].joined(separator: " ")
    }
}
