package import Foundation

/// The parts of a recipe record that dedupe's matching uses, read straight from its ``Value``.
///
/// ``Recipe/init(value:)`` builds every field (and a field path for each) on the way; the
/// first pass only needs a dozen of them, so it reads them here in one scan over the
/// record's members and checks every member the way the model does. Any record this
/// check doubts is decoded by ``Recipe`` after all, so what is accepted or rejected, and
/// with which message, is exactly what the model says.
package struct RecipeDigest: Sendable {
    package var id: String
    package var title: String
    package var recordName: String
    package var updatedAt: Date
    package var isSaved: Bool
    package var isCreated: Bool
    package var isDeleted: Bool
    package var sourceURL: String?
    package var prepTime: Int?
    package var cookTime: Int?
    package var servings: Int?
    /// Each ingredient's item, or its original line when the item is empty.
    package var ingredientTexts: [String]

    /// Reads a record; throws the model's error when the record is not a valid recipe.
    package init(value: Value) throws {
        if let digest = Self.fast(value) {
            self = digest
        } else {
            self.init(recipe: try Recipe(value: value))
        }
    }

    /// The digest of a decoded recipe.
    package init(recipe: Recipe) {
        id = recipe.id
        title = recipe.title
        recordName = recipe.recordName
        updatedAt = recipe.updatedAt
        isSaved = recipe.isSaved
        isCreated = recipe.isCreated
        isDeleted = recipe.sync.isDeleted
        sourceURL = recipe.sourceURL
        prepTime = recipe.prepTime
        cookTime = recipe.cookTime
        servings = recipe.servings
        ingredientTexts = recipe.ingredients.map { $0.item.isEmpty ? $0.original : $0.item }
    }

    private init(
        id: String, title: String, recordName: String, updatedAt: Date, isSaved: Bool, isCreated: Bool, isDeleted: Bool,
        sourceURL: String?, prepTime: Int?, cookTime: Int?, servings: Int?, ingredientTexts: [String]
    ) {
        self.id = id
        self.title = title
        self.recordName = recordName
        self.updatedAt = updatedAt
        self.isSaved = isSaved
        self.isCreated = isCreated
        self.isDeleted = isDeleted
        self.sourceURL = sourceURL
        self.prepTime = prepTime
        self.cookTime = cookTime
        self.servings = servings
        self.ingredientTexts = ingredientTexts
    }

    // MARK: - The fast path: nil whenever anything is not plainly valid.

    /// The digest of a record the model plainly accepts, read in one scan; nil when the model must decide.
    ///
    /// Plainly: every member of its type, each structured member (ingredients, steps, notes,
    /// images, nutrition, yield, author, rating) of its model type's shape. A non-nil answer means
    /// ``Recipe/init(value:)`` accepts the record, so it also serves as the structure check of
    /// conversions (`RecordCheck.structure` in LarderFormats).
    package static func fast(_ value: Value) -> RecipeDigest? {
        guard case .object(let fields) = value else { return nil }
        var id: String?
        var title: String?
        var recordName: String?
        var createdAt: Date?
        var updatedAt: Date?
        var isSaved = false
        var isCreated = false
        var isDeleted = false
        var sourceURL: String?
        var prepTime: Int?
        var cookTime: Int?
        var servings: Int?
        var texts: [String] = []
        for field in fields {
            let v = field.value
            if case .null = v { continue }
            guard let member = Member.named(field.key) else {
                if modelReads(field.key, in: Recipe.shape) { return nil }
                continue
            }
            switch member {
            case .id:
                guard case .string(let s) = v else { return nil }
                id = s
            case .title:
                guard case .string(let s) = v else { return nil }
                title = s
            case .recordName:
                guard case .string(let s) = v else { return nil }
                recordName = s
            case .createdAt:
                guard let d = date(v) else { return nil }
                createdAt = d
            case .updatedAt:
                guard let d = date(v) else { return nil }
                updatedAt = d
            case .deletedAt: guard date(v) != nil else { return nil }
            case .string: guard case .string = v else { return nil }
            case .sourceURL:
                guard case .string(let s) = v else { return nil }
                sourceURL = s
            case .difficulty:
                guard case .string(let s) = v, Recipe.Difficulty(rawValue: s) != nil else { return nil }
            case .prepTime:
                guard let n = int(v) else { return nil }
                prepTime = n
            case .cookTime:
                guard let n = int(v) else { return nil }
                cookTime = n
            case .servings:
                guard let n = int(v) else { return nil }
                servings = n
            case .bool: guard case .bool = v else { return nil }
            case .isSaved:
                guard case .bool(let b) = v else { return nil }
                isSaved = b
            case .isCreated:
                guard case .bool(let b) = v else { return nil }
                isCreated = b
            case .isDeleted:
                guard case .bool(let b) = v else { return nil }
                isDeleted = b
            case .stringList:
                guard case .array(let items) = v else { return nil }
                for item in items { guard case .string = item else { return nil } }
            case .ingredients:
                guard case .array(let items) = v else { return nil }
                texts.reserveCapacity(items.count)
                for item in items {
                    guard let text = ingredientText(item) else { return nil }
                    texts.append(text)
                }
            case .instructions:
                guard case .array(let items) = v else { return nil }
                for item in items { guard stepIsValid(item) else { return nil } }
            case .integer: guard int(v) != nil else { return nil }
            case .notes: guard list(v, of: noteIsValid) else { return nil }
            case .images: guard list(v, of: imageIsValid) else { return nil }
            case .nutrition: guard nutritionIsValid(v) else { return nil }
            case .yield: guard yieldIsValid(v) else { return nil }
            case .author: guard authorIsValid(v) else { return nil }
            case .rating: guard ratingIsValid(v) else { return nil }
            case .extras: guard case .object = v else { return nil }
            }
        }
        guard let id else { return nil }
        if !isDeleted { guard title != nil, createdAt != nil else { return nil } }
        let created = createdAt ?? .distantPast
        return RecipeDigest(
            id: id, title: title ?? "", recordName: recordName ?? "\(RecordType.recipe.rawValue)-\(id)",
            updatedAt: updatedAt ?? created, isSaved: isSaved, isCreated: isCreated, isDeleted: isDeleted,
            sourceURL: sourceURL, prepTime: prepTime, cookTime: cookTime, servings: servings, ingredientTexts: texts)
    }

    /// The recipe members the fast path checks, found by one dictionary lookup per member.
    private enum Member {
        case id, title, recordName, createdAt, updatedAt, deletedAt, string, sourceURL, difficulty
        case prepTime, cookTime, servings, bool, isSaved, isCreated, isDeleted, stringList, ingredients, instructions
        /// An integer the digest does not keep (totalTime).
        case integer
        /// The structured members of version 4, each checked as its model type reads it.
        case notes, images, nutrition, yield, author, rating, extras

        static let byName: [String: Member] = [
            "id": .id, "title": .title, "recordName": .recordName, "createdAt": .createdAt, "updatedAt": .updatedAt,
            "deletedAt": .deletedAt, "ownerID": .string, "imageRef": .string, "cuisine": .string, "changeTag": .string,
            "sourceURL": .sourceURL, "difficulty": .difficulty, "prepTime": .prepTime, "cookTime": .cookTime,
            "servings": .servings, "isPublic": .bool, "isFavorited": .bool, "isCloudEnabled": .bool,
            "isSaved": .isSaved,
            "isCreated": .isCreated, "isDeleted": .isDeleted, "dietaryNotes": .stringList, "tags": .stringList,
            "ingredients": .ingredients, "instructions": .instructions,
            "description": .string, "sourceName": .string, "language": .string, "videoURL": .string,
            "totalTime": .integer, "categories": .stringList, "courses": .stringList, "cuisines": .stringList,
            "tools": .stringList, "reviews": .stringList, "notes": .notes, "images": .images,
            "nutrition": .nutrition, "yield": .yield, "author": .author, "rating": .rating, "extras": .extras,
        ]

        /// ``byName`` as a table looked up without hashing, which was a tenth of the digest.
        private static let table = ShortKeyTable(byName)

        /// The member named `key`.
        @inline(__always)
        static func named(_ key: String) -> Member? { table[key] }
    }

    /// The recipe members the fast path checks itself; any other member the model reads sends the
    /// record to the model (``modelReads(_:in:)``), so a field added to the model stays correct here.
    package static var knownMembers: Set<String> { Set(Member.byName.keys) }

    /// Whether the model's `shape` names `key`, a member the fast path has no case for.
    ///
    /// Only the model can tell whether such a member's value is valid; members no model reads are
    /// passed over, as the model passes them over.
    private static func modelReads(_ key: String, in shape: Shape) -> Bool {
        guard case .object(let members) = shape else { return false }
        return members[key] != nil
    }

    private static func date(_ value: Value) -> Date? {
        guard case .string(let s) = value else { return nil }
        return Timestamp.parse(s)
    }

    private static func int(_ value: Value) -> Int? {
        switch value {
        case .int(let i): return Int(exactly: i)
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int(d)
        default: return nil
        }
    }

    private static func isNumber(_ value: Value) -> Bool {
        switch value {
        case .int, .double, .null: return true
        default: return false
        }
    }

    private static func ingredientText(_ value: Value) -> String? {
        guard case .object(let fields) = value else { return nil }
        var original: String?
        var item: String?
        for field in fields {
            switch field.key {
            case "original":
                if case .null = field.value { continue }
                guard case .string(let s) = field.value else { return nil }
                original = s
            case "item":
                if case .null = field.value { continue }
                guard case .string(let s) = field.value else { return nil }
                item = s
            case "quantity", "quantityMax": guard isNumber(field.value) else { return nil }
            case "unit", "note", "group":
                if case .null = field.value { continue }
                guard case .string = field.value else { return nil }
            default: if modelReads(field.key, in: Ingredient.shape) { return nil }
            }
        }
        guard let line = original ?? item else { return nil }
        let resolved = item ?? line
        return resolved.isEmpty ? line : resolved
    }

    private static func stepIsValid(_ value: Value) -> Bool {
        guard case .object(let fields) = value else { return false }
        var hasText = false
        for field in fields {
            switch field.key {
            case "text":
                guard case .string = field.value else { return false }
                hasText = true
            case "timerSeconds":
                if case .null = field.value { continue }
                guard int(field.value) != nil else { return false }
            case "name":
                if case .null = field.value { continue }
                guard case .string = field.value else { return false }
            case "images": guard list(field.value, of: imageIsValid) else { return false }
            default: if modelReads(field.key, in: InstructionStep.shape) { return false }
            }
        }
        return hasText
    }

    // The version 4 members, as their model types read them (`ValueReader`): a `null` member is
    // an absent one, a required member must be there (and every copy of a repeated key must be
    // valid, whichever one the model reads), and members the type does not read are passed over.

    /// A list (or `null`) whose every element `element` accepts.
    private static func list(_ value: Value, of element: (Value) -> Bool) -> Bool {
        switch value {
        case .null: return true
        case .array(let items): return items.allSatisfy(element)
        default: return false
        }
    }

    /// Whether `value` is `null` or a string: an optional string member.
    private static func isOptionalString(_ value: Value) -> Bool {
        switch value {
        case .null, .string: return true
        default: return false
        }
    }

    /// Whether `value` is a number (`RecipeRating`'s and `Recipe.Yield`'s doubles).
    private static func isDouble(_ value: Value) -> Bool {
        switch value {
        case .int, .double: return true
        default: return false
        }
    }

    /// Checks an object's members: `check` answers for each member it knows (`nil` for a member
    /// it does not), `required` names the members that must be present and not `null`.
    private static func object(
        _ value: Value, shape: Shape, required: [String] = [], _ check: (String, Value) -> Bool?
    ) -> Bool {
        guard case .object(let fields) = value else { return false }
        var missing = required
        for field in fields {
            guard let valid = check(field.key, field.value) else {
                if modelReads(field.key, in: shape) { return false }
                continue
            }
            guard valid else { return false }
            if !missing.isEmpty, !field.value.isNull { missing.removeAll { $0 == field.key } }
        }
        return missing.isEmpty
    }

    /// A ``RecipeNote``: a `text` string, an optional `title`.
    private static func noteIsValid(_ value: Value) -> Bool {
        object(value, shape: RecipeNote.shape, required: ["text"]) { key, member in
            switch key {
            case "text": if case .string = member { true } else { false }
            case "title": isOptionalString(member)
            default: nil
            }
        }
    }

    /// A ``RecipeImage``: a `ref` or a `url` (strings), an optional `isPrimary` boolean.
    private static func imageIsValid(_ value: Value) -> Bool {
        // Whether every copy of the member is a string (nil: none): then the model finds it.
        var ref: Bool?
        var url: Bool?
        let valid = object(value, shape: RecipeImage.shape) { key, member in
            switch key {
            case "ref", "url":
                let isString = if case .string = member { true } else { false }
                if key == "ref" { ref = (ref ?? true) && isString } else { url = (url ?? true) && isString }
                return isOptionalString(member)
            case "isPrimary":
                switch member {
                case .null, .bool: return true
                default: return false
                }
            default: return nil
            }
        }
        return valid && (ref == true || url == true)
    }

    /// ``Nutrition``: an object whose known members are strings (a `null` member never gets here).
    private static func nutritionIsValid(_ value: Value) -> Bool {
        object(value, shape: Nutrition.shape) { key, member in
            Nutrition.keys.contains(key) ? isOptionalString(member) : nil
        }
    }

    /// ``Recipe/Yield``: a `text` string, an optional `quantity` number and `unit` string.
    private static func yieldIsValid(_ value: Value) -> Bool {
        object(value, shape: Recipe.Yield.shape, required: ["text"]) { key, member in
            switch key {
            case "text": if case .string = member { true } else { false }
            case "unit": isOptionalString(member)
            case "quantity": isNumber(member)
            default: nil
            }
        }
    }

    /// ``RecipeAuthor``: a `name` string, an optional `url` string.
    private static func authorIsValid(_ value: Value) -> Bool {
        object(value, shape: RecipeAuthor.shape, required: ["name"]) { key, member in
            switch key {
            case "name": if case .string = member { true } else { false }
            case "url": isOptionalString(member)
            default: nil
            }
        }
    }

    /// ``RecipeRating``: `value` and `scale` numbers, an optional integer `count`.
    private static func ratingIsValid(_ value: Value) -> Bool {
        object(value, shape: RecipeRating.shape, required: ["value", "scale"]) { key, member in
            switch key {
            case "value", "scale": isDouble(member)
            case "count": member.isNull || int(member) != nil
            default: nil
            }
        }
    }
}
