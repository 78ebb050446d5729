import LarderCore
import LarderFormats

extension ImportFormat {
    /// RecipeSage's JSON-LD export (schema.org Recipes with `creditText`, `isBasedOn`, `comment`).
    package static let recipesage = ImportFormat("recipesage")
}

/// RecipeSage, as `larder import` detects and reads it.
struct RecipeSagePlugin: ImportPlugin {
    var format: ImportFormat { .recipesage }

    var displayName: String { "RecipeSage" }

    var lookedFor: String {
        "schema.org Recipe objects in a JSON array or a {\"recipes\": [...]} document"
    }

    var fileExtensions: [String] { [".json", ".jsonld"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard let keys = probe.jsonKeys else { return .none }
        // RecipeSage writes `creditText` and `isBasedOn` on every recipe, even when they are empty.
        guard keys.has("@type") && keys.has("creditText") && keys.has("isBasedOn") && keys.has("name") else {
            return .none
        }
        // Saved as `.jsonld`, it is still RecipeSage's (before schema.org, which claims the name).
        return probe.nameEnds(with: ".jsonld") ? .certain : .strong
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { RecipeSageImporter() }
}
