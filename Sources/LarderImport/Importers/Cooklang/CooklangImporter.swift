import Foundation
import LarderCore
import LarderFormats

/// Imports Cooklang `.cook` files (a folder of them, or a zip of them): ingredients in the
/// order they appear (each as `qty unit name (note)`), steps with the markup read as plain
/// words and the first timer of each step as its timer, and the metadata Larder can hold
/// (title, servings, source, tags, times, cuisine, course).
package struct CooklangImporter: RecipeImporter {
    package var format: ImportFormat { .cooklang }

    /// Creates the importer.
    package init() {}

    package func importItems(at path: String, context: ImportContext) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let isCookFile: (String) -> Bool = { $0.lowercased().hasSuffix(".cook") }
            try FolderWalker(path: path).forEachFile(context: context, accept: isCookFile) { file, resolved, origin in
                try read(
                    try FileByteSource(path: resolved), title: Self.title(fromFileName: file), origin: origin,
                    context: context)
            }
            return
        }
        let head = try FileByteSource(path: path).readPrefix(4)
        if ZipArchive.isZip(head) {
            let isCookFile: (ZipEntry) -> Bool = { $0.path.lowercased().hasSuffix(".cook") }
            try ArchiveWalker(path: path).forEachEntry(context: context, accept: isCookFile) { entry, source, origin in
                try read(source, title: Self.title(fromFileName: entry.fileName), origin: origin, context: context)
            }
            return
        }
        try read(
            try FileByteSource(path: path), title: Self.title(fromFileName: path), origin: ImportOrigin(file: path),
            context: context)
    }

    private func read(_ source: any ByteSource, title: String, origin: ImportOrigin, context: ImportContext) throws {
        let decoded = TranscodingByteSource(source, encoding: nil)
        let text = String(decoding: try decoded.readAll(limit: context.readerLimits.maxRecordSize), as: UTF8.self)
        if decoded.usedFallback { context.warnEncodingFallback(origin) }
        try context.isolating(origin) {
            try context.records.recipe(
                try Self.recipe(from: CooklangParser.parse(text), fallbackTitle: title), origin: origin)
        }
    }

    static func title(fromFileName path: String) -> String {
        let name = String(path.split(separator: "/").last ?? Substring(path))
        return name.lowercased().hasSuffix(".cook") ? String(name.dropLast(5)) : name
    }

    /// The recipe a parsed Cooklang text describes.
    /// - Throws: ``LarderError`` `malformed-record` when it has no title and no steps.
    package static func recipe(from parsed: CooklangRecipe, fallbackTitle: String) throws -> ImportedRecipe {
        let title = parsed.metadata("title") ?? fallbackTitle
        guard !title.trimmingWhitespace.isEmpty else {
            throw LarderError(.malformedRecord, "the recipe has no title", location: SourceLocation(fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title.trimmingWhitespace)
        for step in parsed.steps {
            if step.isSection {
                recipe.steps.append(.init(text: text(of: step.items), isSection: true))
                continue
            }
            var timer: Int?
            for item in step.items {
                switch item {
                case .ingredient(let name, let quantity, let units, let note):
                    // A reference to another recipe (`@./Shared/Pizza Dough{6%balls}`) is named as
                    // that recipe, and the reference stays in the line's note as Cooklang writes it.
                    let reference = Self.recipeReference(name)
                    var line = [quantity, units, reference?.name ?? name].compactMap { $0 }.joined(separator: " ")
                    let notes = [note, reference.map { "recipe: \($0.path)" }].compactMap { $0 }.filter { !$0.isEmpty }
                    if !notes.isEmpty { line += " (\(notes.joined(separator: "; ")))" }
                    recipe.ingredients.append(line)
                case .timer(_, let quantity, let units):
                    if timer == nil, let quantity, let value = RecipeTime.readNumber(Array(quantity), 0)?.0 {
                        timer = seconds(value, units: units ?? "minutes")
                    }
                default: break
                }
            }
            recipe.steps.append(.init(text: text(of: step.items), timerSeconds: timer))
        }
        if let servings = parsed.metadata("servings") ?? parsed.metadata("serves") ?? parsed.metadata("yield") {
            recipe.yieldText = RecipeYield.normalized(servings)
            recipe.yieldAsWritten = servings
            recipe.servings = RecipeYield.servings(servings)
        }
        recipe.sourceURL = (parsed.metadata("source") ?? parsed.metadata("source.url") ?? parsed.metadata("url"))
            .flatMap { $0.hasPrefix("http") ? $0 : nil }
        recipe.keywords = (parsed.metadata("tags") ?? "").split(separator: ",").map { String($0).trimmingWhitespace }
            .filter { !$0.isEmpty }
        recipe.categories = (parsed.metadata("course") ?? parsed.metadata("category")).map { [$0] } ?? []
        recipe.cuisine = parsed.metadata("cuisine")
        // The first spelling whose value reads as a duration (the census keeps the others in extras).
        func minutes(_ larderField: String) -> Int? {
            let keys = Self.metadataKeys.first { $0.0 == larderField }?.1 ?? []
            return keys.lazy.compactMap { parsed.metadata($0) }.compactMap { RecipeTime.minutes(from: $0) }.first
        }
        recipe.prepMinutes = minutes("prepTime")
        recipe.cookMinutes = minutes("cookTime")
        recipe.totalMinutes = minutes("totalTime")
        for (key, names) in Self.nutritionKeys {
            if let value = names.lazy.compactMap({ parsed.metadata($0) }).first { recipe.nutrition[key] = value }
        }
        recipe.description = parsed.metadata("description") ?? parsed.metadata("introduction")
        recipe.difficulty = parsed.metadata("difficulty").flatMap { Recipe.Difficulty(rawValue: $0.lowercased()) }
        recipe.author = parsed.metadata("author") ?? parsed.metadata("source.author")
        recipe.sourceName =
            parsed.metadata("source.name")
            ?? (parsed.metadata("source").flatMap { $0.hasPrefix("http") ? nil : $0 })
        recipe.language = parsed.metadata("locale")
        recipe.diets = (parsed.metadata("diet") ?? "").split(separator: ",").map { String($0).trimmingWhitespace }
            .filter { !$0.isEmpty }
        let image = parsed.metadata("image") ?? parsed.metadata("images") ?? parsed.metadata("picture")
        if let image, !image.trimmingWhitespace.isEmpty { recipe.images = [.url(image.trimmingWhitespace)] }
        takeCensus(of: parsed, into: &recipe)
        return recipe
    }

    /// Metadata keys (lowercased) by the Larder field they fill, each group in the order the
    /// importer prefers them: the first key present is carried, the others are kept in extras.
    static let metadataKeys: [(String, [String])] = [
        ("title", ["title"]), ("yield", ["servings", "serves", "yield"]),
        ("sourceURL", ["source", "source.url", "url"]), ("tags", ["tags"]), ("categories", ["course", "category"]),
        ("cuisines", ["cuisine"]),
        // The spellings Cooklang's community writes (cooklang.org's canonical `prep time` and
        // `time.prep`; CookCLI collections' `prep_time`, `prep`, `time: {prep, cook}`).
        ("prepTime", ["prep time", "time.prep", "prep", "preparation time", "preptime", "time.preparation"]),
        ("cookTime", ["cook time", "time.cook", "cook", "cooking time", "cooktime", "time.cooking"]),
        ("totalTime", ["time required", "time", "duration", "total time", "time.total", "totaltime", "total"]),
        ("description", ["description", "introduction"]),
        ("difficulty", ["difficulty"]), ("author", ["author", "source.author"]), ("sourceName", ["source.name"]),
        ("language", ["locale"]), ("dietaryNotes", ["diet"]), ("images", ["image", "images", "picture"]),
    ]

    /// Nutrition metadata by schema.org name (`calories: 320 kcal`, `protein: 12g`, `nutrition.fat`).
    static let nutritionKeys: [(String, [String])] = [
        ("calories", ["calories", "nutrition.calories", "energy", "kcal"]),
        ("proteinContent", ["protein", "nutrition.protein"]),
        ("fatContent", ["fat", "nutrition.fat", "total fat"]),
        ("saturatedFatContent", ["saturated fat", "nutrition.saturated fat"]),
        (
            "carbohydrateContent",
            ["carbohydrates", "carbs", "carbohydrate", "nutrition.carbohydrates", "nutrition.carbs"]
        ),
        ("sugarContent", ["sugar", "sugars", "nutrition.sugar"]),
        ("fiberContent", ["fiber", "fibre", "nutrition.fiber"]),
        ("sodiumContent", ["sodium", "nutrition.sodium"]),
        ("cholesterolContent", ["cholesterol", "nutrition.cholesterol"]),
    ]

    /// The census of a recipe's metadata (`>> key: value` lines or YAML front matter): keys Larder
    /// has no field for (and values it could not read) are kept in `extras.cooklang` as written.
    private static func takeCensus(of parsed: CooklangRecipe, into recipe: inout ImportedRecipe) {
        var fields = Fields()
        for (key, value) in parsed.metadata where !fields.contains(key: key) {
            fields.append(key: key, value: .string(value))
        }
        var fates: [String: FieldFate] = [:]
        let nutrition = nutritionKeys.map { ("nutrition", $0.1) }
        for (larderField, keys) in metadataKeys + nutrition {
            var carried = false
            for wanted in keys {
                for field in fields
                where CooklangRecipe.normalizedKey(field.key) == wanted
                    && !(field.value.stringValue ?? "").trimmingWhitespace.isEmpty
                {
                    // A time that no duration reading understands stays in extras as written.
                    let readable =
                        !larderField.hasSuffix("Time") || RecipeTime.minutes(from: field.value.stringValue ?? "") != nil
                    fates[field.key] = carried || !readable ? .extras : .carried(larderField)
                    carried = carried || readable
                }
            }
        }
        // `source` is the address when it is one, else the source's name.
        for field in fields
        where field.key.lowercased() == "source" && !(field.value.stringValue ?? "").hasPrefix("http") {
            fates[field.key] = parsed.metadata("source.name") == nil ? .carried("sourceName") : .extras
        }
        recipe.takeCensus(of: fields, table: FieldTable(.cooklang, fates))
    }

    /// A step's text: ingredient and cookware names as words, timers as `quantity units`.
    static func text(of items: [CooklangRecipe.Item]) -> String {
        var out = ""
        for item in items {
            switch item {
            case .text(let s): out += s
            case .ingredient(let name, _, _, _): out += recipeReference(name)?.name ?? name
            case .cookware(let name, _): out += name
            case .timer(let name, let quantity, let units):
                out += [quantity, units].compactMap { $0 }.joined(separator: " ")
                if quantity == nil, let name { out += name }
            }
        }
        return HTMLText.collapseWhitespace(out)
    }

    /// The recipe an ingredient name refers to (`./Shared/Pizza Dough`, `../Sauces/Pesto.cook`):
    /// its name (`Pizza Dough`) and the path as written; `nil` for a plain ingredient.
    static func recipeReference(_ name: String) -> (name: String, path: String)? {
        guard name.hasPrefix("./") || name.hasPrefix("../") else { return nil }
        var last = Substring(name.split(separator: "/").last ?? Substring(name))
        if last.lowercased().hasSuffix(".cook") { last = last.dropLast(5) }
        let title = last.trimmingWhitespace
        return title.isEmpty ? nil : (title, name)
    }

    /// The seconds a timer's quantity stands for; `nil` past Int's range (a quantity of 400 digits),
    /// where the step's text still says it as written.
    private static func seconds(_ value: Double, units: String) -> Int? {
        let u = units.lowercased()
        if u.hasPrefix("h") { return Int(rounding: value * 3600) }
        if u.hasPrefix("s") { return Int(rounding: value) }
        if u.hasPrefix("d") { return Int(rounding: value * 86_400) }
        return Int(rounding: value * 60)
    }
}
