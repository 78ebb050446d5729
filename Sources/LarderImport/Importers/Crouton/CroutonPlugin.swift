import LarderCore
import LarderFormats

extension ImportFormat {
    /// Crouton's `.crumb` JSON files.
    package static let crouton = ImportFormat("crouton")
}

/// Crouton, as `larder import` detects and reads it.
struct CroutonPlugin: ImportPlugin {
    var format: ImportFormat { .crouton }

    var displayName: String { "Crouton" }

    var lookedFor: String {
        ".crumb JSON objects (a file, a zip or a folder of them)"
    }

    var reads: ImportInputKinds { [.archives, .folders] }

    var fileExtensions: [String] { [".crumb"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            if probe.nameEnds(with: ".crumb") { return .certain }
            guard let keys = probe.jsonKeys else { return .none }
            let isCrumb =
                keys.has("neutritionalInfo")
                || (keys.has("cookingDuration") && keys.has("ingredients") && keys.has("name"))
            return isCrumb ? .strong : .none
        case .archive, .folder: return probe.hasEntry { $0.name.hasSuffix(".crumb") } ? .strong : .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CroutonImporter() }
}
