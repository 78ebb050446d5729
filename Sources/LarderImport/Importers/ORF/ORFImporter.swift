package import LarderCore
import LarderFormats

/// Imports Open Recipe Format YAML.
///
/// Reads `recipe_name`, `yields` (amounts with units, or servings), ingredients keyed by name
/// with their first `amounts` entry, `processing` and `notes`, `steps` (`step:` items), times
/// (`prep_time`, `cook_time`, `oven_time` ranges take their upper end), `source_url`,
/// `recipe_uuid` and `notes`. The string `None` means empty.
/// YAML is read with the YAML 1.2 core schema, so `Off` stays a string.
package struct ORFImporter: RecipeImporter {
    package var format: ImportFormat { .orf }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        let reader = try YAMLReader(source: TranscodingByteSource(try FileByteSource(path: path), encoding: nil))
        var index = 0
        while let item = try reader.next() {
            let origin = index == 0 ? ImportOrigin(file: path) : ImportOrigin(file: path, index: index)
            index += 1
            try context.isolating(origin, raw: item.value) {
                do {
                    try context.records.recipe(try Self.recipe(from: item.value), origin: origin)
                } catch let error as LarderError {
                    // Point at the field's line in the YAML when the reader knows it.
                    if let path = error.location?.fieldPath, let location = reader.location(of: path) {
                        throw error.locatedAt(location)
                    }
                    throw error.locatedAt(item.location)
                }
            }
        }
    }

    /// The recipe an ORF document describes.
    /// - Throws: ``LarderError`` `malformed-record` with the field path (`ingredients[2]`).
    package static func recipe(from value: Value) throws -> ImportedRecipe {
        guard let fields = value.objectValue else {
            throw LarderError(.malformedRecord, "expected an ORF recipe mapping, found \(value.kindDescription)")
        }
        func text(_ value: Value?) -> String? { Self.text(value) }
        guard let title = text(fields["recipe_name"]) else {
            throw LarderError(
                .malformedRecord, "the recipe has no recipe_name", location: SourceLocation(fieldPath: "recipe_name"))
        }
        var recipe = ImportedRecipe(title: title)
        // Members of carried fields that the record does not hold, by their path.
        var nested = Fields()
        var stepNotes: [String] = []
        recipe.nativeID = text(fields["recipe_uuid"])
        recipe.author = text(fields["source_authors"]) ?? text(fields["author"])
        recipe.sourceURL = text(fields["source_url"]).flatMap { $0.hasPrefix("http") ? $0 : nil }
        if let first = fields["yields"]?.arrayValue?.first ?? fields["yields"] {
            let yieldText: String?
            if let servings = text(first["servings"]) {
                yieldText = "\(servings) servings"
            } else if let amount = text(first["amount"]) {
                yieldText = [amount, text(first["unit"])].compactMap { $0 }.joined(separator: " ")
            } else {
                yieldText = text(first)
            }
            if let yieldText {
                recipe.yieldText = RecipeYield.normalized(
                    yieldText, count: String(yieldText.prefix { $0.isNumber || $0 == "." }))
                recipe.servings = RecipeYield.servings(yieldText)
            }
        }
        recipe.prepMinutes = text(fields["prep_time"]).flatMap(RecipeTime.minutes)
        recipe.cookMinutes = (text(fields["cook_time"]) ?? text(fields["oven_time"])).flatMap(RecipeTime.minutes)
        recipe.totalMinutes = text(fields["total_time"]).flatMap(RecipeTime.minutes)
        if let ingredients = fields["ingredients"], !ingredients.isNull {
            guard let list = ingredients.arrayValue else {
                throw LarderError(
                    .malformedRecord, "expected a list of ingredients, found \(ingredients.kindDescription)",
                    location: SourceLocation(fieldPath: "ingredients"))
            }
            for (index, element) in list.enumerated() {
                let path = FieldPath.root.appending("ingredients").appending(index: index)
                if let plain = text(element) {
                    recipe.ingredients.append(plain)
                    continue
                }
                guard let line = Self.ingredientLine(element) else {
                    throw LarderError(
                        .malformedRecord, "expected `- name: {amounts: …}`, found \(element.kindDescription)",
                        location: SourceLocation(fieldPath: path))
                }
                recipe.ingredients.append(line)
                // What the line does not say stays in extras under its path: the USDA number, the
                // amounts for the other yields, the substitutions as written.
                if let name = element.objectValue?.first?.key, let details = element[name]?.objectValue {
                    for key in ["usda_num", "amounts", "substitutions"] {
                        guard let value = details[key], !FieldCensus.isEmpty(value) else { continue }
                        if key == "amounts", (value.arrayValue?.count ?? 0) < 2 { continue }
                        // A member path as the member census writes it (`ingredients[0/2].apple.usda_num`).
                        nested.append(key: "ingredients[\(index)/\(list.count)].\(name).\(key)", value: value)
                    }
                }
            }
        }
        if let steps = fields["steps"], !steps.isNull {
            guard let list = steps.arrayValue else {
                throw LarderError(
                    .malformedRecord, "expected a list of steps, found \(steps.kindDescription)",
                    location: SourceLocation(fieldPath: "steps"))
            }
            for (index, element) in list.enumerated() {
                guard let step = text(element["step"]) ?? text(element) else {
                    throw LarderError(
                        .malformedRecord, "expected `- step: text`, found \(element.kindDescription)",
                        location: SourceLocation(fieldPath: FieldPath.root.appending("steps").appending(index: index)))
                }
                recipe.steps.append(.init(text: HTMLText.collapseWhitespace(step)))
                // A step's notes and HACCP control points join the recipe's notes, naming the step.
                for note in element["notes"]?.arrayValue?.compactMap({ text($0) }) ?? text(element["notes"]).map({
                    [$0]
                })
                    ?? []
                {
                    stepNotes.append("Step \(index + 1): \(note)")
                }
                for field in element["haccp"]?.objectValue ?? Fields() {
                    guard let value = text(field.value) else { continue }
                    let label = field.key.replacingAll("_", with: " ")
                    stepNotes.append("Step \(index + 1), HACCP \(label): \(value)")
                }
            }
        }
        let notes =
            (fields["notes"]?.arrayValue?.compactMap { text($0) } ?? text(fields["notes"]).map { [$0] } ?? [])
            + stepNotes
        if !notes.isEmpty { recipe.notes = notes.joined(separator: "\n") }
        recipe.sourceName = text(fields["source_book"])
        var overrides: [String: FieldFate] = [:]
        if text(fields["source_authors"]) != nil { overrides["author"] = .extras }
        if text(fields["cook_time"]) != nil { overrides["oven_time"] = .extras }
        if let url = text(fields["source_url"]), !url.hasPrefix("http") { overrides["source_url"] = .extras }
        recipe.takeCensus(of: fields, table: fieldTable, overrides: overrides)
        // A time written as a range (`oven_time: 50 - 60 minutes`) gives its upper end, and stays
        // as written; so do the yields past the first.
        for key in ["prep_time", "cook_time", "oven_time", "total_time"] {
            if let written = text(fields[key]), RecipeTime.isRange(written) {
                nested.append(key: key, value: fields[key] ?? .null)
            }
        }
        if let yields = fields["yields"]?.arrayValue, yields.count > 1 {
            nested.append(key: "yields", value: .array(yields))
        }
        recipe.keepInExtras(nested, format: .orf)
        return recipe
    }

    /// A scalar's text, trimmed; `nil` for nothing, `none`, and YAML's `.inf`/`.nan`.
    static func text(_ value: Value?) -> String? {
        guard let value else { return nil }
        let t: String?
        switch value {
        case .string(let s): t = s
        case .int(let i): t = String(i)
        // A YAML `.inf` or `.nan` is no text Larder can use (`inf servings` would read as 0):
        // absent here, so the field census keeps it in extras as written.
        case .double(let d) where !d.isFinite: t = nil
        case .double(let d): t = Int(exactly: d).map { String($0) } ?? String(d)
        default: t = nil
        }
        guard let t = t?.trimmingWhitespace, !t.isEmpty, t.lowercased() != "none" else { return nil }
        return t
    }

    /// An ingredient entry's line: the first amount and unit, the name, the processing, and in
    /// parentheses its notes and its substitutions (`or 4 pears`).
    private static func ingredientLine(_ element: Value) -> String? {
        guard let entry = element.objectValue, entry.count == 1, let name = entry.first?.key else { return nil }
        let details = entry.first?.value ?? .null
        var parts: [String] = []
        if let amount = details["amounts"]?.arrayValue?.first {
            if let quantity = text(amount["amount"]) { parts.append(quantity) }
            if let unit = text(amount["unit"]), unit.lowercased() != "each" { parts.append(unit) }
        }
        parts.append(name)
        var line = parts.joined(separator: " ")
        let processing = details["processing"]?.arrayValue?.compactMap { text($0) } ?? []
        if !processing.isEmpty { line += ", " + processing.joined(separator: ", ") }
        var notes = details["notes"]?.arrayValue?.compactMap { text($0) } ?? []
        notes += (details["substitutions"]?.arrayValue ?? []).compactMap { substitute in
            (text(substitute) ?? ingredientLine(substitute)).map { "or \($0)" }
        }
        if !notes.isEmpty { line += " (" + notes.joined(separator: "; ") + ")" }
        return line
    }

    /// What the importer does with each key of an Open Recipe Format document; any other key
    /// (`oven_temp`, `oven_fan`, `variants`, …) is kept in `extras.orf`.
    package static let fieldTable = FieldTable(
        .orf,
        [
            "recipe_name": .carried("title"), "recipe_uuid": .carried("id"), "source_authors": .carried("author"),
            "author": .carried("author"), "source_url": .carried("sourceURL"), "source_book": .carried("sourceName"),
            "yields": .carried("yield"), "prep_time": .carried("prepTime"), "cook_time": .carried("cookTime"),
            "oven_time": .carried("cookTime"), "total_time": .carried("totalTime"),
            "ingredients": .carried("ingredients"), "steps": .carried("instructions"), "notes": .carried("notes"),
        ],
        leaves: [
            "ingredients[].*.amounts[].unit": .dropped(
                "`each`, the unit of a count, which the ingredient line leaves out")
        ])
}
