import LarderCore
import LarderFormats

extension ImportFormat {
    /// Mealie.
    package static let mealie = ImportFormat("mealie")
}

/// Mealie, as `larder import` detects and reads it.
struct MealiePlugin: ImportPlugin {
    var format: ImportFormat { .mealie }

    var displayName: String { "Mealie" }

    var lookedFor: String {
        "recipes/<slug>/<slug>.json entries or a database.json"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".json"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            guard let keys = probe.jsonKeys else { return .none }
            let ingredients = keys.has("recipe_ingredient") || (keys.has("recipeIngredient") && keys.has("slug"))
            return ingredients && keys.has("name") ? .strong : .none
        case .archive:
            let isMealie = probe.hasEntry {
                $0.name == "database.json"
                    || ($0.lowercasedPath.contains("recipes/") && $0.name.hasSuffix(".json")
                        && !$0.name.hasPrefix("recipe"))
            }
            return isMealie ? .strong : .none
        case .folder: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { MealieImporter() }
}
