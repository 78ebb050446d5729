public import Foundation

/// A cooking recipe (SnapChef `Recipe`, Cheffy `UserRecipe`, iCook recipe) at the current
/// schema version (v4): structured ingredients (with their section headings), steps with optional
/// timers, names and images, membership flags, and what imported recipes really hold: description,
/// notes, nutrition, yield, author, rating, categories, cuisines, tools, images, and `extras`, the
/// source fields Larder has no field for, kept verbatim under the source format's name.
///
/// `imageRef` is the primary image stored beside the record, as in v3 (image storage, sync and
/// the v1 migration use it); `images` lists every image, local or remote, and marks the primary
/// one. v3's single `cuisine` is ``cuisines``; the ``cuisine`` property reads and writes its first
/// element, and a record that has only `cuisine` reads as a one-element `cuisines`.
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
    /// A reference to the primary image stored beside the record (was inline `imageData` in v1).
    public var imageRef: String?
    /// The recipe's cuisines, first the main one (a recipe can be two cuisines; one `cuisine` in v3).
    public var cuisines: [String]
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
    /// The introduction or summary, as written.
    public var description: String?
    /// Notes and tips, in order.
    public var notes: [RecipeNote]
    /// Nutrition facts, as written.
    public var nutrition: Nutrition?
    /// What the recipe makes, beside `servings`.
    public var yield: Recipe.Yield?
    /// Total time in minutes, as the source gives it (not always prep + cook).
    public var totalTime: Int?
    /// Who wrote the recipe.
    public var author: RecipeAuthor?
    /// The site, book or person it comes from.
    public var sourceName: String?
    /// Its rating on the source's scale.
    public var rating: RecipeRating?
    public var categories: [String]
    public var courses: [String]
    /// Tools and equipment.
    public var tools: [String]
    /// Every image, local (`ref`) or remote (`url`), the primary one marked.
    public var images: [RecipeImage]
    /// The recipe's language, a BCP 47 tag (`en`, `de-CH`).
    public var language: String?
    public var videoURL: String?
    /// Reviews, as text.
    public var reviews: [String]
    /// Source fields Larder has no field for, verbatim, under the source format's name
    /// (`{"paprika": {"hash": …}}`), so an export back to that format can restore them.
    public var extras: Fields
    public var sync: SyncMetadata

    /// The first cuisine (v3's single `cuisine`); setting it replaces the first, `nil` clears them all.
    public var cuisine: String? {
        get { cuisines.first }
        set {
            if let newValue {
                if cuisines.isEmpty { cuisines = [newValue] } else { cuisines[0] = newValue }
            } else {
                cuisines = []
            }
        }
    }

    /// Creates a recipe.
    public init(
        id: String, title: String, ingredients: [Ingredient] = [], instructions: [InstructionStep] = [],
        createdAt: Date, updatedAt: Date? = nil, ownerID: String? = nil, imageRef: String? = nil,
        cuisine: String? = nil,
        difficulty: Difficulty? = nil, prepTime: Int? = nil, cookTime: Int? = nil, servings: Int? = nil,
        dietaryNotes: [String] = [], tags: [String] = [], isPublic: Bool = false, sourceURL: String? = nil,
        isSaved: Bool = false, isCreated: Bool = false, isFavorited: Bool = false, description: String? = nil,
        notes: [RecipeNote] = [], nutrition: Nutrition? = nil, yield: Recipe.Yield? = nil, totalTime: Int? = nil,
        author: RecipeAuthor? = nil, sourceName: String? = nil, rating: RecipeRating? = nil, categories: [String] = [],
        courses: [String] = [], cuisines: [String] = [], tools: [String] = [], images: [RecipeImage] = [],
        language: String? = nil, videoURL: String? = nil, reviews: [String] = [], extras: Fields = Fields(),
        sync: SyncMetadata = SyncMetadata()
    ) {
        self.id = id
        self.title = title
        self.ingredients = ingredients
        self.instructions = instructions
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.ownerID = ownerID
        self.imageRef = imageRef
        self.cuisines = cuisines.isEmpty ? (cuisine.map { [$0] } ?? []) : cuisines
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
        self.description = description
        self.notes = notes
        self.nutrition = nutrition
        self.yield = yield
        self.totalTime = totalTime
        self.author = author
        self.sourceName = sourceName
        self.rating = rating
        self.categories = categories
        self.courses = courses
        self.tools = tools
        self.images = images
        self.language = language
        self.videoURL = videoURL
        self.reviews = reviews
        self.extras = extras
        self.sync = sync
    }

    public static let shape: Shape = .object(members.merging(SyncMetadata.shapeMembers) { a, _ in a })

    private static let members: [String: Shape] = [
        "id": .string, "title": .string, "ingredients": .list(Ingredient.shape),
        "instructions": .list(InstructionStep.shape), "createdAt": .string, "updatedAt": .string,
        "ownerID": .string, "imageRef": .string, "cuisine": .string, "difficulty": .string,
        "prepTime": .integer, "cookTime": .integer, "servings": .integer, "dietaryNotes": .list(.string),
        "tags": .list(.string), "isPublic": .boolean, "sourceURL": .string, "isSaved": .boolean,
        "isCreated": .boolean, "isFavorited": .boolean, "description": .string, "notes": .list(RecipeNote.shape),
        "nutrition": Nutrition.shape, "yield": Recipe.Yield.shape, "totalTime": .integer,
        "author": RecipeAuthor.shape, "sourceName": .string, "rating": RecipeRating.shape,
        "categories": .list(.string), "courses": .list(.string), "cuisines": .list(.string),
        "tools": .list(.string), "images": .list(RecipeImage.shape), "language": .string, "videoURL": .string,
        "reviews": .list(.string), "extras": .object([:]),
    ]

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
            description: try r.optionalString("description"),
            notes: try r.list("notes") { try RecipeNote(value: $0, at: $1) },
            nutrition: try r.optionalObject("nutrition") { try Nutrition(value: $0, at: $1) },
            yield: try r.optionalObject("yield") { try Recipe.Yield(value: $0, at: $1) },
            totalTime: try r.optionalInt("totalTime"),
            author: try r.optionalObject("author") { try RecipeAuthor(value: $0, at: $1) },
            sourceName: try r.optionalString("sourceName"),
            rating: try r.optionalObject("rating") { try RecipeRating(value: $0, at: $1) },
            categories: try r.stringList("categories"),
            courses: try r.stringList("courses"),
            cuisines: try r.stringList("cuisines"),
            tools: try r.stringList("tools"),
            images: try r.list("images") { try RecipeImage(value: $0, at: $1) },
            language: try r.optionalString("language"),
            videoURL: try r.optionalString("videoURL"),
            reviews: try r.stringList("reviews"),
            extras: try r.optionalObject("extras") { value, _ in value.objectValue ?? Fields() } ?? Fields(),
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
        b.set("description", description)
        b.set("notes", value: .array(notes.map(\.value)))
        if let nutrition { b.set("nutrition", value: nutrition.value) }
        if let yield { b.set("yield", value: yield.value) }
        b.set("totalTime", totalTime)
        if let author { b.set("author", value: author.value) }
        b.set("sourceName", sourceName)
        if let rating { b.set("rating", value: rating.value) }
        b.set("categories", categories)
        b.set("courses", courses)
        b.set("cuisines", cuisines)
        b.set("tools", tools)
        b.set("images", value: .array(images.map(\.value)))
        b.set("language", language)
        b.set("videoURL", videoURL)
        b.set("reviews", reviews)
        if !extras.isEmpty { b.set("extras", value: .object(extras)) }
        sync.write(to: &b)
        return b.value
    }

    /// Title not empty; servings > 0 and times ≥ 0 when present; every ingredient names an item;
    /// a rating within its scale; at most one primary image; each extras entry an object.
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
        if let totalTime {
            check.require(totalTime >= 0, "totalTime", "totalTime must not be negative, found \(totalTime)")
        }
        if let rating {
            check.require(
                rating.scale > 0, "rating.scale", "rating scale must be greater than 0, found \(rating.scale)")
            check.require(
                rating.score >= 0 && rating.score <= rating.scale, "rating.value",
                "rating must be between 0 and its scale \(rating.scale), found \(rating.score)")
        }
        if let yield, let quantity = yield.quantity {
            check.require(quantity >= 0, "yield.quantity", "yield quantity must not be negative")
        }
        let primaries = images.filter(\.isPrimary).count
        check.require(primaries <= 1, "images", "at most one image may be primary, found \(primaries)")
        for note in notes.indices {
            check.require(
                !notes[note].text.isEmpty, FieldPath.root.appending("notes").appending(index: note).appending("text"),
                "note text must not be empty")
        }
        for entry in extras where entry.value.objectValue == nil {
            check.require(
                false, FieldPath.root.appending("extras").appending(entry.key),
                "extras.\(entry.key) must be an object of the source's fields, found \(entry.value.kindDescription)")
        }
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
    /// The heading of the ingredient's section (`For the sauce`), when the recipe has sections.
    public var group: String?

    /// Creates an ingredient.
    public init(
        quantity: Double? = nil, quantityMax: Double? = nil, unit: String? = nil, item: String, note: String? = nil,
        original: String, group: String? = nil
    ) {
        self.quantity = quantity
        self.quantityMax = quantityMax
        self.unit = unit
        self.item = item
        self.note = note
        self.original = original
        self.group = group
    }

    public static let shape: Shape = .object([
        "quantity": .number, "quantityMax": .number, "unit": .string, "item": .string, "note": .string,
        "original": .string, "group": .string,
    ])

    /// Decodes an ingredient at `path`.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        let original = try r.optionalString("original")
        let item = try r.optionalString("item")
        guard let line = original ?? item else { throw r.missing("original") }
        self.init(
            quantity: try r.optionalDouble("quantity"), quantityMax: try r.optionalDouble("quantityMax"),
            unit: try r.optionalString("unit"), item: item ?? line, note: try r.optionalString("note"), original: line,
            group: try r.optionalString("group"))
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
        b.set("group", group)
        return b.value
    }
}

/// One instruction step with an optional timer, the heading of its section, and its images.
public struct InstructionStep: Sendable, Hashable {
    public var text: String
    public var timerSeconds: Int?
    /// The heading of the step's section (`Make the dough`), or the step's own name.
    public var name: String?
    /// The step's images.
    public var images: [RecipeImage]

    /// Creates a step.
    public init(text: String, timerSeconds: Int? = nil, name: String? = nil, images: [RecipeImage] = []) {
        self.text = text
        self.timerSeconds = timerSeconds
        self.name = name
        self.images = images
    }

    public static let shape: Shape = .object([
        "text": .string, "timerSeconds": .integer, "name": .string, "images": .list(RecipeImage.shape),
    ])

    /// Decodes a step at `path`.
    public init(value: Value, at path: FieldPath) throws {
        let r = try ValueReader(value, at: path)
        self.init(
            text: try r.string("text"), timerSeconds: try r.optionalInt("timerSeconds"),
            name: try r.optionalString("name"), images: try r.list("images") { try RecipeImage(value: $0, at: $1) })
    }

    /// The step as a value; `images` only when there are some.
    public var value: Value {
        var b = ValueBuilder()
        b.set("text", text)
        b.set("timerSeconds", timerSeconds)
        b.set("name", name)
        if !images.isEmpty { b.set("images", value: .array(images.map(\.value))) }
        return b.value
    }
}
