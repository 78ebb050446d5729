import Foundation
import LarderCore
import LarderFormats

extension PlainRecipe {
    /// The state of reading one record: the recipe so far and what was not carried.
    struct Reader {
        var recipe = ImportedRecipe(title: "")
        var unmapped: [UnmappedField] = []
        /// The group the last ingredient object named (`{group: "Dough", …}`), so a heading is added
        /// only where the group changes.
        var lastIngredientHeading: String?

        /// Reads the field at `path` into the recipe field of `role`.
        mutating func read(_ value: Value, as role: Role, at path: FieldPath, isLarderRecord: Bool) throws {
            switch role {
            case .title, .larderFlag, .syncState:
                break  // read before
            case .description:
                recipe.description = try textBlock(value, at: path)
            case .author:
                recipe.author = try names(value, at: path).joined(separator: ", ")
            case .ingredients:
                try readIngredients(value, at: path, heading: nil)
            case .steps:
                try readSteps(value, at: path)
            case .prepTime:
                recipe.prepMinutes = try minutes(value, at: path)
            case .cookTime:
                recipe.cookMinutes = try minutes(value, at: path)
            case .totalTime:
                recipe.totalMinutes = try minutes(value, at: path)
            case .yield, .servings:
                try readYield(value, at: path, isCount: role == .servings)
            case .tags:
                recipe.keywords += try names(value, at: path)
            case .categories:
                recipe.categories += try names(value, at: path)
            case .cuisine:
                let cuisines = try names(value, at: path)
                recipe.cuisine = cuisines.first
                recipe.cuisines = cuisines  // recipe v4: a recipe can be two cuisines
            case .diets:
                recipe.diets = try names(value, at: path)
            case .source:
                try readSource(value, at: path)
            case .sourceURL:
                if recipe.sourceURL == nil {
                    recipe.sourceURL = try PlainRecipe.text(value, at: path, expected: "a URL")
                }
            case .image:
                recipe.images = try images(value, at: path)
            case .createdAt:
                recipe.createdAt = try date(value, at: path)
            case .updatedAt:
                recipe.updatedAt = try date(value, at: path)
            case .notes:
                recipe.notes = try textBlock(value, at: path)
            case .nutrition:
                try readNutrition(value, at: path)
            case .rating:
                try readRating(value, at: path)
            case .difficulty:
                try readDifficulty(value, at: path)
            case .id:
                let id = try PlainRecipe.text(value, at: path, expected: "an id")
                recipe.nativeID = id
                if let id, isLarderRecord || UUID(uuidString: id) != nil {
                    recipe.larderID = ImportedRecipe.usableID(id)
                }
            case .favorite:
                recipe.isFavorite = try flag(value, at: path) ?? false
            case .ownerID:
                recipe.ownerID = try PlainRecipe.text(value, at: path, expected: "an owner id")
            }
        }

        /// Larder's own membership flags and sync state: what an import keeps (a saved recipe), what it
        /// cannot (created or public, sync state), and tombstones, which it refuses.
        mutating func readLarderState(_ field: Field, at path: FieldPath) throws {
            let isSet = try? flag(field.value, at: path)
            let name = PlainRecipe.normalizedName(field.key)
            if name == "isdeleted", isSet == true {
                throw LarderError(
                    .malformedRecord, "a deleted record (a tombstone): nothing to import",
                    location: SourceLocation(fieldPath: path))
            }
            if ["issaved", "isdeleted", "iscloudenabled"].contains(name), isSet != nil {
                return  // an import is a saved recipe, not deleted, and starts with no sync state
            }
            if ["iscreated", "ispublic"].contains(name), isSet != nil {
                guard isSet == true else { return }
                unmapped.append(
                    UnmappedField(
                        path: path, value: field.value,
                        reason:
                            "an imported recipe is saved, not created or public (larder convert keeps Larder records as they are)"
                    ))
                return
            }
            unmapped.append(UnmappedField(path: path, value: field.value, reason: "sync state is not imported"))
        }

        // MARK: Text

        /// Text, or a list of texts (one per line), or notes as objects (`{title, text}`).
        func textBlock(_ value: Value, at path: FieldPath) throws -> String? {
            switch value {
            case .array(let items):
                var lines: [String] = []
                for (index, item) in items.enumerated() {
                    if let line = try textBlock(item, at: path.appending(index: index)) { lines.append(line) }
                }
                return lines.isEmpty ? nil : lines.joined(separator: "\n")
            case .object(let fields):
                let title = try fields["title"].flatMap { try PlainRecipe.text($0, at: path.appending("title")) }
                let text = try (fields["text"] ?? fields["body"] ?? fields["note"]).flatMap {
                    try textBlock($0, at: path.appending("text"))
                }
                guard let text else {
                    throw LarderError(
                        .malformedRecord, "expected text, found an object without text",
                        location: SourceLocation(fieldPath: path))
                }
                return title.map { "\($0): \(text)" } ?? text
            case .string(let s):
                let text = s.contains("<") && s.contains(">") ? HTMLText.normalizeKeepingLines(s) : s.trimmingWhitespace
                return text.isEmpty ? nil : text
            default:
                return try PlainRecipe.text(value, at: path)
            }
        }

        /// Names: a text split at commas and semicolons, a list of texts, or objects with a `name`.
        func names(_ value: Value, at path: FieldPath) throws -> [String] {
            switch value {
            case .array(let items):
                var out: [String] = []
                for (index, item) in items.enumerated() { out += try names(item, at: path.appending(index: index)) }
                return out
            case .object(let fields):
                for key in ["name", "title", "label", "text", "value"] {
                    if let name = fields[key] { return try names(name, at: path.appending(key)) }
                }
                throw LarderError(
                    .malformedRecord, "expected a name, found an object without one",
                    location: SourceLocation(fieldPath: path))
            case .string(let s):
                return s.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "\n" })
                    .map { HTMLText.collapseWhitespace(String($0)) }.filter { !$0.isEmpty }
            default:
                return try PlainRecipe.text(value, at: path, expected: "a name or a list of names").map { [$0] } ?? []
            }
        }

        /// A yes/no: a boolean, 0/1, or `yes`/`no`/`true`/`false`.
        func flag(_ value: Value, at path: FieldPath) throws -> Bool? {
            switch value {
            case .bool(let b): return b
            case .int(let i): return i != 0
            case .string(let s):
                switch s.trimmingWhitespace.lowercased() {
                case "true", "yes", "y", "1", "on": return true
                case "false", "no", "n", "0", "off", "": return false
                default: break
                }
            default: break
            }
            throw LarderError(
                .malformedRecord, "expected true or false, found \(value.snippet)",
                location: SourceLocation(fieldPath: path))
        }

        // MARK: Times, yields, dates

        /// Why a duration that is a number is not carried: NaN, infinite, or more minutes than Larder keeps.
        static let tooLong = "not a duration Larder can hold"

        /// Minutes from a number (minutes), an ISO 8601 duration or text; an object `{hours, minutes}`.
        mutating func minutes(_ value: Value, at path: FieldPath) throws -> Int? {
            switch value {
            case .int(let i): return i > 0 ? Int(clamping: i) : nil
            case .double(let d):
                if d > 0 && d < 1e9 { return Int(d.rounded(.up)) }
                // NaN, infinity or a number too large to be minutes: kept as written, not dropped.
                if !(d <= 0) { unmapped.append(UnmappedField(path: path, value: value, reason: Self.tooLong)) }
                return nil
            case .object(let fields):
                var total = 0.0
                for field in fields {
                    guard
                        let number = try PlainRecipe.text(field.value, at: path.appending(field.key)).flatMap({
                            Double($0)
                        })
                    else {
                        unmapped.append(UnmappedField(path: path.appending(field.key), value: field.value))
                        continue
                    }
                    switch PlainRecipe.normalizedName(field.key) {
                    case "d", "days": total += number * 1440
                    case "h", "hours", "hour", "hrs": total += number * 60
                    case "m", "min", "mins", "minutes", "minute": total += number
                    case "s", "sec", "seconds": total += number / 60
                    default: unmapped.append(UnmappedField(path: path.appending(field.key), value: field.value))
                    }
                }
                if total <= 0 { return nil }
                guard let minutes = Int(rounding: total, .up) else {  // NaN, infinite, or past Int's range
                    unmapped.append(UnmappedField(path: path, value: value, reason: Self.tooLong))
                    return nil
                }
                return minutes
            default:
                guard let text = try PlainRecipe.text(value, at: path, expected: "a duration") else { return nil }
                if let minutes = RecipeTime.minutes(from: text) { return minutes }
                if let zero = Double(text), zero == 0 { return nil }
                unmapped.append(UnmappedField(path: path, value: value, reason: "not a duration"))
                return nil
            }
        }

        /// A yield (`4 servings`, `makes 24`, `serves 4-6`) or a count of servings.
        mutating func readYield(_ value: Value, at path: FieldPath, isCount: Bool) throws {
            switch value {
            case .int(let i):
                if recipe.servings == nil, i > 0 { recipe.servings = Int(clamping: i) }
                if recipe.yieldText == nil, i > 0 { recipe.yieldText = "\(i) serving\(i == 1 ? "" : "s")" }
            case .object(let fields):
                // `{amount: 24, unit: cookies}`, `{quantity, unit}`, `{servings: 4}`.
                let amount = try (fields["amount"] ?? fields["quantity"] ?? fields["value"] ?? fields["servings"])
                    .flatMap { try PlainRecipe.text($0, at: path.appending("amount")) }
                let unit = try (fields["unit"] ?? fields["units"]).flatMap {
                    try PlainRecipe.text($0, at: path.appending("unit"))
                }
                guard let amount else {
                    unmapped.append(UnmappedField(path: path, value: value, reason: "no amount in the yield"))
                    return
                }
                try readYield(
                    .string([amount, unit ?? (isCount ? "servings" : nil)].compactMap { $0 }.joined(separator: " ")),
                    at: path, isCount: isCount)
            default:
                guard let text = try PlainRecipe.text(value, at: path, expected: "a yield") else { return }
                guard let normalized = RecipeYield.normalized(text) else {
                    unmapped.append(UnmappedField(path: path, value: value, reason: "no number in the yield"))
                    return
                }
                if recipe.yieldText == nil || !isCount { recipe.yieldText = normalized }
                if recipe.servings == nil || isCount { recipe.servings = RecipeYield.servings(text) }
            }
        }

        /// A date: ISO 8601 and the common written forms (``RecipeDate``), or Unix time in seconds
        /// (milliseconds past 10¹¹).
        mutating func date(_ value: Value, at path: FieldPath) throws -> Date? {
            func epoch(_ seconds: Double) -> Date {
                Date(timeIntervalSince1970: seconds >= 1e11 ? seconds / 1000 : seconds)
            }
            switch value {
            case .int(let i): return epoch(Double(i))
            case .double(let d): return epoch(d)
            default:
                guard let text = try PlainRecipe.text(value, at: path, expected: "a date") else { return nil }
                if let date = RecipeDate.parse(text) { return date }
                if let seconds = Double(text), seconds > 0 { return epoch(seconds) }
                unmapped.append(UnmappedField(path: path, value: value, reason: "not a date Larder reads"))
                return nil
            }
        }

        // MARK: Other fields

        /// A source: a URL goes to the source URL; a name (or an object's name) has no Larder field yet.
        mutating func readSource(_ value: Value, at path: FieldPath) throws {
            if case .object(let fields) = value {
                for field in fields {
                    let fieldPath = path.appending(field.key)
                    if Role(key: field.key) == .sourceURL, recipe.sourceURL == nil {
                        recipe.sourceURL = try PlainRecipe.text(field.value, at: fieldPath, expected: "a URL")
                    } else if Role(key: field.key) == .title, recipe.sourceName == nil,
                        let name = try PlainRecipe.text(field.value, at: fieldPath, expected: "a name")
                    {
                        recipe.sourceName = name  // `source: {name: …, url: …}`
                    } else {
                        unmapped.append(UnmappedField(path: fieldPath, value: field.value))
                    }
                }
                return
            }
            guard let text = try PlainRecipe.text(value, at: path, expected: "a source") else { return }
            let lower = text.lowercased()
            if recipe.sourceURL == nil,
                lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("www.")
            {
                recipe.sourceURL = text
            } else if recipe.sourceName == nil {
                recipe.sourceName = text  // a book, a site or a person
            } else {
                unmapped.append(UnmappedField(path: path, value: value))
            }
        }

        /// Image URLs (or paths as written): a text, a list, objects with a `url`.
        func images(_ value: Value, at path: FieldPath) throws -> [ImportedRecipe.Image] {
            switch value {
            case .array(let items):
                var out: [ImportedRecipe.Image] = []
                for (index, item) in items.enumerated() { out += try images(item, at: path.appending(index: index)) }
                return out
            case .object(let fields):
                for key in ["url", "src", "href", "path", "uri", "link", "contentUrl", "text"] {
                    if let url = fields[key] { return try images(url, at: path.appending(key)) }
                }
                throw LarderError(
                    .malformedRecord, "expected an image URL, found an object without a url",
                    location: SourceLocation(fieldPath: path))
            default:
                return try PlainRecipe.text(value, at: path, expected: "an image URL").map { [.url($0)] } ?? []
            }
        }

        /// Nutrition facts: an object of amounts (`calories: 250 kcal`), or one text.
        mutating func readNutrition(_ value: Value, at path: FieldPath) throws {
            guard case .object(let fields) = value else {
                if let text = try textBlock(value, at: path) { recipe.nutrition["text"] = text }
                return
            }
            for field in fields where !PlainRecipe.isEmpty(field.value) {
                let fieldPath = path.appending(field.key)
                switch field.value {
                case .string, .int, .double:
                    recipe.nutrition[field.key] = try PlainRecipe.text(field.value, at: fieldPath)
                default:
                    unmapped.append(UnmappedField(path: fieldPath, value: field.value))
                }
            }
        }

        /// A rating: a number, `4/5`, `4.5 stars`, or `{value}`.
        mutating func readRating(_ value: Value, at path: FieldPath) throws {
            switch value {
            case .int(let i): recipe.rating = Double(i)
            case .double(let d): recipe.rating = d
            case .object(let fields):
                let rating = fields["value"] ?? fields["ratingValue"] ?? fields["rating"] ?? fields["stars"]
                guard let rating else {
                    unmapped.append(UnmappedField(path: path, value: value, reason: "no value in the rating"))
                    return
                }
                try readRating(rating, at: path.appending("value"))
            default:
                guard let text = try PlainRecipe.text(value, at: path, expected: "a rating") else { return }
                let number = text.prefix { $0.isNumber || $0 == "." || $0 == "," }.replacingOccurrences(
                    of: ",", with: ".")
                guard let rating = Double(number) else {
                    unmapped.append(UnmappedField(path: path, value: value, reason: "not a number"))
                    return
                }
                recipe.rating = rating
            }
        }

        /// A difficulty in words: easy, medium or hard, or a common synonym.
        mutating func readDifficulty(_ value: Value, at path: FieldPath) throws {
            guard let text = try PlainRecipe.text(value, at: path, expected: "a difficulty") else { return }
            switch text.lowercased() {
            case "easy", "simple", "beginner", "low", "leicht", "einfach", "facile", "très facile":
                recipe.difficulty = .easy
            case "medium", "moderate", "intermediate", "average", "normal", "mittel", "moyen", "moyenne":
                recipe.difficulty = .medium
            case "hard", "difficult", "advanced", "challenging", "high", "schwer", "difficile":
                recipe.difficulty = .hard
            default: unmapped.append(UnmappedField(path: path, value: value, reason: "not easy, medium or hard"))
            }
        }
    }
}
