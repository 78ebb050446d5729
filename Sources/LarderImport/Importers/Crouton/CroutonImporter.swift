import Foundation
package import LarderCore
import LarderFormats

/// Imports Crouton's `.crumb` recipes: one JSON object per file, alone, in a zip or in a folder.
///
/// A `.crumb` holds `uuid`, `name`, `serves`, `defaultScale`, `duration` (preparation minutes),
/// `cookingDuration` (minutes), `webLink`, `sourceName`, `notes`, `neutritionalInfo` (Crouton's
/// spelling: `Label: value,` lines), `tags` (`{uuid, name, color}`), `ingredients`
/// (`{uuid, order, ingredient: {uuid, name}, quantity: {amount, secondaryAmount, quantityType}}`),
/// `steps` (`{uuid, order, step, isSection}`), `images` and `sourceImage` (base64 JPEG),
/// `rating`, `isPublicRecipe`, `folderIDs`. Ingredients and steps are read in `order`; a quantity
/// becomes the start of the ingredient line (``CroutonQuantity``). Fields Larder has no field for
/// (`defaultScale`, `folderIDs`, `isPublicRecipe`, …) are kept in `extras.crouton`. Each file is one
/// record, isolated: one without a name is rejected with its entry and field path.
package struct CroutonImporter: RecipeImporter {
    package var format: ImportFormat { .crouton }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            try FolderWalker(path: path).forEachFile(context: context, accept: Self.isCrumb) { _, resolved, origin in
                try read(try FileByteSource(path: resolved), origin: origin, context: context)
            }
        } else if ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) {
            let isCrumb: (ZipEntry) -> Bool = { Self.isCrumb($0.path) }
            try ArchiveWalker(path: path).forEachEntry(context: context, accept: isCrumb) { _, source, origin in
                try read(source, origin: origin, context: context)
            }
        } else {
            try read(try FileByteSource(path: path), origin: ImportOrigin(file: path), context: context)
        }
    }

    /// Whether a path names a Crouton recipe file.
    private static func isCrumb(_ path: String) -> Bool { path.lowercased().hasSuffix(".crumb") }

    private func read(_ source: any ByteSource, origin: ImportOrigin, context: ImportContext) throws {
        let value = try context.readJSON(source, origin: origin)
        try context.isolating(origin, raw: value) {
            try context.records.recipe(try Self.recipe(from: value), origin: origin)
        }
    }

    /// The recipe one `.crumb` object describes.
    /// - Throws: ``LarderError`` `malformed-record` with the field path (`name`, `images[1]`).
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        let r = try ValueReader(value)
        guard let title = try r.optionalString("name")?.trimmingWhitespace, !title.isEmpty else {
            throw LarderError(.malformedRecord, "the recipe has no name", location: SourceLocation(fieldPath: "name"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.nativeID = try r.optionalString("uuid")
        recipe.larderID = recipe.nativeID.flatMap(ImportedRecipe.usableID)
        // A number past Int's range (`1e300`) is none; the census keeps the field as written in extras.
        recipe.servings = try r.optionalDouble("serves").flatMap { Int(rounding: $0) }
        recipe.prepMinutes = try r.optionalDouble("duration").flatMap { $0 > 0 ? Int(rounding: $0) : nil }
        recipe.cookMinutes = try r.optionalDouble("cookingDuration").flatMap { $0 > 0 ? Int(rounding: $0) : nil }
        recipe.sourceURL = try r.optionalString("webLink").flatMap(ImportText.nonEmpty)
        recipe.sourceName = try r.optionalString("sourceName").flatMap(ImportText.nonEmpty)
        recipe.notes = try r.optionalString("notes").flatMap(ImportText.nonEmpty)
        recipe.rating = try r.optionalDouble("rating").flatMap { $0 > 0 ? $0 : nil }
        recipe.nutrition = nutrition(try r.optionalString("neutritionalInfo"))
        recipe.keywords = (value["tags"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue ?? $0.stringValue }
        recipe.ingredients = ordered(value["ingredients"]).map(ingredientLine)
        for step in ordered(value["steps"]) {
            guard let text = step["step"]?.stringValue?.trimmingWhitespace, !text.isEmpty else { continue }
            recipe.steps.append(ImportedRecipe.Step(text: text, isSection: step["isSection"] == .bool(true)))
        }
        recipe.images = try images(value)
        var fates: [String: FieldFate] = [:]
        if ImportText.number(value["rating"]) == 0 { fates["rating"] = .dropped("0: not rated") }
        if recipe.larderID == nil { fates["uuid"] = .extras }
        recipe.takeCensus(of: r.fields, table: fieldTable, overrides: fates)
        return recipe
    }

    /// What the importer does with each key of a `.crumb`; any other key is kept in `extras.crouton`.
    package static let fieldTable = FieldTable(
        .crouton,
        [
            "uuid": .carried("id"), "name": .carried("title"), "serves": .carried("servings"),
            "duration": .carried("prepTime"), "cookingDuration": .carried("cookTime"),
            "webLink": .carried("sourceURL"), "sourceName": .carried("sourceName"), "notes": .carried("notes"),
            "rating": .carried("rating"), "neutritionalInfo": .carried("nutrition"), "tags": .carried("tags"),
            "ingredients": .carried("ingredients"), "steps": .carried("instructions"), "images": .carried("images"),
            "sourceImage": .carried("images"),
        ])

    /// The elements of a list in their `order` (those without one keep their place at the end).
    private static func ordered(_ value: Value?) -> [Value] {
        let elements = value?.arrayValue ?? []
        return elements.enumerated().sorted {
            (ImportText.number($0.element["order"]) ?? Double($0.offset + 1_000_000), $0.offset)
                < (ImportText.number($1.element["order"]) ?? Double($1.offset + 1_000_000), $1.offset)
        }.map(\.element)
    }

    private static func ingredientLine(_ element: Value) -> String {
        let name = (element["ingredient"]?["name"]?.stringValue ?? element["name"]?.stringValue ?? "")
            .trimmingWhitespace
        let quantity = element["quantity"]
        return CroutonQuantity.line(
            amount: ImportText.number(quantity?["amount"]), upper: ImportText.number(quantity?["secondaryAmount"]),
            code: quantity?["quantityType"]?.stringValue, name: name)
    }

    /// `Label: value,` lines as nutrition, under Larder's key for the label when it has one.
    static func nutrition(_ text: String?) -> [String: String] {
        var result: [String: String] = [:]
        var accounted = true
        for line in (text ?? "").nonEmptyLines {
            var entry = line.trimmingCharacters(in: .whitespaces)
            if entry.hasSuffix(",") { entry.removeLast() }
            guard !entry.isEmpty else { continue }
            let parts = entry.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
                let key = nutritionKey(parts[0])
                result[Nutrition.keys.contains(key) ? key : parts[0]] = parts[1]
            } else if let (label, amount) = labelledAmount(entry), result[nutritionKey(label)] == nil,
                Nutrition.keys.contains(nutritionKey(label))
            {
                // A nutrition panel's line: `Total Fat 132g 170%`, `1683 Calories`.
                result[nutritionKey(label)] = amount
            } else {
                accounted = false
            }
        }
        // Free text the lines above do not account for stays whole, as written.
        if !accounted, let text, !text.trimmingWhitespace.isEmpty { result["text"] = text.trimmingWhitespace }
        return result
    }

    /// The schema.org nutrient a label names: `Total Fat` → `fatContent`, `Calories` → `calories`.
    private static func nutritionKey(_ label: String) -> String {
        var words = label.split(separator: " ").map(String.init)
        if words.count > 1, words[0].lowercased() == "total" { words.removeFirst() }
        let first = words.first.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? ""
        let camel = first + words.dropFirst().map(\.capitalized).joined()
        if camel.lowercased() == "carbohydrates" || camel.lowercased() == "carbs" { return "carbohydrateContent" }
        return CSVProfile.nutritionKey(camel)
    }

    /// `Total Fat 132g 170%` → (`Total Fat`, `132g`); `1683 Calories` → (`Calories`, `1683`).
    private static func labelledAmount(_ line: String) -> (String, String)? {
        let words = line.split(separator: " ").map(String.init).filter { !$0.hasSuffix("%") }
        guard words.count >= 2 else { return nil }
        func isAmount(_ word: String) -> Bool {
            guard let first = word.first, first.isNumber else { return false }
            let unit = word.drop { $0.isNumber || $0 == "." || $0 == "," }.lowercased()
            return ["", "g", "mg", "mcg", "µg", "kcal", "cal", "kj"].contains(unit)
        }
        if isAmount(words[0]), words.count == 2 { return (words[1], words[0]) }
        if let last = words.last, isAmount(last) { return (words.dropLast().joined(separator: " "), last) }
        return nil
    }

    /// The base64 photos (`images`, then `sourceImage`).
    private static func images(_ value: Value) throws -> [ImportedRecipe.Image] {
        var encoded = (value["images"]?.arrayValue ?? []).enumerated().map {
            ($0.element, FieldPath.root.appending("images").appending(index: $0.offset))
        }
        if let source = value["sourceImage"] { encoded.append((source, FieldPath.root.appending("sourceImage"))) }
        return try encoded.compactMap { element, path in
            guard let text = element.stringValue, !text.isEmpty else { return nil }
            guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !bytes.isEmpty else {
                throw LarderError(
                    .malformedRecord, "the image is not base64", location: SourceLocation(fieldPath: path))
            }
            return HTMLExportArchive.image(Array(bytes))
        }
    }
}
