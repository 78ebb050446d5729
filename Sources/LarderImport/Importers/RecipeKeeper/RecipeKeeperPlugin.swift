import LarderCore
import LarderFormats

extension ImportFormat {
    /// Recipe Keeper's HTML export (a zip of `recipes.html` and `images/`).
    package static let recipekeeper = ImportFormat("recipekeeper")
}

/// Recipe Keeper, as `larder import` detects and reads it.
struct RecipeKeeperPlugin: ImportPlugin {
    var format: ImportFormat { .recipekeeper }

    var displayName: String { "Recipe Keeper" }

    var lookedFor: String {
        "div.recipe-details cards in recipes.html (in the zip or alone)"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".html", ".htm"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard let page = try HTMLExportMarkup.page(of: probe) else { return .none }
        return page.contains("recipe-details") && page.has("itemprop", "recipeIngredients") ? .certain : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { RecipeKeeperImporter() }
}
