import LarderCore
import LarderFormats

extension ImportFormat {
    /// Cookmate's (My CookBook's) export: an `.mcb` zip of a `<cookbook>` XML file and `images/`.
    package static let cookmate = ImportFormat("cookmate")
}

/// Cookmate, as `larder import` detects and reads it.
struct CookmatePlugin: ImportPlugin {
    var format: ImportFormat { .cookmate }

    var displayName: String { "Cookmate" }

    var lookedFor: String {
        "<recipe> elements of a <cookbook> (an .mcb zip of the cookbook .xml and images/, or the .xml alone)"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".mcb", ".xml"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            guard let keys = probe.xmlKeys, !probe.isWebPage else { return .none }
            return CookmateImporter.claims(keys) ? .strong : .none
        case .archive:
            for entry in probe.entries where RezeptsuiteImporter.isCookML(entry.path) {
                if CookmateImporter.claims(ContentKeys(xml: try probe.text(of: entry).lowercased())) { return .certain }
            }
            return .none
        case .folder: return .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CookmateImporter() }
}
