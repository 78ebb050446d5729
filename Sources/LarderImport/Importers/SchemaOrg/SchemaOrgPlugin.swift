import LarderCore
import LarderFormats

extension ImportFormat {
    /// schema.org JSON-LD.
    package static let schemaorg = ImportFormat("schemaorg")
}

/// schema.org JSON-LD, as `larder import` detects and reads it.
struct SchemaOrgPlugin: ImportPlugin {
    var format: ImportFormat { .schemaorg }

    var displayName: String { "schema.org JSON-LD" }

    var lookedFor: String {
        "a schema.org Recipe (JSON-LD; in an HTML page also microdata, RDFa, a recipe-plugin card or headed ingredient lists)"
    }

    var fileExtensions: [String] { [".html", ".htm", ".jsonld", ".json"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard probe.kind == .file else { return .none }
        // `.html` and `.htm` pages go here unless an app's export claims them, and so do `.jsonld` files.
        if probe.nameEnds(with: ".jsonld", ".html", ".htm") { return .certain }
        if probe.isWebPage { return .likely }
        guard let keys = probe.jsonKeys else { return .none }
        return keys.has("@context") || keys.has("@type") ? .likely : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { SchemaOrgImporter() }
}
