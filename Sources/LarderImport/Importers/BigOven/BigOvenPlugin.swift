import LarderCore
import LarderFormats

extension ImportFormat {
    /// BigOven recipes: its API's recipe JSON (one, a list, or a `{"Results": […]}` envelope), or a
    /// CSV whose header uses the API's field names.
    package static let bigoven = ImportFormat("bigoven")
}

/// BigOven, as `larder import` detects and reads it.
struct BigOvenPlugin: ImportPlugin {
    var format: ImportFormat { .bigoven }

    var displayName: String { "BigOven" }

    var lookedFor: String {
        "BigOven recipe objects (Title, Ingredients, Instructions: one, a list, or a {\"Results\": [...]} envelope), or a CSV with BigOven's field names as headers"
    }

    var fileExtensions: [String] { [".json", ".csv"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        if let keys = probe.jsonKeys { return BigOvenImporter.claims(keys) ? .strong : .none }
        return CSVImporter.profile(of: probe)?.format == format ? .strong : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { BigOvenImporter() }
}
