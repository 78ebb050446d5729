import LarderCore
import LarderFormats

extension ImportFormat {
    /// Chowdown (Jekyll) recipe pages: Markdown with YAML front matter, in a site folder or zip.
    package static let chowdown = ImportFormat("chowdown")
}

/// Chowdown, as `larder import` detects and reads it.
struct ChowdownPlugin: ImportPlugin {
    var format: ImportFormat { .chowdown }

    var displayName: String { "Chowdown" }

    var lookedFor: String {
        "Markdown files with YAML front matter (_recipes/*.md in a Chowdown site)"
    }

    var reads: ImportInputKinds { [.archives, .folders] }

    var fileExtensions: [String] { [".md", ".markdown"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file: return probe.isPlainText && ChowdownImporter.claims(probe.text, name: probe.name) ? .certain : .none
        case .archive, .folder: return probe.hasEntry { ChowdownImporter.isSiteRecipe($0.path) } ? .strong : .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { ChowdownImporter() }
}
