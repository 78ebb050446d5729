import LarderCore
import LarderFormats

extension ImportFormat {
    /// RecetteTek's (My Recipe Box's) backup: an `.rtk` zip of `recipes.json` and the photos.
    package static let recettetek = ImportFormat("recettetek")
}

/// RecetteTek, as `larder import` detects and reads it.
struct RecetteTekPlugin: ImportPlugin {
    var format: ImportFormat { .recettetek }

    var displayName: String { "RecetteTek" }

    var lookedFor: String {
        "a JSON array of recipes with title, preparationTime, cookingTime and instructions (recipes.json in an .rtk zip, or alone)"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".rtk"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            return probe.jsonKeys.map(RecetteTekImporter.claims) == true ? .strong : .none
        case .archive:
            for entry in probe.entries where RecetteTekImporter.isRecipeList(entry.path) {
                if RecetteTekImporter.claims(ContentKeys(json: try probe.text(of: entry))) { return .certain }
            }
            return .none
        case .folder: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { RecetteTekImporter() }
}
