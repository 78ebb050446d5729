import LarderCore
import LarderFormats

extension ImportFormat {
    /// Recipe JSON, YAML or XML as people write it by hand or export it from scripts.
    package static let plain = ImportFormat("plain")
}

/// plain recipe file, as `larder import` detects and reads it.
struct PlainPlugin: ImportPlugin {
    var format: ImportFormat { .plain }

    var displayName: String { "plain recipe file" }

    var lookedFor: String {
        "recipes with a title: a JSON object, array, envelope or NDJSON lines, YAML documents, or <recipe> elements"
    }

    var fileExtensions: [String] { [".json", ".ndjson", ".yaml", ".yml", ".xml"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard probe.kind == .file else { return .none }
        if let keys = probe.xmlKeys {
            return !probe.isWebPage && keys.has("recipe") && keys.claimsPlainRecipes ? .fallback : .none
        }
        let keys = probe.jsonKeys ?? probe.yamlKeys
        return keys?.claimsPlainRecipes == true ? .fallback : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { PlainRecipeImporter() }
}
