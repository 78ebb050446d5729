import LarderCore
import LarderFormats

extension PlainRecipe {
    /// A record that is a current Larder recipe as `larder generate`, `convert` and `export` write
    /// it, read by mapping its fields: what ``PlainRecipe`` and
    /// ``PlainRecipeImporter/keep(_:in:fields:isLarderRecord:origin:context:)`` make of it (the
    /// recipe, its field census and source, and the warnings), without reading it as foreign text.
    ///
    /// Only records every member of which has its Larder name and plain form take this way: the
    /// ingredients `{quantity, unit, item, note, original}` with a line, the steps `{text,
    /// timerSeconds}`, the scalar fields read by the full path's own readers, the flags and sync
    /// state, and the v4 lists Larder writes empty (notes, categories, courses, tools, images,
    /// reviews). Anything else (an unknown or misspelled member, a v4 field with a value, an
    /// ingredient without its line, a value the full path would not carry or would reject) gives
    /// `nil`, and the record takes the full path; the agreement tests hold the two to each other.
    struct LarderRecord {
        /// The recipe, with its field census and leaf source.
        var recipe: ImportedRecipe
        /// The warnings the full path gives, in its order.
        var warnings: [String]

        /// What a member of a Larder recipe is read as: its role, or `nil` for the lists Larder
        /// writes empty and this way takes only empty.
        private static let members: [String: Role?] = {
            var members: [String: Role?] = [:]
            for key in [
                "id", "title", "ingredients", "instructions", "createdAt", "updatedAt", "ownerID", "difficulty",
                "prepTime", "cookTime", "servings", "dietaryNotes", "tags", "isPublic", "isSaved", "isCreated",
                "isFavorited", "cuisines", "recordName", "isCloudEnabled", "isDeleted", "imageRef", "sourceURL",
            ] {
                members[key] = Role(key: key)
            }
            for key in ["notes", "categories", "courses", "tools", "images", "reviews"] { members[key] = .some(nil) }
            return members
        }()

        /// The fate of each member the full path's field table gives it.
        private static let table = FieldTable(
            .plain,
            Dictionary(
                uniqueKeysWithValues: members.compactMap { key, role in
                    role.map { role in
                        (key, role.larderField.map { .carried($0) } ?? .dropped("Larder's own state, not imported"))
                    }
                }))

        /// Maps `value`, or gives `nil` when it is not a current Larder recipe in its plain form.
        init?(_ value: Value, isLarderRecord: Bool) {
            guard case .object(let fields) = value else { return nil }
            var reader = Reader()
            var byRole: [Role: Field] = [:]
            for field in fields {
                guard let known = Self.members[field.key] else { return nil }
                let isEmpty = PlainRecipe.isEmpty(field.value)
                guard isEmpty == FieldCensus.isEmpty(field.value) else { return nil }
                if isEmpty { continue }
                guard let role = known else { return nil }
                let path = FieldPath.root.appending(field.key)
                switch role {
                case .larderFlag, .syncState:
                    guard (try? reader.readLarderState(field, at: path)) != nil else { return nil }
                default:
                    guard byRole[role] == nil else { return nil }
                    byRole[role] = field
                }
            }
            guard let titleField = byRole[.title], case .string(let titleText) = titleField.value,
                let title = try? PlainRecipe.text(.string(titleText), at: .root)
            else { return nil }
            reader.recipe.title = HTMLText.collapseWhitespace(title)
            for role in Role.allCases where role != .title {
                guard let field = byRole[role] else { continue }
                let path = FieldPath.root.appending(field.key)
                switch role {
                case .ingredients:
                    guard reader.readLarderIngredients(field.value) else { return nil }
                case .steps:
                    guard reader.readLarderSteps(field.value) else { return nil }
                default:
                    guard (try? reader.read(field.value, as: role, at: path, isLarderRecord: isLarderRecord)) != nil
                    else { return nil }
                }
            }
            // What was not carried: the flags and sync state, each with its reason (a value the
            // full path could not read would go to extras: that record takes the full path).
            var overrides: [String: FieldFate] = [:]
            var warnings: [String] = []
            for field in reader.unmapped {
                guard field.path.components.count == 1, case .key(let key)? = field.path.components.first,
                    let reason = field.reason, let role = Role(key: key), role == .larderFlag || role == .syncState
                else { return nil }
                overrides[key] = .dropped(reason)
                warnings.append("\(field.path): \(field.value.snippet) not imported: \(reason)")
            }
            var recipe = reader.recipe
            let (census, unread) = FieldCensus.take(of: fields, table: Self.table, overrides: overrides) {
                [recipe] in recipe.holds($0)
            }
            guard unread.isEmpty else { return nil }
            recipe.fieldCensus = census
            recipe.leafSource = LeafSource(fields: fields, format: .plain)
            self.recipe = recipe
            self.warnings = warnings
        }
    }
}

extension PlainRecipe.Reader {
    /// The members of a Larder ingredient.
    private static let larderIngredientKeys: Set<String> = ["quantity", "unit", "item", "note", "original"]

    /// Reads Larder's ingredients, each with its line (`original`), as ``readIngredients(_:at:heading:)``
    /// reads them; `false` when one is in another form.
    mutating func readLarderIngredients(_ value: Value) -> Bool {
        guard case .array(let items) = value else { return false }
        for item in items {
            guard case .object(let fields) = item, case .string(let original)? = fields["original"],
                let line = try? PlainRecipe.text(.string(original), at: .root)
            else { return false }
            for field in fields {
                guard Self.larderIngredientKeys.contains(field.key) else { return false }
                switch field.value {
                case .string, .int, .double, .null: continue
                default: return false
                }
            }
            // An object's line is never a heading; the group it names is none here.
            var heading: String?
            addIngredientLine(line, heading: &heading, isHeadingAllowed: false)
        }
        return true
    }

    /// Reads Larder's steps `{text, timerSeconds}` as ``readSteps(_:at:)`` reads them; `false` when
    /// one is in another form.
    mutating func readLarderSteps(_ value: Value) -> Bool {
        guard case .array(let items) = value else { return false }
        for item in items {
            guard case .object(let fields) = item, case .string(let raw)? = fields["text"],
                !PlainRecipe.isEmpty(.string(raw))
            else { return false }
            var timer: Int?
            for field in fields {
                switch (field.key, field.value) {
                case ("text", _), ("timerSeconds", .null): continue
                case ("timerSeconds", .int(let seconds)): timer = Int(exactly: seconds)
                default: return false
                }
            }
            // Without a `<`, `textBlock` reads no HTML: the text trimmed, as it does without
            // Foundation's search for `<` and `>` (a tenth of the steps' time).
            let block =
                raw.utf8.contains(0x3C) ? (try? textBlock(.string(raw), at: .root)) ?? nil : raw.trimmingWhitespace
            guard let block, !block.isEmpty else { return false }
            let text = Self.cleanStep(block)
            if !text.isEmpty { recipe.steps.append(.init(text: text, timerSeconds: timer)) }
        }
        return true
    }
}
