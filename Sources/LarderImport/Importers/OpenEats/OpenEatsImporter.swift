import Foundation
import LarderCore
import LarderFormats

/// Imports an OpenEats database dump: Django's `dumpdata` JSON, one list of `{model, pk, fields}`
/// rows that reference each other by primary key.
///
/// `recipe.recipe` rows are the recipes (`title`, `info`, `directions`, `source`, `prep_time`,
/// `cook_time`, `servings`, `photo`, `cuisine`, `course`, `tags`); `ingredient.ingredientgroup`
/// rows (`recipe`, `title`) group `ingredient.ingredient` rows (`title`, `numerator`,
/// `denominator`, `measurement`, `ingredient_group`); `recipe_groups.cuisine`, `.course` and `.tag`
/// rows name the cuisine, course and tags; `rating.rating` rows (`recipe`, `comment`, `rating`) are
/// reviews. The rows are read as Tandoor's OpenEats importer (cookbook/integration/openeats.py)
/// reads them. The joins need every row, so the dump is read whole, within the record size limit.
/// Each recipe is isolated: one without a title is rejected with its index and field path; fields
/// Larder has no field for (`photo`, a path on the OpenEats server) are kept in `extras.openeats`.
package struct OpenEatsImporter: RecipeImporter {
    package var format: ImportFormat { .openeats }

    /// Creates the importer.
    package init() {}

    /// A dump's rows, joined.
    struct Dump {
        var recipes: [(pk: String, fields: Fields)] = []
        var names: [String: [String: String]] = [:]
        var groups: [String: (recipe: String, title: String)] = [:]
        var ingredients: [String: [(group: String, fields: Fields)]] = [:]
        var ratings: [String: [Fields]] = [:]

        init(_ rows: [Value]) {
            // Django's model labels are case-insensitive: older dumps write `ingredient.IngredientGroup`.
            for row in rows {
                guard let model = row["model"]?.stringValue?.lowercased(), let fields = row["fields"]?.objectValue
                else { continue }
                let pk = OpenEatsImporter.key(row["pk"])
                switch model {
                case "recipe.recipe": recipes.append((pk, fields))
                case "recipe_groups.cuisine", "recipe_groups.course", "recipe_groups.tag":
                    names[model, default: [:]][pk] = fields["title"]?.stringValue
                case "ingredient.ingredientgroup":
                    groups[pk] = (OpenEatsImporter.key(fields["recipe"]), fields["title"]?.stringValue ?? "")
                case "rating.rating": ratings[OpenEatsImporter.key(fields["recipe"]), default: []].append(fields)
                default: break
                }
            }
            for row in rows where row["model"]?.stringValue?.lowercased() == "ingredient.ingredient" {
                guard let fields = row["fields"]?.objectValue else { continue }
                let group = OpenEatsImporter.key(fields["ingredient_group"])
                guard let recipe = groups[group]?.recipe else { continue }
                ingredients[recipe, default: []].append((group, fields))
            }
        }
    }

    package func importItems(at path: String, context: ImportContext) throws {
        var isDirectory: ObjCBool = false
        let files =
            FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? Self.dumpFiles(in: path) : [path]
        // A dump split over several files (Django's dumpdata per app: recipes, ingredients,
        // courses, cuisines) is one dump: its rows reference each other across the files.
        var rows: [Value] = []
        for file in files {
            guard
                let part = try context.readJSON(try FileByteSource(path: file), origin: ImportOrigin(file: file))
                    .arrayValue
            else {
                throw LarderError(
                    .malformedRecord, "an OpenEats dump is a JSON list of {model, pk, fields} rows",
                    location: SourceLocation(file: file))
            }
            rows.append(contentsOf: part)
        }
        let origin = ImportOrigin(file: files.count == 1 ? files[0] : path)
        let dump = Dump(rows)
        for (index, row) in dump.recipes.enumerated() {
            let itemOrigin = origin.item(index)
            try context.isolating(itemOrigin, raw: .object(row.fields)) {
                try context.records.recipe(
                    try Self.recipe(pk: row.pk, fields: row.fields, dump: dump), origin: itemOrigin)
            }
        }
    }

    /// The `.json` files directly in `folder` that are Django dumpdata (a list of `{model, pk,
    /// fields}` rows, by their first bytes), in name order.
    static func dumpFiles(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.lowercased().hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            .map { folder + "/" + $0 }
            .filter { file in
                guard let head = try? FileByteSource(path: file).readPrefix(ImportDetector.sniffLength) else {
                    return false
                }
                let keys = ContentKeys(json: String(decoding: head, as: UTF8.self))
                let whitespace: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
                let firstByte: UInt8? = head.first { !whitespace.contains($0) }
                return firstByte == UInt8(ascii: "[") && keys.has("model") && keys.has("pk") && keys.has("fields")
            }
    }

    /// Whether a dump file holds `recipe.recipe` rows (the part the others join to).
    static func holdsRecipes(_ file: String) -> Bool {
        guard let head = try? FileByteSource(path: file).readPrefix(ImportDetector.sniffLength) else { return false }
        return String(decoding: head, as: UTF8.self).contains("\"recipe.recipe\"")
    }

    /// A primary key as text (Django writes integers).
    static func key(_ value: Value?) -> String {
        switch value {
        case .int(let i)?: String(i)
        case .string(let s)?: s
        default: ""
        }
    }

    /// The largest count (minutes, servings) a row may hold: past it, a number is not one.
    static let maximumCount = Double(Int32.max)

    /// The recipe a `recipe.recipe` row describes, joined with its ingredients, names and ratings.
    /// - Throws: ``LarderError`` `malformed-record` at `title` when the recipe has no title, and at
    ///   `prep_time`, `cook_time` or `servings` when it holds a number past ``maximumCount``.
    static func recipe(pk: String, fields: Fields, dump: Dump) throws -> ImportedRecipe {
        func text(_ key: String) -> String? { fields[key]?.stringValue.flatMap(ImportText.nonEmpty) }
        /// A positive count, without its fraction; nil for none, zero or less.
        func count(_ key: String) throws -> Int? {
            guard let number = ImportText.number(fields[key]), number > 0 else { return nil }
            guard number <= maximumCount else {
                throw LarderError(
                    .malformedRecord, "expected a number up to \(Int32.max), found \(number)",
                    location: SourceLocation(fieldPath: FieldPath(parsing: key)))
            }
            return Int(number)
        }
        func name(_ model: String, _ value: Value?) -> String? { dump.names[model]?[Self.key(value)] }
        guard let title = text("title") else {
            throw LarderError(.malformedRecord, "the recipe has no title", location: SourceLocation(fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title)
        recipe.nativeID = "openeats:\(pk)"
        recipe.description = text("info")
        recipe.steps = CSVImporter.lines(text("directions")).map { ImportedRecipe.Step(text: $0) }
        if let source = text("source") {
            if source.contains("://") { recipe.sourceURL = source } else { recipe.sourceName = source }
        }
        recipe.prepMinutes = try count("prep_time")
        recipe.cookMinutes = try count("cook_time")
        recipe.servings = try count("servings")
        recipe.cuisine = name("recipe_groups.cuisine", fields["cuisine"])
        recipe.categories = name("recipe_groups.course", fields["course"]).map { [$0] } ?? []
        recipe.keywords = (fields["tags"]?.arrayValue ?? []).compactMap { name("recipe_groups.tag", $0) }
        for (group, ingredient) in dump.ingredients[pk] ?? [] {
            if let heading = dump.groups[group]?.title, !heading.isEmpty,
                !recipe.ingredientHeadings.values.contains(heading)
            {
                recipe.ingredientHeadings[recipe.ingredients.count] = heading
            }
            recipe.ingredients.append(line(ingredient))
        }
        let ratings = dump.ratings[pk] ?? []
        recipe.reviews = ratings.compactMap { $0["comment"]?.stringValue.flatMap(ImportText.nonEmpty) }
        let scores = ratings.compactMap { ImportText.number($0["rating"]) }
        if !scores.isEmpty {
            recipe.rating = scores.reduce(0, +) / Double(scores.count)
            recipe.ratingCount = scores.count
        }
        let fates: [String: FieldFate] = recipe.sourceName != nil ? ["source": .carried("sourceName")] : [:]
        recipe.takeCensus(of: fields, table: fieldTable, overrides: fates)
        return recipe
    }

    /// An ingredient row as a line: the amount (`numerator / denominator`), measurement and title.
    private static func line(_ fields: Fields) -> String {
        let numerator = ImportText.number(fields["numerator"])
        let denominator = ImportText.number(fields["denominator"]) ?? 1
        let amount = numerator.flatMap { $0 > 0 && denominator > 0 ? $0 / denominator : nil }
        let measurement = fields["measurement"]?.stringValue?.trimmingWhitespace ?? ""
        let title = fields["title"]?.stringValue?.trimmingWhitespace ?? ""
        let parts = [amount.map(CroutonQuantity.number) ?? "", measurement, title]
        return parts.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// What the importer does with each field of a `recipe.recipe` row; any other field is kept in
    /// `extras.openeats`.
    package static let fieldTable = FieldTable(
        .openeats,
        [
            "title": .carried("title"), "info": .carried("description"), "directions": .carried("instructions"),
            "source": .carried("sourceURL"), "prep_time": .carried("prepTime"), "cook_time": .carried("cookTime"),
            "servings": .carried("servings"), "cuisine": .carried("cuisines"), "course": .carried("categories"),
            "tags": .carried("tags"),
        ])
}
