import Foundation
import LarderCore
import LarderFormats

/// Imports Rezeptsuite.de's export: CookML (`<cookml>` with one `<recipe>` per recipe), as an
/// `.xml` or `.cml` file, or a zip holding `.cml`/`.xml` files.
///
/// A recipe's `<head>` carries its data in attributes (`title`, `rid`, `servingqty`,
/// `servingtype`, `timeallqty`, `timeprepqty`, `timecookqty`, `createdate`, `changedate`, …) and
/// elements (`cat`, `hint`, `sourceline`, `card`, `picbin` with a base64 photo); `<part title>`
/// groups `<ingredient qty unit item preparation>` elements (with an optional `<inote>`);
/// `<preparation>` holds the directions (`<text>` or `<step>`); `<remark>` holds `<line>`s. The
/// names are CookML 1.1's (codev.de) as Tandoor's importer reads them
/// (cookbook/integration/rezeptsuitede.py). Streams recipe by recipe through ``XMLSubtreeReader``
/// (no DTD fetched, no entity expanded). Each recipe is isolated: one without a title is rejected
/// with its index, line and field path. Head attributes and elements Larder has no field for
/// (`rid`, `createuser`, `costs`, …) are kept in `extras.rezeptsuite` as `head/@name` and
/// `head/name`.
package struct RezeptsuiteImporter: RecipeImporter {
    package var format: ImportFormat { .rezeptsuite }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        guard ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) else {
            try Self.readCookbook(try FileByteSource(path: path), origin: ImportOrigin(file: path), context: context)
            return
        }
        let isCookML: (ZipEntry) -> Bool = { Self.isCookML($0.fileName) }
        try ArchiveWalker(path: path).forEachEntry(context: context, accept: isCookML) { _, source, origin in
            try Self.readCookbook(source, origin: origin, context: context)
        }
    }

    /// Whether a file name is a CookML file (`.cml`, or `.xml` as Rezeptsuite.de also names them).
    static func isCookML(_ fileName: String) -> Bool {
        let name = fileName.lowercased()
        return name.hasSuffix(".cml") || name.hasSuffix(".xml")
    }

    /// Whether the first elements of an XML text (lowercased) are CookML.
    static func claims(_ keys: ContentKeys) -> Bool {
        keys.has("cookml") || (keys.has("recipe") && keys.has("head") && keys.has("part"))
    }

    private static func readCookbook(_ source: any ByteSource, origin: ImportOrigin, context: ImportContext) throws {
        let raw: (Fields) -> Value = { .object($0.droppingPicture) }
        try context.forEachXMLRecord(source, named: "recipe", origin: origin, fields: fields, raw: raw) {
            element, fields, itemOrigin in
            try context.records.recipe(try recipe(from: element, fields: fields), origin: itemOrigin)
        }
    }

    /// A `<recipe>` as source fields: its attributes as `@name`, the head's attributes as
    /// `head/@name` and its elements as `head/name`, and the recipe's other elements (`part`,
    /// `preparation`, `remark`) as Larder reads XML (text, or an object of children and
    /// attributes); an element given more than once is the list of its values.
    static func fields(of element: XMLElementNode) -> Fields {
        var fields = RepeatedFields()
        var lines: [FieldPath: Int] = [:]
        for (key, value) in element.attributes.sorted(by: { $0.key < $1.key }) { fields.add("@" + key, .string(value)) }
        for child in element.children {
            guard child.name == "head" else {
                fields.add(child.name, child.plainValue(lines: &lines))
                continue
            }
            for (key, value) in child.attributes.sorted(by: { $0.key < $1.key }) {
                fields.add("head/@" + key, .string(value))
            }
            for item in child.children { fields.add("head/" + item.name, .string(item.allText.trimmingWhitespace)) }
        }
        return fields.fields
    }

    /// The recipe a `<recipe>` element describes.
    /// - Throws: ``LarderError`` `malformed-record` at `head.title` when the recipe has no title;
    ///   at `head.picbin` when the photo is not base64.
    static func recipe(from element: XMLElementNode, fields: Fields) throws -> ImportedRecipe {
        let head = element.child("head")
        func attribute(_ name: String) -> String? { head?.attributes[name].flatMap(ImportText.nonEmpty) }
        func texts(_ name: String) -> [String] {
            head?.children(name).compactMap { ImportText.nonEmpty($0.text) } ?? []
        }
        guard let title = attribute("title") ?? texts("title").first else {
            throw LarderError(
                .malformedRecord, "the recipe has no title (<head title=\"…\">)",
                location: SourceLocation(fieldPath: "head.title"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.language = element.attributes["lang"].flatMap(ImportText.nonEmpty)
        recipe.nativeID = attribute("rid")
        recipe.larderID = recipe.nativeID.flatMap(ImportedRecipe.usableID)
        let yield = [attribute("servingqty"), attribute("servingtype")].compactMap { $0 }.joined(separator: " ")
        if !yield.isEmpty {
            recipe.yieldText = RecipeYield.normalized(yield) ?? yield
            recipe.yieldAsWritten = yield
            recipe.servings = RecipeYield.servings(yield)
        }
        recipe.totalMinutes = attribute("timeallqty").flatMap(RecipeTime.minutes(from:))
        recipe.prepMinutes = attribute("timeprepqty").flatMap(RecipeTime.minutes(from:))
        recipe.cookMinutes = attribute("timecookqty").flatMap(RecipeTime.minutes(from:))
        recipe.createdAt = attribute("createdate").flatMap(RecipeDate.parse)
        recipe.updatedAt = attribute("changedate").flatMap(RecipeDate.parse)
        recipe.categories = texts("cat")
        recipe.keywords = texts("hint")
        if let source = texts("sourceline").first {
            if source.contains("://") { recipe.sourceURL = source } else { recipe.sourceName = source }
        }
        recipe.description = texts("card").joined(separator: "\n").nonEmpty
        for part in element.children("part") {
            if let heading = part.attributes["title"].flatMap(ImportText.nonEmpty) {
                recipe.ingredientHeadings[recipe.ingredients.count] = heading
            }
            recipe.ingredients += part.children("ingredient").compactMap(ingredientLine)
        }
        for preparation in element.children("preparation") {
            let blocks = preparation.children.filter { $0.name == "text" || $0.name == "step" }
            let texts = blocks.isEmpty ? [preparation.allText] : blocks.map(\.allText)
            for text in texts {
                recipe.steps += ImportText.lines(text).map { ImportedRecipe.Step(text: $0) }
            }
        }
        let remarks = element.children("remark").flatMap { remark in
            remark.children("line").isEmpty
                ? ImportText.lines(remark.allText) : remark.children("line").map(\.text)
        }
        recipe.notes = remarks.filter { !$0.isEmpty }.joined(separator: "\n").nonEmpty
        if let picture = texts("picbin").first {
            guard let bytes = Data(base64Encoded: picture, options: .ignoreUnknownCharacters), !bytes.isEmpty else {
                throw LarderError(
                    .malformedRecord, "the photo (<picbin>) is not base64",
                    location: SourceLocation(fieldPath: "head.picbin"))
            }
            recipe.images.append(HTMLExportArchive.image(Array(bytes)))
        }
        var fates: [String: FieldFate] = [:]
        if recipe.sourceName != nil { fates["head/sourceline"] = .carried("sourceName") }
        if recipe.larderID == nil { fates["head/@rid"] = .extras }
        recipe.takeCensus(of: fields, table: fieldTable, overrides: fates)
        return recipe
    }

    /// An `<ingredient>` as a line: quantity, unit, item, then its preparation and note after a comma.
    private static func ingredientLine(_ node: XMLElementNode) -> String? {
        let parts = ["qty", "unit", "item"].compactMap { node.attributes[$0]?.trimmingWhitespace }.filter {
            !$0.isEmpty
        }
        var line = parts.joined(separator: " ")
        let notes = [node.attributes["preparation"], node.child("inote")?.text].compactMap { $0?.trimmingWhitespace }
            .filter { !$0.isEmpty }
        if !notes.isEmpty { line += (line.isEmpty ? "" : ", ") + notes.joined(separator: ", ") }
        return line.isEmpty ? nil : line
    }

    /// What the importer does with each field of a recipe (see ``fields(of:)``); any other is kept
    /// in `extras.rezeptsuite`.
    package static let fieldTable = FieldTable(
        .rezeptsuite,
        [
            "@lang": .carried("language"), "head/@title": .carried("title"), "head/title": .carried("title"),
            "head/@rid": .carried("id"),
            "head/@servingqty": .carried("yield"), "head/@servingtype": .carried("yield"),
            "head/@timeallqty": .carried("totalTime"), "head/@timeprepqty": .carried("prepTime"),
            "head/@timecookqty": .carried("cookTime"), "head/@createdate": .carried("createdAt"),
            "head/@changedate": .carried("updatedAt"), "head/cat": .carried("categories"),
            "head/hint": .carried("tags"), "head/sourceline": .carried("sourceURL"),
            "head/card": .carried("description"), "head/picbin": .carried("images"), "part": .carried("ingredients"),
            "preparation": .carried("instructions"), "remark": .carried("notes"),
        ])
}

extension Fields {
    /// The fields with the base64 photo left out (so rejects files stay small).
    fileprivate var droppingPicture: Fields {
        var copy = self
        if copy["head/picbin"] != nil { copy["head/picbin"] = .string("(base64 photo left out)") }
        return copy
    }
}

extension String {
    /// The text, or `nil` when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
