import LarderCore

/// The member census of a Mealie recipe's structured fields (see ``MemberCensus``): which member
/// of an ingredient, a step, a tag, a note or a comment the importer read, and which it keeps in
/// `extras.mealie` under its path (`recipeIngredient[2/9].referenceId`,
/// `recipeIngredient[0/9].unit`, `tags[1/3].id`).
///
/// Mealie's ids and details (an ingredient's `referenceId` and unit and food objects, a step's
/// `id` and ingredient references, a tag's `id` and `slug`) are kept: an export back to Mealie
/// puts them in place where the exported record has the same shape (a list of the same length).
/// A comment's id, author id and dates are kept too; Mealie exports carry no comments, so they are
/// written under their paths.
extension MealieImporter {
    /// The fields whose members are counted one by one.
    static let structuredFields: Set<String> = [
        "recipeIngredient", "recipe_ingredient", "recipeInstructions", "recipe_instructions", "recipeCategory",
        "recipe_category", "tags", "tools", "notes", "comments", "nutrition",
    ]

    /// The member census of a recipe this importer read.
    static func memberCensus() -> MemberCensus {
        MemberCensus { root, keys, value, _ in memberFate(root: root, keys: keys, value: value) }
    }

    private static func memberFate(root: String, keys: [String], value: Value) -> MemberFate {
        guard let key = keys.first else { return .fate(.extras) }
        let nested = keys.count > 1
        switch root {
        case "recipeIngredient", "recipe_ingredient":
            // A unit or food object (id, name, abbreviation, label…) is kept whole: its name is in
            // the line, and the export puts the object back in place of its `null`.
            if ["unit", "food"].contains(key), value.objectValue != nil { return .fate(.extras) }
            if nested { return .fate(.extras) }
            switch key {
            case "title": return .fate(.carried("ingredients.group"))
            // The line as written, or what it is made of; the flags say which was read.
            case "note", "originalText", "original_text", "display", "quantity", "unit", "food", "disableAmount",
                "disable_amount", "isFood", "is_food":
                return .fate(.carried("ingredients"))
            default: return .fate(.extras)
            }
        case "recipeInstructions", "recipe_instructions":
            return .fate(!nested && ["title", "text"].contains(key) ? .carried("instructions") : .extras)
        case "recipeCategory", "recipe_category", "tags", "tools":
            let target = root == "tags" ? "tags" : root == "tools" ? "tools" : "categories"
            return .fate(!nested && key == "name" ? .carried(target) : .extras)
        case "notes":
            return .fate(!nested && ["title", "text"].contains(key) ? .carried("notes") : .extras)
        case "comments":
            if key == "user", !nested, value.objectValue != nil { return .walk }
            if key == "text", !nested { return .fate(.carried("reviews")) }
            // The commenter's name heads the review's text.
            if key == "user", ["username", "fullName"].contains(keys.last ?? "") { return .fate(.carried("reviews")) }
            return .fate(.extras)
        case "nutrition":
            return .fate(!nested ? .carried("nutrition") : .extras)
        default:
            return .fate(.extras)
        }
    }
}
