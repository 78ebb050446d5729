import LarderCore
import LarderFormats

extension ImportFormat {
    /// Nextcloud Cookbook.
    package static let nextcloud = ImportFormat("nextcloud")
}

/// Nextcloud Cookbook, as `larder import` detects and reads it.
struct NextcloudPlugin: ImportPlugin {
    var format: ImportFormat { .nextcloud }

    var displayName: String { "Nextcloud Cookbook" }

    var lookedFor: String {
        "recipe.json files in per-recipe folders"
    }

    var reads: ImportInputKinds { [.archives, .folders] }

    var fileExtensions: [String] { ["recipe.json"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file: return .none
        case .archive: return probe.hasEntry { $0.name == "recipe.json" } ? .likely : .none
        case .folder: return probe.hasEntry { $0.lowercasedPath.hasSuffix("recipe.json") } ? .strong : .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { NextcloudImporter() }
}
