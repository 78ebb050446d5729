import LarderCore
import LarderFormats

extension ImportFormat {
    /// Domestica's JSON export (an array of recipes with `timePrep`/`timeCook`).
    package static let domestica = ImportFormat("domestica")
}

/// Domestica, as `larder import` detects and reads it.
struct DomesticaPlugin: ImportPlugin {
    var format: ImportFormat { .domestica }

    var displayName: String { "Domestica" }

    var lookedFor: String {
        "a JSON array of recipes with name, timePrep or timeCook, and directions or ingredients"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".json"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        probe.jsonKeys.map(DomesticaImporter.claims) == true ? .strong : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { DomesticaImporter() }
}
