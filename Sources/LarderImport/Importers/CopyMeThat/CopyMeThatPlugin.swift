import LarderCore
import LarderFormats

extension ImportFormat {
    /// CopyMeThat's HTML export (a zip of `recipes.html` and `images/`).
    package static let copymethat = ImportFormat("copymethat")
}

/// CopyMeThat, as `larder import` detects and reads it.
struct CopyMeThatPlugin: ImportPlugin {
    var format: ImportFormat { .copymethat }

    var displayName: String { "CopyMeThat" }

    var lookedFor: String {
        "div.recipe cards in recipes.html (in the zip or alone)"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".html", ".htm"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard let page = try HTMLExportMarkup.page(of: probe) else { return .none }
        return page.has("id", "recipeIngredients") && page.has("class", "recipe") ? .certain : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CopyMeThatImporter() }
}
