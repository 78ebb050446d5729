import Foundation
import LarderCore
import LarderFormats

extension ChowdownImporter {
    /// The recipe a Chowdown page describes.
    /// - Parameters:
    ///   - text: the page (front matter and Markdown body).
    ///   - fallbackTitle: the title when the front matter has none (the file's name).
    ///   - image: the bytes of a file in the site's `images/` folder, by name (`nil`: not found).
    /// - Returns: the recipe, with its field census and `extras["chowdown"]`.
    /// - Throws: ``LarderError`` `malformed-record` naming the field (`ingredients[2]`) for a
    ///   value of the wrong kind, or the front matter's problem (``ChowdownDocument/parse(_:limits:)``).
    package static func recipe(
        _ text: String, fallbackTitle: String, image: ((String) throws -> [UInt8]?)?
    ) throws -> ImportedRecipe {
        let document = try ChowdownDocument.parse(text)
        let fields = document.frontMatter
        let title = try string(fields, "title") ?? fallbackTitle
        guard !title.trimmingWhitespace.isEmpty else {
            throw LarderError(.malformedRecord, "the recipe has no title", location: SourceLocation(fieldPath: "title"))
        }
        var recipe = ImportedRecipe(title: title.trimmingWhitespace)
        for line in try list(fields, "ingredients") {
            if line.hasSuffix(":") && line.count > 1 {
                recipe.ingredientHeadings[recipe.ingredients.count] = String(line.dropLast()).trimmingWhitespace
            } else {
                recipe.ingredients.append(line)
            }
        }
        recipe.steps = try list(fields, "directions").map { ImportedRecipe.Step(text: $0) }
        recipe.keywords = try terms(fields, "tags")
        recipe.categories = try terms(fields, "categories")
        recipe.author = try string(fields, "author")
        recipe.sourceURL = try string(fields, "url").flatMap { $0.lowercased().hasPrefix("http") ? $0 : nil }
        recipe.prepMinutes = try minutes(fields, "preptime") ?? minutes(fields, "prep_time")
        recipe.cookMinutes = try minutes(fields, "cooktime") ?? minutes(fields, "cook_time")
        recipe.totalMinutes = try minutes(fields, "totaltime")
        if let written = try string(fields, "yield") {
            recipe.yieldText = RecipeYield.normalized(written)
            recipe.yieldAsWritten = written
            recipe.servings = RecipeYield.servings(written)
        }
        recipe.nutrition = try nutrition(fields)
        if let name = try images(fields).first {
            if name.lowercased().hasPrefix("http://") || name.lowercased().hasPrefix("https://") {
                recipe.images = [.url(name)]
            } else if let bytes = try image?(name), !bytes.isEmpty {
                recipe.images = [.data(bytes, fileExtension: ImageKind.fileExtension(for: Array(bytes.prefix(16))))]
            }
        }
        readBody(document.body, into: &recipe)
        recipe.takeCensus(of: fields, table: fieldTable)
        return recipe
    }

    /// What the importer does with each front-matter key; any other key is kept in `extras["chowdown"]`.
    static let fieldTable = FieldTable(
        .chowdown,
        [
            "title": .carried("title"), "image": .carried("images"), "tags": .carried("tags"),
            "categories": .carried("categories"), "ingredients": .carried("ingredients"),
            "directions": .carried("instructions"), "author": .carried("author"), "url": .carried("sourceURL"),
            "preptime": .carried("prepTime"), "prep_time": .carried("prepTime"), "cooktime": .carried("cookTime"),
            "cook_time": .carried("cookTime"), "totaltime": .carried("totalTime"), "yield": .carried("yield"),
            "nutrition": .carried("nutrition"), "layout": .dropped("the Jekyll page layout (always 'recipe')"),
        ])

    /// The body: the description, and the notes after a `## Notes` heading (`### title` heads one note).
    static func readBody(_ body: String, into recipe: inout ImportedRecipe) {
        let parts = body.components(separatedBy: "\n## Notes\n")
        let head = (body.hasPrefix("## Notes\n") ? "" : parts[0]).trimmingWhitespace
        if !head.isEmpty { recipe.description = head }
        let notes = body.hasPrefix("## Notes\n") ? String(body.dropFirst(9)) : parts.dropFirst().joined(separator: "\n")
        var title: String?
        var text: [String] = []
        func flush() {
            let joined = text.joined(separator: "\n").trimmingWhitespace
            if !joined.isEmpty { recipe.recipeNotes.append(RecipeNote(title: title, text: joined)) }
            text = []
        }
        for line in notes.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") {
                flush()
                title = String(line.dropFirst(4)).trimmingWhitespace
            } else {
                text.append(String(line))
            }
        }
        flush()
    }
}
