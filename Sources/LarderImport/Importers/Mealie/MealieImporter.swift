import Foundation
public import LarderCore
import LarderFormats

/// Imports Mealie exports and single Mealie recipes.
///
/// Reads the per-recipe JSON files of an export archive (`recipes/<slug>/<slug>.json` with
/// `recipes/<slug>/images/original.*`), Mealie 1.x's `database.json` (recipes joined with their
/// ingredient and instruction tables), or a single recipe's JSON. Reads both the camelCase
/// (1.x API) and snake_case (0.x) field names.
public struct MealieImporter: RecipeImporter {
    public var format: ImportFormat { .mealie }

    /// Creates the importer.
    public init() {}

    public func importItems(at path: String, into sink: any ImportSink) throws {
        let head = try FileByteSource(path: path).readPrefix(4)
        guard ZipArchive.isZip(head) else {
            try readRecipeFile(try FileByteSource(path: path), image: nil, origin: ImportOrigin(file: path), into: sink)
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
            try readDatabase(archive, database, images: images, archivePath: path, into: sink)
            return
        }
        for entry in recipeFiles {
            let origin = ImportOrigin(file: path, entry: entry.path)
            try sink.isolating(origin) {
                _ = try entry.safeRelativePath(archive: path)
                let parts = entry.path.split(separator: "/")
                let folder = parts.count >= 2 ? String(parts[parts.count - 2]) : ""
                let image = try images[folder].map { try archive.open($0).readAll(limit: 64 << 20) }
                try readRecipeFile(archive.open(entry), image: image, origin: origin, into: sink)
            }
        }
    }

    private func readRecipeFile(
        _ source: any ByteSource, image: [UInt8]?, origin: ImportOrigin, into sink: any ImportSink
    ) throws {
        let value = try sink.readJSON(source, origin: origin)
        let items = value.arrayValue ?? [value]
        for (index, item) in items.enumerated() {
            let itemOrigin = items.count > 1 ? origin.item(index) : origin
            try sink.isolating(itemOrigin, raw: item) {
                var recipe = try Self.recipe(from: item)
                if let image, !image.isEmpty {
                    recipe.images = [.data(image, fileExtension: ImageKind.fileExtension(for: Array(image.prefix(16))))]
                }
                try sink.recipe(recipe, origin: itemOrigin)
            }
        }
    }

    /// Mealie 1.x `database.json`: tables by name, rows joined on `recipe_id`.
    private func readDatabase(
        _ archive: ZipArchive, _ entry: ZipEntry, images: [String: ZipEntry], archivePath: String,
        into sink: any ImportSink
    ) throws {
        let origin = ImportOrigin(file: archivePath, entry: entry.path)
        let database = try JSONLDBlocks.parse(
            TranscodingByteSource(try archive.open(entry), encoding: nil), limits: sink.readerLimits.forWholeDocument
        ) { sink.warn(JSONLDBlocks.warningText($0), origin: origin) }
        let recipes = database["recipes"]?.arrayValue ?? []
        func grouped(_ table: String) -> [String: [Value]] {
            var out: [String: [Value]] = [:]
            for row in database[table]?.arrayValue ?? [] {
                if let id = row["recipe_id"]?.stringValue { out[id, default: []].append(row) }
            }
            return out
        }
        let ingredients = grouped("recipes_ingredients")
        let instructions = grouped("recipe_instructions")
        func ordered(_ rows: [Value]) -> [Value] {
            rows.sorted { ($0["position"].flatMap(Self.int) ?? 0) < ($1["position"].flatMap(Self.int) ?? 0) }
        }
        for (index, row) in recipes.enumerated() {
            let itemOrigin = origin.item(index)
            try sink.isolating(itemOrigin, raw: row) {
                guard case .object(var fields) = row else {
                    throw LarderError(.malformedRecord, "expected a recipe row, found \(row.kindDescription)")
                }
                let id = fields["id"]?.stringValue ?? ""
                fields["recipe_ingredient"] = .array(ordered(ingredients[id] ?? []))
                fields["recipe_instructions"] = .array(ordered(instructions[id] ?? []))
                var recipe = try Self.recipe(from: .object(fields))
                if let image = try images[id].map({ try archive.open($0).readAll(limit: 64 << 20) }), !image.isEmpty {
                    recipe.images = [.data(image, fileExtension: ImageKind.fileExtension(for: Array(image.prefix(16))))]
                }
                try sink.recipe(recipe, origin: itemOrigin)
            }
        }
    }

    /// The recipe a Mealie recipe object describes (camelCase or snake_case names).
    /// - Throws: ``LarderError`` `malformed-record` with the field path.
    public static func recipe(from value: Value) throws -> ImportedRecipe {
        let r = try ValueReader(value)
        func field(_ names: String...) -> (String, Value)? {
            for name in names { if let v = r.fields[name], !v.isNull { return (name, v) } }
            return nil
        }
        let text = SchemaOrgRecipeParser()
        let title = field("name").flatMap { text.text($0.1) } ?? ""
        guard !title.isEmpty else {
            throw LarderError(.malformedRecord, "the recipe has no name", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.nativeID = field("id", "slug").flatMap { text.text($0.1) }
        recipe.description = field("description").flatMap { text.text($0.1) }
        recipe.sourceURL = field("orgURL", "org_url").flatMap { $0.1.stringValue }.flatMap(PaprikaImporter.nonEmpty)
        if let (_, yield) = field("recipeYield", "recipe_yield"), let t = text.text(yield) {
            recipe.yieldText = RecipeYield.normalized(t)
            recipe.servings = RecipeYield.servings(t)
        }
        if recipe.servings == nil, let (_, servings) = field("recipeServings", "recipe_servings"),
            case .double(let d) = servings, d > 0
        {
            recipe.servings = Int(d.rounded())
        }
        recipe.totalMinutes = field("totalTime", "total_time").flatMap { text.text($0.1) }.flatMap(RecipeTime.minutes)
        recipe.prepMinutes = field("prepTime", "prep_time").flatMap { text.text($0.1) }.flatMap(RecipeTime.minutes)
        recipe.cookMinutes = field("performTime", "perform_time", "cookTime", "cook_time").flatMap { text.text($0.1) }
            .flatMap(RecipeTime.minutes)
        recipe.categories =
            field("recipeCategory", "recipe_category").map { text.list($0.1, splittingCommas: false) } ?? []
        recipe.keywords = field("tags").map { text.list($0.1, splittingCommas: false) } ?? []
        if let (_, rating) = field("rating") { recipe.rating = text.text(rating).flatMap { Double($0) } }
        if let (_, date) = field("dateAdded", "date_added", "createdAt", "created_at") {
            recipe.createdAt = text.text(date).flatMap(RecipeDate.parse)
        }
        if let (_, date) = field("dateUpdated", "date_updated", "updatedAt", "update_at") {
            recipe.updatedAt = text.text(date).flatMap(RecipeDate.parse)
        }
        if let (name, ingredients) = field("recipeIngredient", "recipe_ingredient") {
            guard let list = ingredients.arrayValue else {
                throw LarderError(
                    .malformedRecord, "expected a list, found \(ingredients.kindDescription)",
                    location: SourceLocation(fieldPath: FieldPath.root.appending(name)))
            }
            for element in list {
                if let heading = element["title"].flatMap({ text.text($0) }) {
                    recipe.ingredientHeadings[recipe.ingredients.count] = heading
                }
                if let line = ingredientLine(element, text) { recipe.ingredients.append(line) }
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
                for line in PaprikaImporter.lines(HTMLText.normalizeKeepingLines(body)) {
                    recipe.steps.append(.init(text: line))
                }
            }
        }
        if let nutrition = field("nutrition")?.1.objectValue {
            for entry in nutrition { if let t = text.text(entry.value) { recipe.nutrition[entry.key] = t } }
        }
        return recipe
    }

    private static func ingredientLine(_ element: Value, _ text: SchemaOrgRecipeParser) -> String? {
        if let s = element.stringValue { return PaprikaImporter.nonEmpty(HTMLText.normalize(s)) }
        for key in ["originalText", "original_text", "display"] {
            if let s = element[key].flatMap({ text.text($0) }) { return s }
        }
        var parts: [String] = []
        if let quantity = element["quantity"], let q = text.text(quantity), q != "0" { parts.append(q) }
        if let unit = element["unit"].flatMap({ text.text($0["name"] ?? $0) }) { parts.append(unit) }
        if let food = element["food"].flatMap({ text.text($0["name"] ?? $0) }) { parts.append(food) }
        if let note = element["note"].flatMap({ text.text($0) }) { parts.append(parts.isEmpty ? note : ", " + note) }
        let line = parts.joined(separator: " ").replacingAll(" , ", with: ", ")
        return line.isEmpty ? nil : line
    }

    private static func int(_ value: Value) -> Int? {
        switch value {
        case .int(let i): Int(i)
        case .double(let d): Int(d)
        default: nil
        }
    }
}
