import LarderCore
import LarderFormats

extension ImportFormat {
    /// RecipeML.
    package static let recipeml = ImportFormat("recipeml")
}

/// RecipeML, as `larder import` detects and reads it.
struct RecipeMLPlugin: ImportPlugin {
    var format: ImportFormat { .recipeml }

    var displayName: String { "RecipeML" }

    var lookedFor: String {
        "<recipe> elements"
    }

    var fileExtensions: [String] { [".xml", ".rml"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard let keys = probe.xmlKeys, !probe.isWebPage else { return .none }
        return keys.has("recipeml") || (keys.has("recipe") && keys.has("head")) ? .strong : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { RecipeMLImporter() }
}
