import LarderCore
import LarderFormats

extension ImportFormat {
    /// Tandoor.
    package static let tandoor = ImportFormat("tandoor")
}

/// Tandoor, as `larder import` detects and reads it.
struct TandoorPlugin: ImportPlugin {
    var format: ImportFormat { .tandoor }

    var displayName: String { "Tandoor" }

    var lookedFor: String {
        "recipe.json in the archive or in zips nested in it (up to \(TandoorImporter.maxNesting) levels deep)"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".zip"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            guard let keys = probe.jsonKeys else { return .none }
            let times = keys.has("working_time") || keys.has("waiting_time")
            return keys.has("steps") && times && keys.has("name") ? .strong : .none
        case .archive:
            // A zip of zips, one per recipe (a Cook'n bundle of cookbooks is claimed surer by Cook'n).
            return probe.hasEntry { $0.name.hasSuffix(".zip") } ? .strong : .none
        case .folder: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { TandoorImporter() }
}
