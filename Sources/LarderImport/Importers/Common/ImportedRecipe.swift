public import Foundation
public import LarderCore
import LarderFormats

/// A recipe as a foreign format holds it, before it becomes a Larder ``Recipe``: everything
/// the importers can read, including what the Larder model has no field for (yield text,
/// total time, description, author, nutrition), so that comparisons and exports can use it.
public struct ImportedRecipe: Sendable, Hashable {
    /// One instruction step; `isSection` marks a section heading (`For the sauce`).
    public struct Step: Sendable, Hashable {
        public var text: String
        public var timerSeconds: Int?
        public var isSection: Bool

        /// Creates a step.
        public init(text: String, timerSeconds: Int? = nil, isSection: Bool = false) {
            self.text = text
            self.timerSeconds = timerSeconds
            self.isSection = isSection
        }
    }

    /// An image: a URL to leave as a reference, or bytes to write next to the output.
    public enum Image: Sendable, Hashable {
        case url(String)
        case data([UInt8], fileExtension: String)
    }

    public var title: String
    public var description: String?
    public var author: String?
    /// Ingredient lines in order, as written (already whitespace-normalised).
    public var ingredients: [String] = []
    /// Headings of ingredient groups, by the index of the first line they head.
    public var ingredientHeadings: [Int: String] = [:]
    public var steps: [Step] = []
    /// The normalised yield (`4 servings`, `12 cookies`).
    public var yieldText: String?
    public var servings: Int?
    public var totalMinutes: Int?
    public var prepMinutes: Int?
    public var cookMinutes: Int?
    public var images: [Image] = []
    public var categories: [String] = []
    public var keywords: [String] = []
    public var cuisine: String?
    public var diets: [String] = []
    public var sourceURL: String?
    public var nutrition: [String: String] = [:]
    public var rating: Double?
    public var difficulty: Recipe.Difficulty?
    public var notes: String?
    public var createdAt: Date?
    public var updatedAt: Date?
    /// The source format's own id for the recipe (Paprika `uid`, Mela `id`, schema.org `identifier`).
    public var nativeID: String?
    /// The id to keep as the Larder id; `nil` when the import derives one.
    ///
    /// A globally unique id the source carries (a Paprika or Mela UUID) or a Larder id written
    /// by a Larder export.
    public var larderID: String?
    public var isFavorite = false
    /// The Larder owner id, when the source carried one (a Larder export).
    public var ownerID: String?

    /// Creates a recipe with a title; fill the rest in.
    public init(title: String) {
        self.title = title
    }

    /// The instruction steps without section headings.
    public var instructionSteps: [Step] { steps.filter { !$0.isSection } }
}

extension ImportedRecipe {
    /// `id` when it can serve as a Larder id as it is: 8-128 characters with no spaces or
    /// control characters (UUIDs, Larder ids).
    public static func usableID(_ id: String) -> String? {
        let trimmed = id.trimmingWhitespace
        guard (8...128).contains(trimmed.count), !trimmed.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            return nil
        }
        return trimmed
    }
}

/// Builds Larder ingredients from lines: the single place where a line becomes an
/// ``Ingredient`` (quantity, range, unit, item, note), through ``IngredientLineParser``.
public enum IngredientLines {
    private static let parser = IngredientLineParser()

    /// The structured ingredient for `line`, keeping the line as `original`.
    public static func make(_ line: String) -> Ingredient {
        var ingredient = parser.parse(line)
        ingredient.original = line
        return ingredient
    }
}

extension ImportedRecipe {
    /// The Larder recipe: id, title, ingredients (original lines kept), steps (section
    /// headings kept as steps, so nothing is lost), times, servings, tags (categories then
    /// keywords), cuisine, diets, source URL, image reference and favourite flag.
    ///
    /// - Parameters:
    ///   - id: the stable id the import derived.
    ///   - imageRef: where the image is (a URL or a file next to the output).
    ///   - importedAt: the creation date when the source has none.
    /// - Returns: a saved recipe with id `id`. A total time with neither preparation nor cooking
    ///   time becomes the cooking time; negative times and servings below one are dropped.
    public func makeRecipe(id: String, imageRef: String?, importedAt: Date) -> Recipe {
        var tags: [String] = []
        var seen = Set<String>()
        for tag in categories + keywords {
            let trimmed = tag.trimmingWhitespace
            if !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted { tags.append(trimmed) }
        }
        let created = createdAt ?? importedAt
        var prep = prepMinutes
        var cook = cookMinutes
        // The model has no total time: keep it as cooking time when nothing else says how long.
        if prep == nil, cook == nil, let totalMinutes { cook = totalMinutes }
        if let p = prep, p < 0 { prep = nil }
        if let c = cook, c < 0 { cook = nil }
        return Recipe(
            id: id, title: title,
            ingredients: ingredients.map(IngredientLines.make),
            instructions: steps.map { InstructionStep(text: $0.text, timerSeconds: $0.timerSeconds) },
            createdAt: created, updatedAt: max(updatedAt ?? created, created), ownerID: ownerID, imageRef: imageRef,
            cuisine: cuisine, difficulty: difficulty, prepTime: prep, cookTime: cook,
            servings: servings.flatMap { $0 > 0 ? $0 : nil }, dietaryNotes: diets, tags: tags, sourceURL: sourceURL,
            isSaved: true, isFavorited: isFavorite)
    }
}

extension ImportedRecipe {
    /// The recipe as Larder holds it, read back into the importer's form (for exporters).
    public init(recipe: Recipe) {
        self.init(title: recipe.title)
        ingredients = recipe.ingredients.map { $0.original.isEmpty ? $0.item : $0.original }
        steps = recipe.instructions.map { Step(text: $0.text, timerSeconds: $0.timerSeconds) }
        servings = recipe.servings
        yieldText = recipe.servings.map { "\($0) serving\($0 == 1 ? "" : "s")" }
        prepMinutes = recipe.prepTime
        cookMinutes = recipe.cookTime
        if let p = recipe.prepTime, let c = recipe.cookTime { totalMinutes = p + c }
        if let ref = recipe.imageRef { images = [.url(ref)] }
        keywords = recipe.tags
        cuisine = recipe.cuisine
        diets = recipe.dietaryNotes
        sourceURL = recipe.sourceURL
        difficulty = recipe.difficulty
        createdAt = recipe.createdAt
        updatedAt = recipe.updatedAt
        nativeID = recipe.id
        larderID = recipe.id
        isFavorite = recipe.isFavorited
        ownerID = recipe.ownerID
    }
}
