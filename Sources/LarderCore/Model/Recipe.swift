public import Foundation

/// A cooking recipe (SnapChef `Recipe`, Cheffy `UserRecipe`, iCook recipe) at the current
/// schema version: structured ingredients, steps with optional timers, membership flags.
public struct Recipe: LarderRecord {
    /// How hard a recipe is.
    public enum Difficulty: String, Sendable, Hashable, CaseIterable {
        case easy, medium, hard
    }

    public static let recordType = RecordType.recipe

    public var id: String
    public var title: String
    public var ingredients: [Ingredient]
    public var instructions: [InstructionStep]
    public var createdAt: Date
    public var updatedAt: Date
    /// The owner's user record name (was `authorID` in v1).
    public var ownerID: String?
    /// A reference to the image stored beside the record (was inline `imageData` in v1).
    public var imageRef: String?
    public var cuisine: String?
    public var difficulty: Difficulty?
    /// Preparation time in minutes.
    public var prepTime: Int?
    /// Cooking time in minutes.
    public var cookTime: Int?
    public var servings: Int?
    public var dietaryNotes: [String]
    public var tags: [String]
    public var isPublic: Bool
    public var sourceURL: String?
    /// In the user's saved set.
    public var isSaved: Bool
    /// In the user's created set.
    public var isCreated: Bool
    public var isFavorited: Bool
    public var sync: SyncMetadata

    /// Creates a recipe.
    public init(
        id: String, title: String, ingredients: [Ingredient] = [], instructions: [InstructionStep] = [],
        createdAt: Date, updatedAt: Date? = nil, ownerID: String? = nil, imageRef: String? = nil,
        cuisine: String? = nil,
        difficulty: Difficulty? = nil, prepTime: Int? = nil, cookTime: Int? = nil, servings: Int? = nil,
        dietaryNotes: [String] = [], tags: [String] = [], isPublic: Bool = false, sourceURL: String? = nil,
        isSaved: Bool = false, isCreated: Bool = false, isFavorited: Bool = false, sync: SyncMetadata = SyncMetadata()
    ) {
        self.id = id
        self.title = title
        self.ingredients = ingredients
        self.instructions = instructions
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.ownerID = ownerID
        self.imageRef = imageRef
        self.cuisine = cuisine
        self.difficulty = difficulty
        self.prepTime = prepTime
        self.cookTime = cookTime
        self.servings = servings
        self.dietaryNotes = dietaryNotes
        self.tags = tags
        self.isPublic = isPublic
        self.sourceURL = sourceURL
        self.isSaved = isSaved
        self.isCreated = isCreated
        self.isFavorited = isFavorited
        self.sync = sync
    }

    public static let shape: Shape = .object(
        [
            "id": .string, "title": .string, "ingredients": .list(Ingredient.shape),
            "instructions": .list(InstructionStep.shape), "createdAt": .string, "updatedAt": .string,
            "ownerID": .string, "imageRef": .string, "cuisine": .string, "difficulty": .string,
            "prepTime": .integer, "cookTime": .integer, "servings": .integer, "dietaryNotes": .list(.string),
            "tags": .list(.string), "isPublic": .boolean, "sourceURL": .string, "isSaved": .boolean,
            "isCreated": .boolean, "isFavorited": .boolean,
        ].merging(SyncMetadata.shapeMembers) { a, _ in a })

    public init(value: Value) throws {
        let r = try ValueReader(value)
        let sync = try SyncMetadata(reading: r)
        // A tombstone keeps only its identity and dates (seed 003): nothing else is required.
        let tombstone = sync.isDeleted
        let created = tombstone ? (try r.optionalDate("createdAt") ?? .distantPast) : try r.date("createdAt")
        self.init(
            id: try r.string("id"),
            title: tombstone ? (try r.optionalString("title") ?? "") : try r.string("title"),
            ingredients: try r.list("ingredients") { try Ingredient(value: $0, at: $1) },
            instructions: try r.list("instructions") { try InstructionStep(value: $0, at: $1) },
            createdAt: created,
            updatedAt: try r.optionalDate("updatedAt") ?? created,
            ownerID: try r.optionalString("ownerID"),
            imageRef: try r.optionalString("imageRef"),
            cuisine: try r.optionalString("cuisine"),
            difficulty: try r.optionalEnum("difficulty", Difficulty.self),
            prepTime: try r.optionalInt("prepTime"),
            cookTime: try r.optionalInt("cookTime"),
            servings: try r.optionalInt("servings"),
            dietaryNotes: try r.stringList("dietaryNotes"),
            tags: try r.stringList("tags"),
            isPublic: try r.bool("isPublic", default: false),
            sourceURL: try r.optionalString("sourceURL"),
            isSaved: try r.bool("isSaved", default: false),
            isCreated: try r.bool("isCreated", default: false),
            isFavorited: try r.bool("isFavorited", default: false),
            sync: sync
        )
    }

    public var value: Value {
        var b = ValueBuilder()
        b.set("id", id)
        b.set("title", title)
        b.set("ingredients", value: .array(ingredients.map(\.value)))
        b.set("instructions", value: .array(instructions.map(\.value)))
        b.set("createdAt", createdAt)
        b.set("updatedAt", updatedAt)
        b.set("ownerID", ownerID)
        b.set("imageRef", imageRef)
        b.set("cuisine", cuisine)
        b.set("difficulty", difficulty?.rawValue)
        b.set("prepTime", prepTime)
        b.set("cookTime", cookTime)
        b.set("servings", servings)
        b.set("dietaryNotes", dietaryNotes)
        b.set("tags", tags)
        b.set("isPublic", isPublic)
        b.set("sourceURL", sourceURL)
        b.set("isSaved", isSaved)
        b.set("isCreated", isCreated)
        b.set("isFavorited", isFavorited)
        sync.write(to: &b)
        return b.value
    }

    /// Title not empty; servings > 0 and times ≥ 0 when present; every ingredient names an item.
    public func validate() -> [Diagnostic] {
        guard !sync.isDeleted else { return [] }
        var check = RuleChecker()
        check.require(!id.isEmpty, "id", "id must not be empty")
        check.require(
            !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "title", "title must not be empty")
        if let servings {
            check.require(servings > 0, "servings", "servings must be greater than 0, found \(servings)")
        }
        if let prepTime { check.require(prepTime >= 0, "prepTime", "prepTime must not be negative, found \(prepTime)") }
        if let cookTime { check.require(cookTime >= 0, "cookTime", "cookTime must not be negative, found \(cookTime)") }
        check.require(updatedAt >= createdAt, "updatedAt", "updatedAt must not be before createdAt")
        for (index, ingredient) in ingredients.enumerated() {
            let path = FieldPath.root.appending("ingredients").appending(index: index)
            check.require(
                !ingredient.original.isEmpty || !ingredient.item.isEmpty, path, "ingredient must not be empty")
            if let q = ingredient.quantity {
                check.require(q >= 0, path.appending("quantity"), "quantity must not be negative")
            }
        }
        for (index, step) in instructions.enumerated() {
            let path = FieldPath.root.appending("instructions").appending(index: index)
            check.require(!step.text.isEmpty, path.appending("text"), "step text must not be empty")
            if let t = step.timerSeconds {
                check.require(t >= 0, path.appending("timerSeconds"), "timerSeconds must not be negative, found \(t)")
            }
        }
        return check.diagnostics
    }
}

/// One ingredient line, parsed: `1 ½ cups flour, sifted` → 1.5, cup, flour, sifted; the
/// original line is always kept.
public struct Ingredient: Sendable, Hashable {
    public var quantity: Double?
    /// The upper end of a range such as `2-3`.
    public var quantityMax: Double?
    public var unit: String?
    public var item: String
    public var note: String?
    /// The line exactly as the user wrote it.
    public var original: String

    /// Creates an ingredient.
    public init(
        quantity: Double? = nil, quantityMax: Double? = nil, unit: String? = nil, item: String, note: String? = nil,
        original: String
    ) {
        self.quantity = quantity
        self.quantityMax = quantityMax
        self.unit = unit
        self.item = item
        self.note = note
        self.original = original
    }

    public static let shape: Shape = .object([
        "quantity": .number, "quantityMax": .number, "unit": .string, "item": .string, "note": .string,
        "original": .string,
    ])

    /// Decodes an ingredient at `path`.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        let original = try r.optionalString("original")
        let item = try r.optionalString("item")
        guard let line = original ?? item else { throw r.missing("original") }
        self.init(
            quantity: try r.optionalDouble("quantity"), quantityMax: try r.optionalDouble("quantityMax"),
            unit: try r.optionalString("unit"), item: item ?? line, note: try r.optionalString("note"), original: line)
    }

    /// The ingredient as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("quantity", quantity)
        b.set("quantityMax", quantityMax)
        b.set("unit", unit)
        b.set("item", item)
        b.set("note", note)
        b.set("original", original)
        return b.value
    }
}

/// One instruction step with an optional timer.
public struct InstructionStep: Sendable, Hashable {
    public var text: String
    public var timerSeconds: Int?

    /// Creates a step.
    public init(text: String, timerSeconds: Int? = nil) {
        self.text = text
        self.timerSeconds = timerSeconds
    }

    public static let shape: Shape = .object(["text": .string, "timerSeconds": .integer])

    /// Decodes a step at `path`.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(text: try r.string("text"), timerSeconds: try r.optionalInt("timerSeconds"))
    }

    /// The step as a value.
    public var value: Value {
        var b = ValueBuilder()
        b.set("text", text)
        b.set("timerSeconds", timerSeconds)
        return b.value
    }
}
