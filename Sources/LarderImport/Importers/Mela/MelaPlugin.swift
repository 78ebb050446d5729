import LarderCore
import LarderFormats

extension ImportFormat {
    /// Mela.
    package static let mela = ImportFormat("mela")
}

/// Mela, as `larder import` detects and reads it.
struct MelaPlugin: ImportPlugin {
    var format: ImportFormat { .mela }

    var displayName: String { "Mela" }

    var lookedFor: String {
        "Mela recipes (*.melarecipe JSON entries)"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".melarecipes", ".melarecipe"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            if probe.nameEnds(with: ".melarecipes", ".melarecipe") { return .certain }
            guard let keys = probe.jsonKeys else { return .none }
            let isMela = keys.has("wantToCook") || (keys.has("instructions") && keys.has("link") && keys.has("yield"))
            return isMela && keys.has("title") ? .strong : .none
        case .archive: return probe.hasEntry { $0.name.hasSuffix(".melarecipe") } ? .certain : .none
        case .folder: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { MelaImporter() }
}
