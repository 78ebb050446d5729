import LarderCore
import LarderFormats

extension ImportFormat {
    /// Plan to Eat's CSV export.
    package static let plantoeat = ImportFormat("plantoeat")
}

/// Plan to Eat's CSV export, read by the CSV importer with its profile.
struct PlanToEatPlugin: ImportPlugin {
    var format: ImportFormat { .plantoeat }

    var displayName: String { "Plan to Eat" }

    var lookedFor: String {
        "Plan to Eat's header line (Title, …, Main Ingredient, …, Url Host, …), then one recipe per row"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".csv"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        CSVImporter.profile(of: probe)?.format == format ? .strong : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CSVImporter(profile: .planToEat) }
}
