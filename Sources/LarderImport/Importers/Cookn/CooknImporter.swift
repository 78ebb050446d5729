import Foundation
import LarderCore
import LarderFormats

/// Imports a Cook'n cookbook export: a zip of `temp_*.dsv` tables (the cookbook's database
/// tables) and the recipes' photos, named by their media id.
///
/// A `.dsv` table is UTF-8 text whose rows end with `!@#%^&*()` and whose columns are separated
/// by `||||`; the first row names the columns, and `[null]` is no value. `temp_recipe` rows
/// (`ID`, `SERVES`, `PREPTIME`, `COOKTIME` in minutes, `INSTRUCTIONS`) are the recipes, joined as
/// Mealie's Cook'n migration (mealie/services/migrations/cookn.py) joins them: `temp_recipe_desc`
/// (by `ID`: `TITLE`, `DESCRIPTION`, `PARENT` chapter), `temp_chapter_desc` and
/// `temp_cookBook_desc` (their `TITLE`s make the category `Cookbook - Chapter`), `temp_ingredient`
/// (by `PARENT_ID`, in `DISPLAY_ORDER`: `AMOUNT_QTY_STRING`, `AMOUNT_UNIT` → `temp_unit`,
/// `PRE_QUALIFIER`, `INGREDIENT_FOOD_ID` → `temp_food`, `POST_QUALIFIER`, `BRAND_ID` →
/// `temp_brand`, made one line) and `temp_media` (by `ENTITY_ID`: the photo file `ID`, with the
/// extension of `MEDIA_CONTENT_TYPE` when the file has none). Instructions are split into steps at
/// numbered or bulleted lines. The joins need whole tables: each table is read whole, within the
/// record size limit. Each recipe is isolated: one without a title is rejected with its index and
/// field path. Columns Larder has no field for are kept in `extras.cookn`.
package struct CooknImporter: RecipeImporter {
    package var format: ImportFormat { .cookn }

    /// Creates the importer.
    package init() {}

    /// The table whose rows are the recipes; the zip holds it beside the others.
    static let recipeTable = "temp_recipe.dsv"

    package func importItems(at path: String, context: ImportContext) throws {
        guard ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) else {
            throw LarderError(
                .malformedRecord, "a Cook'n export is a zip of temp_*.dsv tables", location: SourceLocation(file: path))
        }
        try importArchive(path, origin: ImportOrigin(file: path), context: context, nested: true)
    }

    /// Imports the cookbook in the zip at `path`; a zip with no `temp_recipe.dsv` but zips in it
    /// (several cookbooks zipped together, as Mealie also takes) has each of those read, one level deep.
    private func importArchive(_ path: String, origin: ImportOrigin, context: ImportContext, nested: Bool) throws {
        let archive = try ZipArchive(path: path)
        var hasTables = false
        var cookbooks: [ZipEntry] = []
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            if Self.isRecipeTable(entry) { hasTables = true }
            if entry.fileName.lowercased().hasSuffix(".zip") { cookbooks.append(entry) }
        }
        if !hasTables, nested, !cookbooks.isEmpty {
            for entry in cookbooks {
                let entryOrigin = origin.entry(entry.path)
                try context.isolating(entryOrigin) {
                    try archive.withExtracted(entry, archive: path) { inner in
                        try importArchive(inner, origin: entryOrigin, context: context, nested: false)
                    }
                }
            }
            return
        }
        try BackupArchive.forEachRecordFile(
            at: path, origin: origin, context: context, what: Self.recipeTable, isRecordFile: Self.isRecipeTable
        ) { source, origin, files in
            let database = try Database(
                recipes: Self.rows(try source.readAll(limit: context.readerLimits.maxRecordSize)),
                load: { name in try files(name).map(Self.rows) ?? [] })
            for (index, row) in database.recipes.enumerated() {
                let itemOrigin = origin.item(index)
                try context.isolating(itemOrigin, raw: .object(row)) {
                    try context.records.recipe(
                        try Self.recipe(row, database: database, loadFile: files), origin: itemOrigin)
                }
            }
        }
    }

    /// Whether an entry is the table whose rows are the recipes.
    static func isRecipeTable(_ entry: ZipEntry) -> Bool { entry.fileName.lowercased() == recipeTable }

    /// The rows of a `.dsv` table: the first row names the columns; `[null]` is left out, and line
    /// breaks around a row separator are not part of the row.
    static func rows(_ bytes: [UInt8]) -> [Fields] {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        let lines = text.components(separatedBy: "!@#%^&*()").map { $0.trimmingCharacters(in: .newlines) }
            .filter { !$0.isEmpty }
        guard let header = lines.first?.components(separatedBy: "||||") else { return [] }
        return lines.dropFirst().map { line in
            var fields = Fields()
            for (name, value) in zip(header, line.components(separatedBy: "||||")) where value != "[null]" {
                fields.append(key: name, value: .string(value))
            }
            return fields
        }
    }

    /// The tables a recipe is joined with, indexed by the column each join uses.
    struct Database {
        var recipes: [Fields]
        var descriptions: [String: Fields] = [:]
        var chapters: [String: Fields] = [:]
        var cookbooks: [String: Fields] = [:]
        var units: [String: Fields] = [:]
        var foods: [String: Fields] = [:]
        var brands: [String: Fields] = [:]
        var ingredients: [String: [Fields]] = [:]
        var media: [String: Fields] = [:]

        init(recipes: [Fields], load: (String) throws -> [Fields]) throws {
            self.recipes = recipes
            func index(_ table: String, by column: String = "ID") throws -> [String: Fields] {
                var rows: [String: Fields] = [:]
                for row in try load(table) {
                    if let key = row[column]?.stringValue, rows[key] == nil { rows[key] = row }
                }
                return rows
            }
            descriptions = try index("temp_recipe_desc.dsv")
            chapters = try index("temp_chapter_desc.dsv")
            cookbooks = try index("temp_cookBook_desc.dsv")
            units = try index("temp_unit.dsv")
            foods = try index("temp_food.dsv")
            brands = try index("temp_brand.dsv")
            media = try index("temp_media.dsv", by: "ENTITY_ID")
            for row in try load("temp_ingredient.dsv") {
                if let parent = row["PARENT_ID"]?.stringValue { ingredients[parent, default: []].append(row) }
            }
        }
    }

    /// The recipe a `temp_recipe` row describes, joined with the other tables; `loadFile` reads a
    /// file of the export by name (the photo).
    /// - Throws: ``LarderError`` `malformed-record` at `TITLE` when the recipe has no title.
    static func recipe(
        _ row: Fields, database: Database, loadFile: (String) throws -> [UInt8]?
    ) throws -> ImportedRecipe {
        func text(_ fields: Fields?, _ column: String) -> String? {
            fields?[column]?.stringValue.flatMap(ImportText.nonEmpty)
        }
        let id = text(row, "ID") ?? ""
        let description = database.descriptions[id]
        guard let title = text(description, "TITLE") else {
            throw LarderError(
                .malformedRecord, "the recipe has no title in temp_recipe_desc",
                location: SourceLocation(fieldPath: "TITLE"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.nativeID = id.isEmpty ? nil : "cookn:" + id
        recipe.description = text(description, "DESCRIPTION")
        if let serves = text(row, "SERVES") {
            recipe.yieldText = RecipeYield.normalized(serves) ?? serves
            recipe.yieldAsWritten = serves
            recipe.servings = RecipeYield.servings(serves)
        }
        recipe.prepMinutes = text(row, "PREPTIME").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        recipe.cookMinutes = text(row, "COOKTIME").flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        recipe.steps = steps(text(row, "INSTRUCTIONS")).map { ImportedRecipe.Step(text: $0) }
        let chapter = text(description, "PARENT").flatMap { database.chapters[$0] }
        let cookbook = text(chapter, "PARENT").flatMap { database.cookbooks[$0] }
        let category = [text(cookbook, "TITLE"), text(chapter, "TITLE")].compactMap { $0 }.joined(separator: " - ")
        if !category.isEmpty { recipe.categories = [category] }
        let rows = (database.ingredients[id] ?? []).enumerated().sorted {
            (Int(text($0.element, "DISPLAY_ORDER") ?? "") ?? Int.max, $0.offset)
                < (Int(text($1.element, "DISPLAY_ORDER") ?? "") ?? Int.max, $1.offset)
        }
        recipe.ingredients = rows.compactMap { ingredientLine($0.element, database: database) }
        if let media = database.media[id], let file = text(media, "ID") {
            let type = text(media, "MEDIA_CONTENT_TYPE").map { String($0.split(separator: "/").last ?? "") }
            var bytes = try loadFile(file)
            if bytes == nil, let type { bytes = try loadFile(file + "." + type) }
            if let bytes { recipe.images.append(HTMLExportArchive.image(bytes)) }
        }
        var fields = row
        for column in ["TITLE", "DESCRIPTION", "PARENT"] {
            if let value = description?[column] { fields.append(key: column, value: value) }
        }
        recipe.takeCensus(of: fields, table: fieldTable)
        return recipe
    }

    /// An ingredient row as a line: amount, unit, pre-qualifier, food, post-qualifier and brand.
    private static func ingredientLine(_ row: Fields, database: Database) -> String? {
        func text(_ fields: Fields?, _ column: String) -> String? {
            fields?[column]?.stringValue.map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
        }
        let amount = text(row, "AMOUNT_QTY_STRING").flatMap { $0 == "0" ? nil : $0 }
        let unit = text(row, "AMOUNT_UNIT").flatMap { text(database.units[$0], "NAME") }
        let food = text(row, "INGREDIENT_FOOD_ID").flatMap { text(database.foods[$0], "NAME") }
        let brand = text(row, "BRAND_ID").flatMap { text(database.brands[$0], "NAME") }
        let parts = [amount, unit, text(row, "PRE_QUALIFIER"), food, text(row, "POST_QUALIFIER"), brand]
        let line = parts.compactMap { $0 }.joined(separator: " ").replacingOccurrences(of: " ,", with: ",")
        return line.isEmpty ? nil : line
    }

    /// Instructions as steps: a numbered (`1.`, `2)`, `3-`) or bulleted (`-`, `*`, `•`) line starts
    /// a step and the lines after it continue it; before any such line, each line is a step.
    static func steps(_ text: String?) -> [String] {
        var steps: [String] = []
        var current: [String]?
        for line in ImportText.lines(text) {
            if let start = markerEnd(line) {
                if let current { steps.append(current.joined(separator: " ")) }
                current = [String(line[start...]).trimmingWhitespace].filter { !$0.isEmpty }
            } else if current != nil {
                current?.append(line)
            } else {
                steps.append(line)
            }
        }
        if let current, !current.isEmpty { steps.append(current.joined(separator: " ")) }
        return steps
    }

    /// Where the text after a step's number or bullet starts, if the line has one.
    private static func markerEnd(_ line: String) -> String.Index? {
        if let first = line.first, first == "-" || first == "*" || first == "•" {
            return line.index(after: line.startIndex)
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let mark = line.dropFirst(digits.count).first, ".)-".contains(mark) else { return nil }
        return line.index(line.startIndex, offsetBy: digits.count + 1)
    }

    /// What the importer does with each column of a `temp_recipe` row and of its
    /// `temp_recipe_desc` row; any other column is kept in `extras.cookn`.
    package static let fieldTable = FieldTable(
        .cookn,
        [
            "ID": .extras, "SERVES": .carried("yield"), "PREPTIME": .carried("prepTime"),
            "COOKTIME": .carried("cookTime"), "INSTRUCTIONS": .carried("instructions"), "TITLE": .carried("title"),
            "DESCRIPTION": .carried("description"), "PARENT": .carried("categories"),
        ])
}
