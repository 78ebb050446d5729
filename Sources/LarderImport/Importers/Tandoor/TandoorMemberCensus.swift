import LarderCore

/// The member census of a Tandoor recipe's structured fields (see ``MemberCensus``): which member
/// of a step, an ingredient, its food and unit, a keyword or the nutrition the importer read, and
/// which it keeps in `extras.tandoor` under its path (`steps[0/2].ingredients[3/8].food.plural_name`,
/// `keywords[1/4].id`).
///
/// A Tandoor export puts a kept member back in place where the exported record has the same shape
/// and wrote nothing there; the export holds every ingredient in the first step, so a member of a
/// recipe whose ingredients were spread over several steps is written under its path.
extension TandoorImporter {
    /// The fields whose members are counted one by one.
    static let structuredFields: Set<String> = ["steps", "keywords", "nutrition"]

    /// The member census of a recipe this importer read.
    static func memberCensus() -> MemberCensus {
        MemberCensus { root, keys, value, _ in memberFate(root: root, keys: keys, value: value) }
    }

    private static func memberFate(root: String, keys: [String], value: Value) -> MemberFate {
        guard let key = keys.last else { return .fate(.extras) }
        switch root {
        case "steps":
            switch keys.count {
            case 1:
                switch key {
                case "ingredients": return .walk
                case "name", "instruction", "time", "order": return .fate(.carried("instructions"))
                default: return .fate(.extras)
                }
            case 2:
                switch key {
                case "food", "unit": return value.objectValue != nil ? .walk : .fate(.carried("ingredients"))
                case "amount", "note", "original_text", "is_header", "no_amount", "order":
                    return .fate(.carried("ingredients"))
                default: return .fate(.extras)
                }
            default:
                // A food's or unit's name is in the line; its other members are kept.
                return .fate(keys.count == 3 && key == "name" ? .carried("ingredients") : .extras)
            }
        case "keywords":
            return .fate(keys.count == 1 && key == "name" ? .carried("tags") : .extras)
        case "nutrition":
            return .fate(keys.count == 1 && !key.hasPrefix("@") && key != "id" ? .carried("nutrition") : .extras)
        default:
            return .fate(.extras)
        }
    }
}
