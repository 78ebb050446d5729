package import Foundation
package import LarderCore
import LarderFormats

/// A recipe as a foreign format holds it, before it becomes a Larder ``Recipe``: everything
/// the importers can read (yield text, total time, description, author and its URL, nutrition,
/// notes with their titles, rating and its count, sections, images and step images, source name,
/// cuisines, tools, language, video, reviews), which ``makeRecipe(id:imageRef:importedAt:)``
/// carries into recipe v4's fields, `extras`, the source's fields Larder has no field for, and
/// the ``fieldCensus`` saying what became of each source field.
package struct ImportedRecipe: Sendable, Hashable {
    /// One instruction step; `isSection` marks a section heading (`For the sauce`).
    package struct Step: Sendable, Hashable {
        package var text: String
        package var timerSeconds: Int?
        package var isSection: Bool
        /// The step's image URLs (schema.org `HowToStep.image`).
        package var images: [String] = []

        /// Creates a step.
        package init(text: String, timerSeconds: Int? = nil, isSection: Bool = false, images: [String] = []) {
            self.text = text
            self.timerSeconds = timerSeconds
            self.isSection = isSection
            self.images = images
        }
    }

    /// An image: a URL to leave as a reference, or bytes to write next to the output.
    package enum Image: Sendable, Hashable {
        case url(String)
        case data([UInt8], fileExtension: String)
    }

    package var title: String
    package var description: String?
    package var author: String?
    /// Ingredient lines in order, as written (already whitespace-normalised).
    package var ingredients: [String] = []
    /// Headings of ingredient groups, by the index of the first line they head.
    package var ingredientHeadings: [Int: String] = [:]
    /// Ingredients as the source itself structures them (BigOven's quantity, unit, name and
    /// notes), by the index of their line in `ingredients`; a line without one is parsed.
    package var structuredIngredients: [Int: Ingredient] = [:]
    package var steps: [Step] = []
    /// The normalised yield (`4 servings`, `12 cookies`).
    package var yieldText: String?
    /// The yield as the source wrote it (`8 slices`), kept when normalising made it generic
    /// (`8 servings`).
    package var yieldAsWritten: String?
    package var servings: Int?
    package var totalMinutes: Int?
    package var prepMinutes: Int?
    package var cookMinutes: Int?
    package var images: [Image] = []
    package var categories: [String] = []
    package var keywords: [String] = []
    package var cuisine: String?
    package var diets: [String] = []
    package var sourceURL: String?
    package var nutrition: [String: String] = [:]
    package var rating: Double?
    package var difficulty: Recipe.Difficulty?
    package var notes: String?
    package var createdAt: Date?
    package var updatedAt: Date?
    /// The source format's own id for the recipe (Paprika `uid`, Mela `id`, schema.org `identifier`).
    package var nativeID: String?
    /// The id to keep as the Larder id; `nil` when the import derives one.
    ///
    /// A globally unique id the source carries (a Paprika or Mela UUID) or a Larder id written
    /// by a Larder export.
    package var larderID: String?
    package var isFavorite = false
    /// The Larder owner id, when the source carried one (a Larder export).
    package var ownerID: String?
    /// Source fields Larder has no field for, verbatim, under the source format's name; becomes
    /// the recipe's `extras`.
    package var extras = Fields()
    /// The site, book or person the recipe comes from (Paprika `source`, schema.org `publisher`).
    package var sourceName: String?
    /// Every cuisine, the main one first; when empty, `cuisine` alone is the cuisine.
    package var cuisines: [String] = []
    /// Tools and equipment.
    package var tools: [String] = []
    /// The recipe's language, a BCP 47 tag.
    package var language: String?
    package var videoURL: String?
    /// Reviews, as text.
    package var reviews: [String] = []
    /// The author's web page.
    package var authorURL: String?
    /// Notes with their titles (Mealie `notes`); when not empty they are the recipe's notes and
    /// `notes` (one text) is only their joined form, for formats with a single notes field.
    package var recipeNotes: [RecipeNote] = []
    /// How many ratings `rating` averages.
    package var ratingCount: Int?
    /// What the import did with each top-level source field (see ``FieldCensus``).
    package var fieldCensus = FieldCensus()
    /// The source record whose leaves the session's ``LeafCensus`` classifies once the record is
    /// built (set by ``takeCensus(of:table:overrides:)``); `nil` when the importer has none.
    package var leafSource: LeafSource?

    /// The scale `rating` is on: 5, 10 or 100, the smallest it fits (`nil` without a usable rating).
    package var ratingScale: Double? {
        guard let rating, rating > 0, rating.isFinite else { return nil }
        return rating <= 5 ? 5 : rating <= 10 ? 10 : 100
    }

    /// Creates a recipe with a title; fill the rest in.
    package init(title: String) {
        self.title = title
    }

    /// The instruction steps without section headings.
    package var instructionSteps: [Step] { steps.filter { !$0.isSection } }
}

extension ImportedRecipe {
    /// `id` when it can serve as a Larder id as it is: 8-128 characters with no spaces or
    /// control characters (UUIDs, Larder ids).
    package static func usableID(_ id: String) -> String? {
        let trimmed = id.trimmingWhitespace
        guard (8...128).contains(trimmed.count), !trimmed.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            return nil
        }
        return trimmed
    }
}

/// Builds Larder ingredients from lines: the single place where a line becomes an
/// ``Ingredient`` (quantity, range, unit, item, note), through ``IngredientLineParser``.
package enum IngredientLines {
    private static let parser = IngredientLineParser()

    /// The structured ingredient for `line`, keeping the line as `original`.
    package static func make(_ line: String) -> Ingredient {
        var ingredient = parser.parse(line)
        ingredient.original = line
        return ingredient
    }
}

extension ImportedRecipe {
    /// The Larder recipe: id, title, ingredients (original lines kept, each with the heading of
    /// its group; structured as the source structures them, else by the ingredient parser), steps (each with the heading of its section as `name`), times, servings and
    /// yield, tags (categories then keywords) and categories, cuisine, diets, source URL,
    /// images, favourite flag, and v4's description, author, nutrition, notes, rating and extras.
    ///
    /// Normalisation, so that a Larder → format → Larder round trip gives the recipe back:
    /// a yield that only says the servings (`4 servings`) stays in `servings`; a total time equal
    /// to preparation plus cooking is left to them; a single image is `imageRef` alone, and
    /// `images` lists them when there are several (the first primary). A section heading with no
    /// step after it stays a step (named after itself), so nothing is lost.
    ///
    /// - Parameters:
    ///   - id: the stable id the import derived.
    ///   - imageRef: where the image is (a URL or a file next to the output).
    ///   - importedAt: the creation date when the source has none.
    /// - Returns: a saved recipe with id `id`. A total time with neither preparation nor cooking
    ///   time becomes the cooking time too; negative times and servings below one are dropped.
    package func makeRecipe(id: String, imageRef: String?, importedAt: Date) -> Recipe {
        makeRecipe(id: id, imageRefs: [imageRef], importedAt: importedAt)
    }

    /// The Larder recipe (see ``makeRecipe(id:imageRef:importedAt:)``), with `imageRefs[i]` the
    /// file the `i`th image's bytes were written to (`nil` for a URL): every image is kept.
    package func makeRecipe(id: String, imageRefs: [String?], importedAt: Date) -> Recipe {
        let imageRef = imageRefs.first ?? nil
        var tags: [String] = []
        var seen = Set<String>()
        for tag in categories + keywords {
            let trimmed = tag.trimmingWhitespace
            if !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted { tags.append(trimmed) }
        }
        let created = createdAt ?? importedAt
        var prep = prepMinutes
        var cook = cookMinutes
        // Apps that show only a cooking time get the total there, as before recipe v4 had totalTime.
        if prep == nil, cook == nil, let totalMinutes { cook = totalMinutes }
        if let p = prep, p < 0 { prep = nil }
        if let c = cook, c < 0 { cook = nil }
        var total = totalMinutes.flatMap { $0 >= 0 ? $0 : nil }
        // Minutes read from a file can be as large as Int (`9223372036854775807`): a sum past it is no total.
        if let t = total, let p = prep, let c = cook, case (let sum, false) = p.addingReportingOverflow(c), t == sum {
            total = nil
        }
        let positiveServings = servings.flatMap { $0 > 0 ? $0 : nil }
        var recipe = Recipe(
            id: id, title: title,
            ingredients: groupedIngredients(), instructions: namedSteps(),
            createdAt: created, updatedAt: max(updatedAt ?? created, created), ownerID: ownerID, imageRef: imageRef,
            cuisine: cuisine, difficulty: difficulty, prepTime: prep, cookTime: cook,
            servings: positiveServings, dietaryNotes: diets, tags: tags, sourceURL: sourceURL,
            isSaved: true, isFavorited: isFavorite)
        recipe.description = description.flatMap { $0.trimmingWhitespace.isEmpty ? nil : $0 }
        recipe.author = author.flatMap {
            $0.trimmingWhitespace.isEmpty ? nil : RecipeAuthor(name: $0, url: authorURL.flatMap(Self.nonBlank))
        }
        recipe.sourceName = sourceName.flatMap(Self.nonBlank)
        if !cuisines.isEmpty {
            var seenCuisines = Set<String>()
            recipe.cuisines = cuisines.map(\.trimmingWhitespace).filter {
                !$0.isEmpty && seenCuisines.insert($0.lowercased()).inserted
            }
        }
        recipe.tools = tools.map(\.trimmingWhitespace).filter { !$0.isEmpty }
        recipe.language = language.flatMap(Self.nonBlank)
        recipe.videoURL = videoURL.flatMap(Self.nonBlank)
        recipe.reviews = reviews.map(\.trimmingWhitespace).filter { !$0.isEmpty }
        recipe.nutrition = makeNutrition()
        recipe.yield = makeYield(servings: positiveServings)
        recipe.totalTime = total
        let titledNotes = recipeNotes.filter { !$0.text.trimmingWhitespace.isEmpty }
        if !titledNotes.isEmpty {
            recipe.notes = titledNotes
        } else if let notes, !notes.trimmingWhitespace.isEmpty {
            recipe.notes = [RecipeNote(text: notes)]
        }
        if let rating, let scale = ratingScale {
            recipe.rating = RecipeRating(score: rating, scale: scale, count: ratingCount.flatMap { $0 > 0 ? $0 : nil })
        }
        var seenCategories = Set<String>()
        recipe.categories = categories.map(\.trimmingWhitespace).filter {
            !$0.isEmpty && seenCategories.insert($0.lowercased()).inserted
        }
        recipe.images = makeImages(imageRefs: imageRefs)
        // A YAML `.inf` or `.nan`, or XML `inf`, kept from the source is kept as that text: no JSON
        // output or store holds the number, and the whole record would fail to write.
        recipe.extras = Value.object(extras).replacingNonFiniteNumbers().objectValue ?? extras
        return recipe
    }

    /// Ingredients with the heading of their group: a heading applies from its line on.
    private func groupedIngredients() -> [Ingredient] {
        var group: String?
        return ingredients.enumerated().map { index, line in
            if let heading = ingredientHeadings[index] { group = heading }
            var ingredient = structuredIngredients[index] ?? IngredientLines.make(line)
            ingredient.original = line
            ingredient.group = group
            return ingredient
        }
    }

    /// Steps with the heading of their section as `name`; a heading no step follows stays a step
    /// (with its own text as its name).
    private func namedSteps() -> [InstructionStep] {
        var result: [InstructionStep] = []
        var section: String?
        for (index, step) in steps.enumerated() {
            if step.isSection {
                let followed = steps[(index + 1)...].first.map { !$0.isSection } ?? false
                section = step.text
                // A heading no step follows stays a step, named after itself so that a round
                // trip through ImportedRecipe(recipe:) gives the same steps back.
                if !followed { result.append(InstructionStep(text: step.text, name: step.text)) }
                continue
            }
            result.append(
                InstructionStep(
                    text: step.text, timerSeconds: step.timerSeconds, name: section,
                    images: step.images.map { RecipeImage(url: $0) }))
        }
        return result
    }

    private static func nonBlank(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Nutrition by schema.org name; other entries (a source's own names) join `text` as `name: value` lines.
    private func makeNutrition() -> Nutrition? {
        var facts = Nutrition()
        var others: [String] = []
        for key in nutrition.keys.sorted() {
            guard let value = nutrition[key], !value.trimmingWhitespace.isEmpty else { continue }
            if Nutrition.keys.contains(key) { facts[key] = value } else { others.append("\(key): \(value)") }
        }
        if !others.isEmpty { facts.text = ([facts.text].compactMap { $0 } + others).joined(separator: "\n") }
        return facts.isEmpty ? nil : facts
    }

    /// The yield, unless it only says the servings.
    private func makeYield(servings: Int?) -> Recipe.Yield? {
        if let written = yieldAsWritten.map(HTMLText.collapseWhitespace)?.trimmingWhitespace,
            let normalized = yieldText, ["serving", "servings", "item", "items"].contains(where: normalized.hasSuffix)
        {
            // `8 slices` read as `8 servings`: the source's own unit says more.
            let parts = written.split(separator: " ", maxSplits: 1).map(String.init)
            let servingWords = ["serving", "servings", "portion", "portions", "people", "persons", "person"]
            if parts.count == 2, let quantity = Double(parts[0].replacingOccurrences(of: ",", with: ".")),
                !servingWords.contains(parts[1].lowercased())
            {
                return Recipe.Yield(quantity: quantity, unit: parts[1], text: written)
            }
        }
        guard let text = yieldText?.trimmingWhitespace, !text.isEmpty else { return nil }
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        let quantity = parts.first.flatMap { Double($0.replacingOccurrences(of: ",", with: ".")) }
        let unit = quantity == nil ? nil : parts.count > 1 ? parts[1] : nil
        if let servings, let quantity, quantity == Double(servings),
            unit == nil || ["serving", "servings", "portion", "portions"].contains(unit?.lowercased() ?? "")
        {
            return nil
        }
        // The text as the source wrote it (`2-4 servings`, `Serves 10 to 12`), so that nothing is
        // lost; the quantity and unit are its reading.
        let written = yieldAsWritten.map(HTMLText.normalize)?.trimmingWhitespace
        return Recipe.Yield(quantity: quantity, unit: unit, text: written.flatMap { $0.isEmpty ? nil : $0 } ?? text)
    }

    /// Every image when there are several, the first primary (its ref is `imageRef` when stored as a file).
    private func makeImages(imageRefs: [String?]) -> [RecipeImage] {
        guard images.count > 1 else { return [] }
        let imageRef = imageRefs.first ?? nil
        var result: [RecipeImage] = []
        for (index, image) in images.enumerated() {
            switch image {
            case .url(let url):
                result.append(
                    RecipeImage(ref: index == 0 && imageRef != url ? imageRef : nil, url: url, isPrimary: index == 0))
            case .data:
                // The bytes were written beside the output, where the import could.
                if index < imageRefs.count, let ref = imageRefs[index] {
                    result.append(RecipeImage(ref: ref, isPrimary: index == 0))
                }
            }
        }
        return result
    }
}

extension ImportedRecipe {
    /// The recipe as Larder holds it, read back into the importer's form (for exporters):
    /// the inverse of ``makeRecipe(id:imageRef:importedAt:)``.
    package init(recipe: Recipe) {
        self.init(title: recipe.title)
        var group: String?
        for ingredient in recipe.ingredients {
            if let heading = ingredient.group, heading != group { ingredientHeadings[ingredients.count] = heading }
            group = ingredient.group
            ingredients.append(ingredient.original.isEmpty ? ingredient.item : ingredient.original)
        }
        var section: String?
        for step in recipe.instructions {
            if let name = step.name, name != section { steps.append(Step(text: name, isSection: true)) }
            section = step.name
            steps.append(
                Step(
                    text: step.text, timerSeconds: step.timerSeconds,
                    images: step.images.compactMap { $0.url ?? $0.ref })
            )
        }
        servings = recipe.servings
        yieldText = recipe.yield?.text ?? recipe.servings.map { "\($0) serving\($0 == 1 ? "" : "s")" }
        prepMinutes = recipe.prepTime
        cookMinutes = recipe.cookTime
        if let total = recipe.totalTime {
            totalMinutes = total
        } else if let p = recipe.prepTime, let c = recipe.cookTime, case (let sum, false) = p.addingReportingOverflow(c)
        {
            totalMinutes = sum
        }
        if !recipe.images.isEmpty {
            images = recipe.images.compactMap { image in (image.url ?? image.ref).map(Image.url) }
        } else if let ref = recipe.imageRef {
            images = [.url(ref)]
        }
        categories = recipe.categories
        let categoryKeys = Set(recipe.categories.map { $0.lowercased() })
        keywords = recipe.tags.filter { !categoryKeys.contains($0.lowercased()) }
        cuisine = recipe.cuisine
        diets = recipe.dietaryNotes
        sourceURL = recipe.sourceURL
        difficulty = recipe.difficulty
        description = recipe.description
        author = recipe.author?.name
        authorURL = recipe.author?.url
        sourceName = recipe.sourceName
        cuisines = recipe.cuisines
        tools = recipe.tools
        language = recipe.language
        videoURL = recipe.videoURL
        reviews = recipe.reviews
        recipeNotes = recipe.notes
        ratingCount = recipe.rating?.count
        if let facts = recipe.nutrition {
            for key in Nutrition.keys { if let value = facts[key] { nutrition[key] = value } }
        }
        if !recipe.notes.isEmpty {
            notes = recipe.notes.map { note in note.title.map { "\($0)\n\(note.text)" } ?? note.text }
                .joined(separator: "\n\n")
        }
        rating = recipe.rating.map { $0.score }
        createdAt = recipe.createdAt
        updatedAt = recipe.updatedAt
        nativeID = recipe.id
        larderID = recipe.id
        isFavorite = recipe.isFavorited
        ownerID = recipe.ownerID
        extras = recipe.extras
    }
}
