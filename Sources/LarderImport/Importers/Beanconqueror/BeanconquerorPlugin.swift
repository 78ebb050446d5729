import LarderCore
import LarderFormats

extension ImportFormat {
    /// Beanconqueror's backup: its JSON, or the zip the app writes.
    package static let beanconqueror = ImportFormat("beanconqueror")
}

/// Beanconqueror, as `larder import` detects and reads it.
struct BeanconquerorPlugin: ImportPlugin {
    var format: ImportFormat { .beanconqueror }

    var displayName: String { "Beanconqueror" }

    var lookedFor: String {
        "brews in Beanconqueror.json and its Beanconqueror_Brews_N.json chunks"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".json"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            guard let keys = probe.jsonKeys else { return .none }
            return keys.has("BREWS") || keys.has("BEANS") || keys.has("MILL") ? .certain : .none
        case .archive:
            return probe.hasEntry { $0.name.hasPrefix("beanconqueror") && $0.name.hasSuffix(".json") }
                ? .certain : .none
        case .folder: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { BeanconquerorImporter() }
}
