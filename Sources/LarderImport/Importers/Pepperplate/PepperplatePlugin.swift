import LarderCore
import LarderFormats

extension ImportFormat {
    /// Pepperplate's export: a zip of labelled `.txt` recipes (`Title:`, `Ingredients:`, …).
    package static let pepperplate = ImportFormat("pepperplate")
}

/// Pepperplate, as `larder import` detects and reads it.
struct PepperplatePlugin: ImportPlugin {
    var format: ImportFormat { .pepperplate }

    var displayName: String { "Pepperplate" }

    var lookedFor: String {
        "labelled .txt recipes (Title:, Ingredients:, Instructions:) in a zip, a folder or alone"
    }

    var reads: ImportInputKinds { [.archives, .folders] }

    var fileExtensions: [String] { [".txt"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard let text = try TextExportFiles.firstText(of: probe) else { return .none }
        return PepperplateImporter.claims(text) ? .strong : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { PepperplateImporter() }
}
