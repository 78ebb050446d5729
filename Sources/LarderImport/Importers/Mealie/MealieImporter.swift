import Foundation
package import LarderCore
import LarderFormats

/// Imports Mealie exports and single Mealie recipes.
///
/// Reads the per-recipe JSON files of an export archive (`recipes/<slug>/<slug>.json` with
/// `recipes/<slug>/images/original.*`), Mealie 1.x's `database.json` (recipes joined with their
/// ingredient and instruction tables), or a single recipe's JSON. Reads both the camelCase
/// (1.x API) and snake_case (0.x) field names.
package struct MealieImporter: RecipeImporter {
    package var format: ImportFormat { .mealie }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let head = try FileByteSource(path: path).readPrefix(4)
        guard ZipArchive.isZip(head) else {
            try readRecipeFile(
                try FileByteSource(path: path), image: nil, origin: ImportOrigin(file: path), context: context)
            return
        }
        let archive = try ZipArchive(path: path)
        var recipeFiles: [ZipEntry] = []
        var database: ZipEntry?
        var images: [String: ZipEntry] = [:]
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            let lower = entry.path.lowercased()
            if entry.fileName == "database.json" { database = entry }
            if lower.hasSuffix(".json"), lower.contains("recipes/"), entry.fileName != "database.json" {
                recipeFiles.append(entry)
            }
            if lower.contains("/images/original.") {
                // `recipes/<slug>/images/original.webp` (0.x) or `data/recipes/<id>/images/original.webp` (1.x)
                let parts = entry.path.split(separator: "/")
                if let index = parts.firstIndex(where: { $0 == "images" }), index > 0 {
                    images[String(parts[index - 1])] = entry
                }
            }
        }
        if let database, recipeFiles.isEmpty {
            try readDatabase(archive, database, images: images, archivePath: path, context: context)
            return
        }
        for entry in recipeFiles {
            let origin = ImportOrigin(file: path, entry: entry.path)
            try context.isolating(origin) {
                _ = try entry.safeRelativePath(archive: path)
                let parts = entry.path.split(separator: "/")
                let folder = parts.count >= 2 ? String(parts[parts.count - 2]) : ""
                let image = try images[folder].map { try archive.open($0).readAll(limit: 64 << 20) }
                try readRecipeFile(archive.open(entry), image: image, origin: origin, context: context)
            }
        }
    }

    private func readRecipeFile(
        _ source: any ByteSource, image: [UInt8]?, origin: ImportOrigin, context: ImportContext
    ) throws {
        let value = try context.readJSON(source, origin: origin)
        let items = value.arrayValue ?? [value]
        for (index, item) in items.enumerated() {
            let itemOrigin = items.count > 1 ? origin.item(index) : origin
            try context.isolating(itemOrigin, raw: item) {
                var recipe = try Self.recipe(from: item)
                if let image, !image.isEmpty {
                    recipe.images = [.data(image, fileExtension: ImageKind.fileExtension(for: Array(image.prefix(16))))]
                }
                try context.records.recipe(recipe, origin: itemOrigin)
            }
        }
    }

    /// Mealie 1.x `database.json`: tables by name, rows joined on `recipe_id` (``MealieDatabaseJoin``).
    private func readDatabase(
        _ archive: ZipArchive, _ entry: ZipEntry, images: [String: ZipEntry], archivePath: String,
        context: ImportContext
    ) throws {
        let origin = ImportOrigin(file: archivePath, entry: entry.path)
        let database = try JSONLDBlocks.parse(
            TranscodingByteSource(try archive.open(entry), encoding: nil), limits: context.readerLimits.forWholeDocument
        ) { context.warn(JSONLDBlocks.warningText($0), origin: origin) }
        let recipes = database["recipes"]?.arrayValue ?? []
        let tables = MealieDatabaseJoin(database)
        for (index, row) in recipes.enumerated() {
            let itemOrigin = origin.item(index)
            try context.isolating(itemOrigin, raw: row) {
                guard case .object(let columns) = row else {
                    throw LarderError(.malformedRecord, "expected a recipe row, found \(row.kindDescription)")
                }
                let fields = tables.join(columns)
                let id = fields["id"]?.stringValue ?? ""
                var recipe = try Self.recipe(from: .object(fields))
                if let image = try images[id].map({ try archive.open($0).readAll(limit: 64 << 20) }), !image.isEmpty {
                    recipe.images = [.data(image, fileExtension: ImageKind.fileExtension(for: Array(image.prefix(16))))]
                }
                try context.records.recipe(recipe, origin: itemOrigin)
            }
        }
    }

    /// The recipe a Mealie recipe object describes (camelCase or snake_case names), with its
    /// field census taken against ``fieldTable`` (fields Larder has no field for kept in `extras.mealie`).
    /// - Throws: ``LarderError`` `malformed-record` with the field path.
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        let r = try ValueReader(value)
        var overrides: [String: FieldFate] = [:]
        /// The first of `names` the recipe has (not null); the others it has are kept in extras.
        func field(_ names: String...) -> (String, Value)? {
            var found: (String, Value)?
            for name in names {
                guard let v = r.fields[name], !FieldCensus.isEmpty(v) else { continue }
                if found == nil { found = (name, v) } else { overrides[name] = .extras }
            }
            return found
        }
        let text = SchemaOrgRecipeParser()
        let title = field("name").flatMap { text.text($0.1) } ?? ""
        guard !title.isEmpty else {
            throw LarderError(.malformedRecord, "the recipe has no name", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.nativeID = field("id", "slug").flatMap { text.text($0.1) }
        // Mealie's ids are UUIDs: the Larder id, so that an export back to Mealie keeps it.
        recipe.larderID = field("id").flatMap { $0.1.stringValue }.flatMap(ImportedRecipe.usableID)
        recipe.description = field("description").flatMap { text.text($0.1) }
        recipe.sourceURL = field("orgURL", "org_url").flatMap { $0.1.stringValue }.flatMap(ImportText.nonEmpty)
        let yieldQuantity = field("recipeYieldQuantity", "recipe_yield_quantity").flatMap { number($0.1) }
        if let (_, yield) = field("recipeYield", "recipe_yield"), let t = text.text(yield) {
            // Mealie 1.x splits the yield: `recipeYieldQuantity` 12 and `recipeYield` "cookies".
            let full =
                yieldQuantity.map { q in t.first?.isNumber == true ? t : "\(Self.format(q)) \(t)" } ?? t
            recipe.yieldText = RecipeYield.normalized(full)
            recipe.yieldAsWritten = full
            recipe.servings = RecipeYield.servings(full)
        } else if let yieldQuantity, yieldQuantity > 0 {
            recipe.yieldText = Self.format(yieldQuantity)
        }
        if let (name, servings) = field("recipeServings", "recipe_servings") {
            if let d = number(servings), d > 0, let count = Int(rounding: d) {
                recipe.servings = recipe.servings ?? count
            } else {
                overrides[name] = .extras  // 0: Mealie's "not set", or past Int's range (1e300); kept as written
            }
        }
        recipe.totalMinutes = field("totalTime", "total_time").flatMap { text.text($0.1) }.flatMap(RecipeTime.minutes)
        recipe.prepMinutes = field("prepTime", "prep_time").flatMap { text.text($0.1) }.flatMap(RecipeTime.minutes)
        recipe.cookMinutes = field("performTime", "perform_time", "cookTime", "cook_time").flatMap { text.text($0.1) }
            .flatMap(RecipeTime.minutes)
        recipe.categories =
            field("recipeCategory", "recipe_category").map { text.list($0.1, splittingCommas: false) } ?? []
        recipe.keywords = field("tags").map { text.list($0.1, splittingCommas: false) } ?? []
        recipe.tools = field("tools").map { text.list($0.1, splittingCommas: false) } ?? []
        if let (_, rating) = field("rating") { recipe.rating = text.text(rating).flatMap { Double($0) } }
        if let (_, date) = field("dateAdded", "date_added", "createdAt", "created_at") {
            recipe.createdAt = text.text(date).flatMap(RecipeDate.parse)
        }
        if let (_, date) = field("dateUpdated", "date_updated", "updatedAt", "updated_at", "update_at") {
            recipe.updatedAt = text.text(date).flatMap(RecipeDate.parse)
        }
        if let (name, ingredients) = field("recipeIngredient", "recipe_ingredient") {
            guard let list = ingredients.arrayValue else {
                throw LarderError(
                    .malformedRecord, "expected a list, found \(ingredients.kindDescription)",
                    location: SourceLocation(fieldPath: FieldPath.root.appending(name)))
            }
            let amountsDisabled =
                flag(r.fields["settings"]?["disableAmount"] ?? r.fields["settings"]?["disable_amount"]) ?? false
            for element in list {
                if let heading = element["title"].flatMap({ text.text($0) }) {
                    recipe.ingredientHeadings[recipe.ingredients.count] = heading
                }
                if let line = ingredientLine(element, text, amountsDisabled: amountsDisabled) {
                    recipe.ingredients.append(line)
                }
            }
        }
        if let (name, instructions) = field("recipeInstructions", "recipe_instructions") {
            guard let list = instructions.arrayValue else {
                throw LarderError(
                    .malformedRecord, "expected a list, found \(instructions.kindDescription)",
                    location: SourceLocation(fieldPath: FieldPath.root.appending(name)))
            }
            for element in list {
                if let heading = element["title"].flatMap({ text.text($0) }) {
                    recipe.steps.append(.init(text: heading, isSection: true))
                }
                let body = element.stringValue ?? element["text"]?.stringValue ?? ""
                for line in ImportText.lines(HTMLText.normalizeKeepingLines(body)) {
                    recipe.steps.append(.init(text: line))
                }
            }
        }
        if let nutrition = field("nutrition")?.1.objectValue {
            for entry in nutrition { if let t = text.text(entry.value) { recipe.nutrition[entry.key] = t } }
        }
        if let notes = field("notes")?.1.arrayValue {
            recipe.recipeNotes = notes.compactMap { note -> RecipeNote? in
                if let plain = note.stringValue.flatMap(ImportText.nonEmpty) { return RecipeNote(text: plain) }
                guard let body = note["text"]?.stringValue.flatMap(ImportText.nonEmpty) else { return nil }
                return RecipeNote(title: note["title"]?.stringValue.flatMap(ImportText.nonEmpty), text: body)
            }
            if !recipe.recipeNotes.isEmpty {
                recipe.notes = recipe.recipeNotes.map { note in note.title.map { "\($0)\n\(note.text)" } ?? note.text }
                    .joined(separator: "\n\n")
            }
        }
        if let comments = field("comments")?.1.arrayValue {
            recipe.reviews = comments.compactMap { comment in
                guard let body = (comment.stringValue ?? comment["text"]?.stringValue).flatMap(ImportText.nonEmpty)
                else { return nil }
                let by = (comment["user"]?["username"] ?? comment["user"]?["fullName"])?.stringValue
                return by.map { "\($0): \(body)" } ?? body
            }
        }
        recipe.takeCensus(of: r.fields, table: fieldTable, overrides: overrides)
        recipe.takeMemberCensus(of: r.fields, roots: structuredFields, format: .mealie, census: memberCensus())
        return recipe
    }

    /// What the importer does with each field of a Mealie recipe (1.x camelCase API and export
    /// names, 0.x and `database.json` snake_case names); any other field (`settings`, `assets`,
    /// `extras`, `slug` beside an `id`, `lastMade`, user and group ids) is kept in `extras.mealie`.
    package static let fieldTable = FieldTable(
        .mealie,
        [
            "id": .carried("id"), "slug": .carried("id"), "name": .carried("title"),
            "description": .carried("description"), "orgURL": .carried("sourceURL"), "org_url": .carried("sourceURL"),
            "recipeYield": .carried("yield"), "recipe_yield": .carried("yield"),
            "recipeYieldQuantity": .carried("yield"), "recipe_yield_quantity": .carried("yield"),
            "recipeServings": .carried("servings"), "recipe_servings": .carried("servings"),
            "totalTime": .carried("totalTime"), "total_time": .carried("totalTime"), "prepTime": .carried("prepTime"),
            "prep_time": .carried("prepTime"), "performTime": .carried("cookTime"),
            "perform_time": .carried("cookTime"), "cookTime": .carried("cookTime"), "cook_time": .carried("cookTime"),
            "recipeCategory": .carried("categories"), "recipe_category": .carried("categories"),
            "tags": .carried("tags"), "tools": .carried("tools"), "rating": .carried("rating"),
            "dateAdded": .carried("createdAt"), "date_added": .carried("createdAt"),
            "createdAt": .carried("createdAt"), "created_at": .carried("createdAt"),
            "dateUpdated": .carried("updatedAt"), "date_updated": .carried("updatedAt"),
            "updatedAt": .carried("updatedAt"), "updated_at": .carried("updatedAt"),
            "update_at": .carried("updatedAt"), "recipeIngredient": .carried("ingredients"),
            "recipe_ingredient": .carried("ingredients"), "recipeInstructions": .carried("instructions"),
            "recipe_instructions": .carried("instructions"), "nutrition": .carried("nutrition"),
            "notes": .carried("notes"), "comments": .carried("reviews"),
        ])

    /// One ingredient's line.
    ///
    /// An ingredient Mealie never parsed (amounts disabled, or quantity 0 or 1 with neither unit nor
    /// food and the line in `note`) is its note as written, not `1 <note>`; a parsed one is its
    /// `originalText`, else its `display`, else quantity, unit, food and note.
    private static func ingredientLine(_ element: Value, _ text: SchemaOrgRecipeParser, amountsDisabled: Bool)
        -> String?
    {
        if let s = element.stringValue { return ImportText.nonEmpty(HTMLText.normalize(s)) }
        let note = element["note"].flatMap { text.text($0) }
        func has(_ keys: String...) -> Bool { keys.contains { element[$0].map { !FieldCensus.isEmpty($0) } ?? false } }
        let hasUnit = has("unit", "unit_id")
        let hasFood = has("food", "food_id")
        let quantity = element["quantity"].flatMap { number($0) } ?? 0
        let disabled = flag(element["disableAmount"] ?? element["disable_amount"]) ?? amountsDisabled
        let isFood = flag(element["isFood"] ?? element["is_food"])
        if let note, disabled || (!hasUnit && !hasFood && (isFood == false || quantity == 0 || quantity == 1)) {
            return note
        }
        for key in ["originalText", "original_text", "display"] {
            if let s = element[key].flatMap({ text.text($0) }) { return s }
        }
        var parts: [String] = []
        if quantity != 0 { parts.append(format(quantity)) }
        if let unit = element["unit"].flatMap({ text.text($0["name"] ?? $0) }) { parts.append(unit) }
        if let food = element["food"].flatMap({ text.text($0["name"] ?? $0) }) { parts.append(food) }
        if let note { parts.append(parts.isEmpty ? note : ", " + note) }
        let line = parts.joined(separator: " ").replacingAll(" , ", with: ", ")
        return line.isEmpty ? nil : line
    }

    private static func flag(_ value: Value?) -> Bool? {
        if case .bool(let b)? = value { return b }
        return nil
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let i): Double(i)
        case .double(let d): d
        case .string(let s): Double(s.trimmingWhitespace)
        default: nil
        }
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    private static func int(_ value: Value) -> Int? {
        switch value {
        case .int(let i): Int(i)
        case .double(let d): Int(rounding: d, .towardZero)
        default: nil
        }
    }
}
