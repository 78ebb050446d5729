import LarderCore
import LarderFormats

extension ImportFormat {
    /// An OpenEats database dump (Django `dumpdata` JSON).
    package static let openeats = ImportFormat("openeats")
}

/// OpenEats, as `larder import` detects and reads it.
struct OpenEatsPlugin: ImportPlugin {
    var format: ImportFormat { .openeats }

    var displayName: String { "OpenEats" }

    var lookedFor: String {
        "recipe.recipe rows in a JSON list of {model, pk, fields}"
    }

    var reads: ImportInputKinds { .folders }

    var fileExtensions: [String] { [".json"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            guard let keys = probe.jsonKeys else { return .none }
            return keys.has("model") && keys.has("pk") && keys.has("fields") && keys.has("directions") ? .strong : .none
        case .folder:
            // A dump split into recipe, ingredient, course and cuisine files (Django's dumpdata per
            // app): the files are read together, as one dump.
            return OpenEatsImporter.dumpFiles(in: probe.path).contains(where: OpenEatsImporter.holdsRecipes)
                ? .likely : .none
        case .archive: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { OpenEatsImporter() }
}
