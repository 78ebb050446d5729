import LarderCore
import LarderFormats

extension ImportFormat {
    /// Open Recipe Format.
    package static let orf = ImportFormat("orf")
}

/// Open Recipe Format, as `larder import` detects and reads it.
struct ORFPlugin: ImportPlugin {
    var format: ImportFormat { .orf }

    var displayName: String { "Open Recipe Format" }

    var lookedFor: String {
        "Open Recipe Format YAML documents"
    }

    var fileExtensions: [String] { [".yaml", ".yml"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        probe.yamlKeys?.has("recipe_name") == true ? .strong : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { ORFImporter() }
}
