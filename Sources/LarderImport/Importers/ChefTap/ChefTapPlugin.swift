import LarderCore
import LarderFormats

extension ImportFormat {
    /// ChefTap's text export: a zip of `cheftap_export/*.txt`, one recipe each, without labels.
    package static let cheftap = ImportFormat("cheftap")
}

/// ChefTap, as `larder import` detects and reads it.
struct ChefTapPlugin: ImportPlugin {
    var format: ImportFormat { .cheftap }

    var displayName: String { "ChefTap" }

    var lookedFor: String {
        ".txt recipes (a title line, ingredients, directions) in cheftap_export/, a folder or alone"
    }

    var reads: ImportInputKinds { [.archives, .folders] }

    var fileExtensions: [String] { [".txt"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file: return .none
        case .archive: return probe.hasEntry { ChefTapImporter.isInExportFolder($0.path) } ? .strong : .none
        case .folder:
            let isExport =
                ChefTapImporter.isInExportFolder(probe.name)
                || probe.hasEntry { ChefTapImporter.isInExportFolder($0.path) }
            return isExport ? .strong : .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { ChefTapImporter() }
}
