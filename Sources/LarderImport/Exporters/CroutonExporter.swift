import Foundation
package import LarderCore
import LarderFormats

/// Writes Crouton `.crumb` files: one JSON object per recipe, as ``CroutonImporter`` reads them.
///
/// `-o x.crumb` writes one recipe; `-o x.zip` and standard output write a zip of `.crumb` files
/// (one per recipe, named after its title).
package final class CroutonExporter: RecipeExporter {
    private let output: ExportOutput
    private var names = Set<String>()

    /// Opens the output.
    package init(path: String?) throws {
        let archive = [".zip"]
        let single = [".crumb"]
        if let path, path != "-", !(archive + single).contains(where: { path.lowercased().hasSuffix($0) }) {
            throw LarderError(
                .usage, "Crouton files are one .crumb, or a .zip of them; name the output so",
                location: SourceLocation(file: path))
        }
        output = try ExportOutput(path: path, zipSuffixes: archive, singleSuffixes: single, stdoutIsZip: true)
    }

    package func write(_ item: ExportItem) throws {
        let json = Array(try JSONWriter.string(Self.object(item.recipe, image: item.image), pretty: false).utf8)
        if try output.addSingle(json, holding: "a .crumb file") { return }
        let name = ExportText.unique(PaprikaExporter.fileName(item.recipe.title), in: &names)
        try output.add(name + ".crumb", json, modified: item.recipe.updatedAt)
    }

    package func finish() throws {
        try output.finish()
    }

    /// The keys ``object(_:image:)`` fills from Larder fields (see ``ExtrasRestore``).
    static let ownedKeys: Set<String> = [
        "uuid", "name", "serves", "duration", "cookingDuration", "webLink", "sourceName", "notes", "rating",
        "neutritionalInfo", "tags", "ingredients", "steps", "images",
    ]

    /// The `.crumb` object for a recipe, with `extras["crouton"]` restored (``ExtrasRestore``).
    ///
    /// Writes `uuid` (the id when it is a UUID, else one made from it), `name`, `serves`, `duration`
    /// and `cookingDuration` (minutes), `webLink`, `sourceName`, `notes`, `rating` (stars),
    /// `neutritionalInfo` (`Label: value,` lines), `tags` (categories then tags), `ingredients` (a
    /// quantity and unit code when the line reads back the same from them, else the whole line as
    /// the name; group headings have no place and are left out), `steps` (section headings as
    /// `isSection` steps), `images` (the local image, base64), and Crouton's own
    /// `defaultScale`, `isPublicRecipe` and `folderIDs` with their defaults.
    package static func object(_ recipe: Recipe, image: [UInt8]?) -> Value {
        // Crouton's ids are upper-case UUIDs: one kept as it is comes back as the same Larder id.
        let uuid = UUID(uuidString: recipe.id) != nil ? recipe.id : ExportText.uuid(recipe.id)
        var f = Fields()
        f["uuid"] = .string(uuid)
        f["name"] = .string(recipe.title)
        if let servings = recipe.servings { f["serves"] = .int(Int64(servings)) }
        f["defaultScale"] = .int(1)
        if let prep = recipe.prepTime { f["duration"] = .int(Int64(prep)) }
        if let cook = recipe.cookTime { f["cookingDuration"] = .int(Int64(cook)) }
        if let stars = ExportText.stars(recipe.rating) { f["rating"] = .int(Int64(stars)) }
        f["isPublicRecipe"] = .bool(false)
        f["folderIDs"] = .array([])
        if let url = recipe.sourceURL { f["webLink"] = .string(url) }
        if let source = recipe.sourceName { f["sourceName"] = .string(source) }
        if let nutrition = nutritionText(recipe.nutrition) { f["neutritionalInfo"] = .string(nutrition) }
        if let notes = ExportText.notesText(recipe.notes) { f["notes"] = .string(notes) }
        var seen = Set<String>()
        let tags = (recipe.categories + recipe.tags).filter { seen.insert($0.lowercased()).inserted }
        f["tags"] = .array(
            tags.map { tag in
                .object(
                    Fields([
                        .init(key: "uuid", value: .string(ExportText.uuid(uuid + "/tag/" + tag))),
                        .init(key: "name", value: .string(tag)),
                    ]))
            })
        f["ingredients"] = .array(recipe.ingredients.enumerated().map { ingredient(uuid, $0.offset, $0.element) })
        f["steps"] = .array(steps(uuid, recipe.instructions))
        f["images"] = .array(image.map { [.string(Data($0).base64EncodedString())] } ?? [])
        ExtrasRestore.merge(recipe, format: .crouton, into: &f, owned: ownedKeys)
        return .object(f)
    }

    /// One ingredient: structured when its amount, unit code and name give back the line exactly.
    private static func ingredient(_ recipeUUID: String, _ index: Int, _ ingredient: Ingredient) -> Value {
        let line = ExportText.line(ingredient)
        let name = ingredient.item + (ingredient.note.map { ", " + $0 } ?? "")
        var fields = Fields()
        fields["uuid"] = .string(ExportText.uuid("\(recipeUUID)/ingredient/\(index)"))
        fields["order"] = .int(Int64(index))
        var ingredientName = line
        if let amount = ingredient.quantity, let code = CroutonQuantity.code(forUnit: ingredient.unit),
            CroutonQuantity.line(amount: amount, upper: ingredient.quantityMax, code: code, name: name) == line
        {
            ingredientName = name
            var quantity = Fields([
                .init(key: "quantityType", value: .string(code)), .init(key: "amount", value: .double(amount)),
            ])
            if let upper = ingredient.quantityMax { quantity["secondaryAmount"] = .double(upper) }
            fields["quantity"] = .object(quantity)
        }
        fields["ingredient"] = .object(
            Fields([
                .init(key: "uuid", value: .string(ExportText.uuid("\(recipeUUID)/food/\(index)"))),
                .init(key: "name", value: .string(ingredientName)),
            ]))
        return .object(fields)
    }

    /// The steps, each section heading as an `isSection` step before its steps.
    private static func steps(_ recipeUUID: String, _ instructions: [InstructionStep]) -> [Value] {
        var texts: [(String, Bool)] = []
        for section in ExportText.sections(instructions) {
            if let name = section.name { texts.append((name, true)) }
            texts.append(contentsOf: section.steps.map { ($0.text, false) })
        }
        return texts.enumerated().map { index, step in
            .object(
                Fields([
                    .init(key: "uuid", value: .string(ExportText.uuid("\(recipeUUID)/step/\(index)"))),
                    .init(key: "order", value: .int(Int64(index))), .init(key: "step", value: .string(step.0)),
                    .init(key: "isSection", value: .bool(step.1)),
                ]))
        }
    }

    /// Nutrition as Crouton's `Label: value,` lines (the last without a comma).
    static func nutritionText(_ nutrition: Nutrition?) -> String? {
        guard let text = ExportText.nutritionText(nutrition) else { return nil }
        return text.split(separator: "\n").joined(separator: ",\n")
    }
}
