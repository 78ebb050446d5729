import LarderCore
import LarderFormats

extension ImportFormat {
    /// Saffron's text export: a zip of labelled `.txt` recipes (`Title:`, `Cookbook:`, `Section:`, …).
    package static let saffron = ImportFormat("saffron")
}

/// Saffron, as `larder import` detects and reads it.
struct SaffronPlugin: ImportPlugin {
    var format: ImportFormat { .saffron }

    var displayName: String { "Saffron" }

    var lookedFor: String {
        "labelled .txt recipes (Title:, Cookbook:, Ingredients:, Instructions:) in a zip, a folder or alone"
    }

    var reads: ImportInputKinds { [.archives, .folders] }

    var fileExtensions: [String] { [".txt"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard let text = try TextExportFiles.firstText(of: probe) else { return .none }
        return SaffronImporter.claims(text) ? .strong : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { SaffronImporter() }
}
