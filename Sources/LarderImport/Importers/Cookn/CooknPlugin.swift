import LarderCore
import LarderFormats

extension ImportFormat {
    /// A Cook'n cookbook export: a zip of `temp_*.dsv` tables and photos.
    package static let cookn = ImportFormat("cookn")
}

/// Cook'n, as `larder import` detects and reads it.
struct CooknPlugin: ImportPlugin {
    var format: ImportFormat { .cookn }

    var displayName: String { "Cook'n" }

    var lookedFor: String {
        "temp_recipe.dsv and the other temp_*.dsv tables of a Cook'n export zip"
    }

    var reads: ImportInputKinds { .archives }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard probe.kind == .archive else { return .none }
        if probe.hasEntry(where: { $0.name == CooknImporter.recipeTable }) { return .certain }
        // Several cookbooks zipped together: a zip of zips, the first holding the recipe table.
        guard let inner = probe.firstEntry(where: { $0.name.hasSuffix(".zip") }) else { return .none }
        let holdsCookbook = try probe.withExtracted(inner) { path in
            try ImportProbe(archive: path, options: probe.options).hasEntry { $0.name == CooknImporter.recipeTable }
        }
        return holdsCookbook ? .certain : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CooknImporter() }
}
