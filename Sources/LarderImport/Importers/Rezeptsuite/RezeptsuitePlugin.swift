import LarderCore
import LarderFormats

extension ImportFormat {
    /// Rezeptsuite.de's CookML export (`<cookml>` XML, `.xml` or `.cml`, alone or zipped).
    package static let rezeptsuite = ImportFormat("rezeptsuite")
}

/// Rezeptsuite.de, as `larder import` detects and reads it.
struct RezeptsuitePlugin: ImportPlugin {
    var format: ImportFormat { .rezeptsuite }

    var displayName: String { "Rezeptsuite.de" }

    var lookedFor: String {
        "CookML <recipe> elements (<head title=…>, <part>, <preparation>) in .xml or .cml files"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".cml", ".xml"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            guard let keys = probe.xmlKeys, !probe.isWebPage else { return .none }
            return RezeptsuiteImporter.claims(keys) ? .strong : .none
        case .archive:
            for entry in probe.entries where RezeptsuiteImporter.isCookML(entry.path) {
                let keys = ContentKeys(xml: try probe.text(of: entry).lowercased())
                if !CookmateImporter.claims(keys), RezeptsuiteImporter.claims(keys) { return .certain }
            }
            return .none
        case .folder: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { RezeptsuiteImporter() }
}
