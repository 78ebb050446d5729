import LarderCore
import LarderFormats

extension ImportFormat {
    /// The Cookbook app's (CookBook recipe manager's) export: a zip of one `.html` page per recipe
    /// (schema.org markup), or in older versions of one `.yml` file per recipe.
    package static let cookbookapp = ImportFormat("cookbookapp")
}

/// Cookbook app, as `larder import` detects and reads it.
struct CookbookAppPlugin: ImportPlugin {
    var format: ImportFormat { .cookbookapp }

    var displayName: String { "Cookbook app" }

    var lookedFor: String {
        "a zip of .html pages with a schema.org Recipe (JSON-LD or microdata), or of .yml recipe files (name, ingredients, directions)"
    }

    var reads: ImportInputKinds { .archives }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard probe.kind == .archive else { return .none }
        // Its pages are web pages and its YAML files plain-looking recipes: a weak sign, asked of the
        // zip's first page and first YAML file.
        if let page = probe.firstEntry(where: { GourmetImporter.isRecipePage($0.name) }),
            CookbookAppImporter.claimsPage(try probe.head(of: page))
        {
            return .likely
        }
        if let file = probe.firstEntry(where: { CookbookAppImporter.isRecipeFile($0.name) }),
            CookbookAppImporter.claims(ContentKeys(yaml: try probe.text(of: file)))
        {
            return .likely
        }
        return .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CookbookAppImporter() }
}
