import LarderCore
import LarderFormats

extension ImportFormat {
    /// MyRecipeBox's CSV export.
    package static let myrecipebox = ImportFormat("myrecipebox")
}

/// MyRecipeBox's CSV export, read by the CSV importer with its profile.
struct MyRecipeBoxPlugin: ImportPlugin {
    var format: ImportFormat { .myrecipebox }

    var displayName: String { "MyRecipeBox" }

    var lookedFor: String {
        "MyRecipeBox's header line (title, preparationTime, cookingTime, …), then one recipe per row"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".csv"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        CSVImporter.profile(of: probe)?.format == format ? .strong : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CSVImporter(profile: .myRecipeBox) }
}
