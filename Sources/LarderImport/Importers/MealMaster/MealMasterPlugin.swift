import LarderCore
import LarderFormats

extension ImportFormat {
    /// MealMaster text files (`MMMMM----- Recipe via Meal-Master`).
    package static let mealmaster = ImportFormat("mealmaster")
}

/// MealMaster, as `larder import` detects and reads it.
struct MealMasterPlugin: ImportPlugin {
    var format: ImportFormat { .mealmaster }

    var displayName: String { "MealMaster" }

    var lookedFor: String {
        "recipes framed by a `MMMMM----- Recipe via Meal-Master` (or `-----`, or RezKonv's `=====`) line and an end line, or unframed recipes each starting at a `Title:` line"
    }

    var fileExtensions: [String] { [".mmf", ".mm", ".mxp", ".mmt"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard probe.kind == .file, probe.isPlainText else { return .none }
        if MealMasterImporter.claims(probe.text) { return .strong }
        // Pepperplate's and Saffron's labels are more specific than an unframed MealMaster `Title:`.
        return MealMasterImporter.claimsUnframed(probe.text) ? .likely : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { MealMasterImporter() }
}
