import Foundation
package import LarderCore
import LarderFormats

/// Imports Tandoor exports.
///
/// An export is a zip archive holding one zip per recipe, each with Tandoor's `recipe.json`
/// (steps with their ingredients, keywords, working and waiting times) and an `image.*`.
/// A bare `recipe.json` or one recipe's zip also imports.
package struct TandoorImporter: RecipeImporter {
    package var format: ImportFormat { .tandoor }

    /// How many levels of zips inside the outer archive are searched for recipes.
    package static let maxNesting = 3

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let head = try FileByteSource(path: path).readPrefix(4)
        guard ZipArchive.isZip(head) else {
            try read(try FileByteSource(path: path), image: nil, origin: ImportOrigin(file: path), context: context)
            return
        }
        try importArchive(path, origin: ImportOrigin(file: path), context: context, depth: 0)
    }

    private func importArchive(_ path: String, origin: ImportOrigin, context: ImportContext, depth: Int) throws {
        let archive = try ZipArchive(path: path)
        var recipeEntry: ZipEntry?
        var imageEntry: ZipEntry?
        var inner: [ZipEntry] = []
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            let name = entry.fileName.lowercased()
            if name.hasSuffix(".zip") { inner.append(entry) }
            if name == "recipe.json" { recipeEntry = entry }
            if name.hasPrefix("image.") { imageEntry = entry }
        }
        if let recipeEntry {
            let recipeOrigin = origin.entry(recipeEntry.path)
            try context.isolating(recipeOrigin) {
                let image = try imageEntry.map { try archive.open($0).readAll(limit: 64 << 20) }
                try read(archive.open(recipeEntry), image: image, origin: recipeOrigin, context: context)
            }
        }
        guard depth < Self.maxNesting else { return }
        for entry in inner {
            let entryOrigin = origin.entry(entry.path)
            try context.isolating(entryOrigin) {
                try archive.withExtracted(entry, archive: path) { temporary in
                    try importArchive(temporary, origin: entryOrigin, context: context, depth: depth + 1)
                }
            }
        }
    }

    private func read(_ source: any ByteSource, image: [UInt8]?, origin: ImportOrigin, context: ImportContext) throws {
        let value = try context.readJSON(source, origin: origin)
        try context.isolating(origin, raw: value) {
            var recipe = try Self.recipe(from: value)
            if let image, !image.isEmpty {
                recipe.images = [.data(image, fileExtension: ImageKind.fileExtension(for: Array(image.prefix(16))))]
            }
            try context.records.recipe(recipe, origin: origin)
        }
    }

    /// The recipe a Tandoor `recipe.json` describes.
    /// - Throws: ``LarderError`` `malformed-record` with the field path (`steps[1].ingredients[0].amount`).
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        let r = try ValueReader(value)
        let name = (try r.optionalString("name") ?? "").trimmingWhitespace
        guard !name.isEmpty else {
            throw LarderError(.malformedRecord, "the recipe has no name", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: name)
        recipe.description = try r.optionalString("description").flatMap(ImportText.nonEmpty)
        recipe.sourceURL = try r.optionalString("source_url").flatMap(ImportText.nonEmpty)
        recipe.prepMinutes = try r.optionalInt("working_time").flatMap { $0 > 0 ? $0 : nil }
        recipe.cookMinutes = try r.optionalInt("waiting_time").flatMap { $0 > 0 ? $0 : nil }
        // Two times of Int.max minutes add up to no total rather than overflow.
        if recipe.prepMinutes != nil || recipe.cookMinutes != nil,
            case (let sum, false) = (recipe.prepMinutes ?? 0).addingReportingOverflow(recipe.cookMinutes ?? 0)
        {
            recipe.totalMinutes = sum
        }
        if let servings = try r.optionalDouble("servings"), servings > 0 {
            guard let number = Int(rounding: servings) else {
                throw LarderError(
                    .malformedRecord, "expected a number of servings up to \(Int.max), found \(servings)",
                    location: SourceLocation(fieldPath: "servings"))
            }
            recipe.servings = number
            let text = try r.optionalString("servings_text").flatMap(ImportText.nonEmpty)
            let count = String(number)
            recipe.yieldText = RecipeYield.normalized("\(count) \(text ?? "servings")", count: count)
        }
        recipe.keywords = try r.list("keywords") { element, path in
            guard let name = element.stringValue ?? element["name"]?.stringValue else {
                throw LarderError(
                    .malformedRecord, "expected a keyword name, found \(element.kindDescription)",
                    location: SourceLocation(fieldPath: path))
            }
            return name
        }
        if let nutrition = r.fields["nutrition"]?.objectValue {
            for field in nutrition where !field.key.hasPrefix("@") && field.key != "id" {
                // Tandoor names its nutrition `carbohydrates`, `fats`, `proteins`, `calories`.
                let key = Self.nutritionNames[field.key] ?? field.key
                if let text = SchemaOrgRecipeParser().text(field.value) { recipe.nutrition[key] = text }
            }
        }
        let steps = try r.list("steps") { element, path in (element, path) }
        for (step, path) in steps.sorted(by: {
            ($0.0["order"].flatMap(Self.int) ?? 0) < ($1.0["order"].flatMap(Self.int) ?? 0)
        }) {
            let s = try ValueReader(step, at: path)
            if let heading = try s.optionalString("name").flatMap(ImportText.nonEmpty) {
                recipe.steps.append(.init(text: heading, isSection: true))
            }
            for ingredient in try s.list(
                "ingredients", { element, ingredientPath in try Self.ingredientLine(element, at: ingredientPath) })
            {
                switch ingredient {
                case .heading(let text): recipe.ingredientHeadings[recipe.ingredients.count] = text
                case .line(let text): recipe.ingredients.append(text)
                }
            }
            let minutes = try s.optionalInt("time")
            for (index, line) in ImportText.lines(try s.optionalString("instruction")).enumerated() {
                recipe.steps.append(
                    .init(text: line, timerSeconds: index == 0 ? minutes.flatMap { $0 > 0 ? $0 * 60 : nil } : nil))
            }
        }
        recipe.takeCensus(of: r.fields, table: fieldTable)
        recipe.takeMemberCensus(of: r.fields, roots: structuredFields, format: .tandoor, census: memberCensus())
        return recipe
    }

    /// Tandoor's nutrition names, as schema.org names them.
    private static let nutritionNames = [
        "carbohydrates": "carbohydrateContent", "fats": "fatContent", "proteins": "proteinContent",
        "calories": "calories",
    ]

    /// What the importer does with each field of a Tandoor `recipe.json` (its export serializer's
    /// fields); any other field (`internal`, `image`, `properties`, `show_ingredient_overview`, …)
    /// is kept in `extras.tandoor`.
    package static let fieldTable = FieldTable(
        .tandoor,
        [
            "name": .carried("title"), "description": .carried("description"), "keywords": .carried("tags"),
            "working_time": .carried("prepTime"), "waiting_time": .carried("cookTime"),
            "servings": .carried("servings"), "servings_text": .carried("yield"), "source_url": .carried("sourceURL"),
            "nutrition": .carried("nutrition"), "steps": .carried("instructions"),
        ])

    private enum IngredientLine {
        case heading(String)
        case line(String)
    }

    private static func ingredientLine(_ value: Value, at path: FieldPath) throws -> IngredientLine {
        let r = try ValueReader(value, at: path)
        let food = r.fields["food"]?["name"]?.stringValue ?? ""
        if try r.bool("is_header", default: false) { return .heading(try r.optionalString("note") ?? food) }
        if let original = try r.optionalString("original_text").flatMap(ImportText.nonEmpty) {
            return .line(original)
        }
        var parts: [String] = []
        if !(try r.bool("no_amount", default: false)), let amount = try r.optionalDouble("amount"), amount > 0 {
            parts.append(Int(exactly: amount).map { String($0) } ?? String(amount))
        }
        if let unit = r.fields["unit"]?["name"]?.stringValue, !unit.isEmpty { parts.append(unit) }
        if !food.isEmpty { parts.append(food) }
        var line = parts.joined(separator: " ")
        if let note = try r.optionalString("note").flatMap(ImportText.nonEmpty) {
            line += line.isEmpty ? note : ", " + note
        }
        guard !line.isEmpty else {
            throw LarderError(
                .malformedRecord, "ingredient has neither food, amount nor note",
                location: SourceLocation(fieldPath: path))
        }
        return .line(line)
    }

    private static func int(_ value: Value) -> Int? {
        switch value {
        case .int(let i): Int(i)
        case .double(let d): Int(rounding: d, .towardZero)
        default: nil
        }
    }
}
