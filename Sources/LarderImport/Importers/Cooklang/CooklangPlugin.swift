import LarderCore
import LarderFormats

extension ImportFormat {
    /// Cooklang.
    package static let cooklang = ImportFormat("cooklang")
}

/// Cooklang, as `larder import` detects and reads it.
struct CooklangPlugin: ImportPlugin {
    var format: ImportFormat { .cooklang }

    var displayName: String { "Cooklang" }

    var lookedFor: String {
        "*.cook files"
    }

    var reads: ImportInputKinds { [.archives, .folders] }

    var fileExtensions: [String] { [".cook"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file: return probe.nameEnds(with: ".cook") ? .certain : .none
        case .archive, .folder: return probe.hasEntry { $0.name.hasSuffix(".cook") } ? .strong : .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CooklangImporter() }
}
