import LarderCore
import LarderFormats

extension ImportFormat {
    /// Paprika.
    package static let paprika = ImportFormat("paprika")
}

/// Paprika, as `larder import` detects and reads it.
struct PaprikaPlugin: ImportPlugin {
    var format: ImportFormat { .paprika }

    var displayName: String { "Paprika" }

    var lookedFor: String {
        "Paprika recipes (*.paprikarecipe gzip JSON entries, or a Paprika JSON object)"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".paprikarecipes", ".paprikarecipe"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            if probe.nameEnds(with: ".paprikarecipes", ".paprikarecipe") { return .certain }
            // Paprika's gzip JSON, unless the name says it is a compressed data file (`recipes.yaml.gz`).
            if probe.isGzip, DataFormat.guess(fromPath: probe.name) == nil { return .certain }
            guard let keys = probe.jsonKeys else { return .none }
            return keys.has("directions") && (keys.has("uid") || keys.has("photo_data")) && keys.has("name")
                ? .strong : .none
        case .archive: return probe.hasEntry { $0.name.hasSuffix(".paprikarecipe") } ? .certain : .none
        case .folder: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { PaprikaImporter() }
}
