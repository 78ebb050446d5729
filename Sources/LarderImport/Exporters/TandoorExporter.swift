import Foundation
package import LarderCore
import LarderFormats

/// Writes a Tandoor export as Tandoor's default integration makes and reads it
/// (`cookbook/integration/default.py`): a zip holding one `<name>.zip` per recipe, each with
/// `recipe.json` (`RecipeExportSerializer`'s fields) and the image as `image.<ext>`.
///
/// `-o x.json` (or standard output) writes one recipe's `recipe.json`.
package final class TandoorExporter: RecipeExporter {
    private let output: ExportOutput
    private var names = Set<String>()

    /// Opens the output: a `.zip` (or a folder of per-recipe zips); `.json` or standard output for one recipe.
    package init(path: String?) throws {
        output = try ExportOutput(path: path, zipSuffixes: [".zip"], singleSuffixes: [".json"], stdoutIsZip: false)
    }

    package func write(_ item: ExportItem) throws {
        let json = Array(try JSONWriter.string(Self.object(item.recipe), pretty: false).utf8)
        if try output.addSingle(json, holding: "a Tandoor recipe.json file") { return }
        let inner = MemoryByteSink()
        let zip = ZipWriter(sink: inner)
        try zip.add(path: "recipe.json", bytes: json, modified: item.recipe.updatedAt)
        if let image = item.image {
            try zip.add(
                path: "image.\(ImageKind.fileExtension(for: Array(image.prefix(16))))", bytes: image, deflate: false,
                modified: item.recipe.updatedAt)
        }
        try zip.finish()
        let name = ExportText.unique(Self.validFileName(item.recipe.title), in: &names, separator: "_")
        try output.add(name + ".zip", inner.bytes, deflate: false, modified: item.recipe.updatedAt)
    }

    package func finish() throws {
        try output.finish()
    }

    /// A file name as Django's `get_valid_filename` makes it: spaces to `_`, only letters, digits, `-`, `_` and `.`.
    static func validFileName(_ title: String) -> String {
        let replaced = title.trimmingWhitespace.replacingAll(" ", with: "_")
        let kept = String(
            replaced.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }.prefix(100))
        return kept.isEmpty || kept == "." || kept == ".." ? "recipe" : kept
    }

    /// The keys ``object(_:)`` fills from Larder fields (see ``ExtrasRestore``).
    static let ownedKeys: Set<String> = [
        "name", "description", "keywords", "steps", "working_time", "waiting_time", "nutrition", "servings",
        "servings_text", "source_url",
    ]

    /// Tandoor's nutrition members and the Larder nutrition fact each takes its number from.
    static let nutritionKeys = [
        ("carbohydrates", "carbohydrateContent"), ("fats", "fatContent"), ("proteins", "proteinContent"),
        ("calories", "calories"),
    ]

    /// Tandoor's `recipe.json` for a recipe, with `extras["tandoor"]` restored (``ExtrasRestore``).
    ///
    /// Writes `name`, `description`, `keywords` (the tags, `{name, description}`), `working_time`
    /// (preparation minutes), `waiting_time` (cooking minutes, else the total), `internal`,
    /// `nutrition` (numbers from calories, carbohydrate, fat and protein facts, or from
    /// `name: value` lines of the nutrition text that use Tandoor's own names; `source` the
    /// source name), `servings`, `servings_text` (what the yield counts), `source_url`, and `steps`:
    /// one per Larder step (`name` the section name on a section's first step, `time` the timer
    /// in whole minutes), the first holding every ingredient (`original_text` the line as written,
    /// `amount`, `unit`, `food` and `note` as parsed; group headings as `is_header` entries).
    package static func object(_ recipe: Recipe) -> Value {
        var f = Fields()
        f["name"] = .string(recipe.title)
        f["description"] = .string(recipe.description ?? "")
        f["keywords"] = .array(recipe.tags.map { ["name": .string($0), "description": ""] })
        f["steps"] = .array(steps(recipe))
        f["working_time"] = .int(Int64(recipe.prepTime ?? 0))
        let waiting = recipe.cookTime ?? (recipe.prepTime == nil ? recipe.totalTime : nil)
        f["waiting_time"] = .int(Int64(waiting ?? 0))
        f["internal"] = true
        f["nutrition"] = nutrition(recipe)
        // A yield of 1e300 is past Tandoor's integer servings: held at Int64's bound rather than trapping.
        f["servings"] = .int(Int64(recipe.servings ?? Int(saturating: recipe.yield?.quantity ?? 1, .towardZero)))
        f["servings_text"] = .string(recipe.yield?.unit ?? (recipe.servings == nil ? recipe.yield?.text : nil) ?? "")
        f["source_url"] = recipe.sourceURL.map(Value.string) ?? .null
        ExtrasRestore.merge(recipe, format: .tandoor, into: &f, owned: ownedKeys)
        return .object(f)
    }

    private static func nutrition(_ recipe: Recipe) -> Value {
        guard let facts = recipe.nutrition else { return .null }
        // The importer keeps Tandoor's own names as `carbohydrates: 30` lines of the text.
        var named: [String: String] = [:]
        for line in (facts.text ?? "").split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace }
            if parts.count == 2 { named[parts[0]] = parts[1] }
        }
        var n = Fields()
        var found = false
        for (tandoor, larder) in nutritionKeys {
            let number = (facts[larder] ?? named[tandoor]).flatMap(ExportText.number(in:))
            found = found || number != nil
            n[tandoor] = number.map(Value.double) ?? .double(0)
        }
        n["source"] = .string(named["source"] ?? recipe.sourceName ?? "")
        return found ? .object(n) : .null
    }

    /// Whole minutes, rounded, from a step's timer seconds; a timer near Int.max (a stored record edited
    /// by hand) is its last whole minute rather than an overflow.
    private static func minutes(_ seconds: Int) -> Int {
        let (sum, overflow) = seconds.addingReportingOverflow(30)
        return (overflow ? seconds : sum) / 60
    }

    private static func steps(_ recipe: Recipe) -> [Value] {
        var out: [Value] = []
        func add(name: String?, text: String, timer: Int?) {
            let isFirst = out.isEmpty
            out.append([
                "name": .string(name ?? ""), "instruction": .string(text),
                "ingredients": .array(isFirst ? ingredients(recipe) : []),
                "time": .int(Int64(minutes(timer ?? 0))), "order": .int(Int64(out.count)),
                "show_as_header": false, "show_ingredients_table": true,
            ])
        }
        for section in ExportText.sections(recipe.instructions) {
            if section.steps.isEmpty, let name = section.name { add(name: name, text: "", timer: nil) }
            for (index, step) in section.steps.enumerated() {
                add(name: index == 0 ? section.name : nil, text: step.text, timer: step.timerSeconds)
            }
        }
        if out.isEmpty, !recipe.ingredients.isEmpty { add(name: nil, text: "", timer: nil) }
        return out
    }

    private static func ingredients(_ recipe: Recipe) -> [Value] {
        var out: [Value] = []
        var group: String?
        func entry(food: Value, unit: Value, amount: Double, note: String, isHeader: Bool, original: Value) -> Value {
            [
                "food": food, "unit": unit, "amount": .double(amount), "note": .string(note),
                "order": .int(Int64(out.count)), "is_header": .bool(isHeader), "no_amount": .bool(amount == 0),
                "always_use_plural_unit": false, "always_use_plural_food": false, "original_text": original,
            ]
        }
        for ingredient in recipe.ingredients {
            if let heading = ingredient.group, heading != group {
                out.append(entry(food: .null, unit: .null, amount: 0, note: heading, isHeader: true, original: .null))
            }
            group = ingredient.group
            let food: Value = [
                "name": .string(ingredient.item), "plural_name": .null, "ignore_shopping": false,
                "supermarket_category": .null,
            ]
            let unit: Value =
                ingredient.unit.map { ["name": .string($0), "plural_name": .null, "description": .null] } ?? .null
            out.append(
                entry(
                    food: food, unit: unit, amount: ingredient.quantity ?? 0, note: ingredient.note ?? "",
                    isHeader: false, original: .string(ExportText.line(ingredient))))
        }
        return out
    }
}
