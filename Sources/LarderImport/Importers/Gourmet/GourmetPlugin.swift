import LarderCore
import LarderFormats

extension ImportFormat {
    /// Gourmet Recipe Manager's HTML export: a folder (zipped) of `.htm` pages with `div.recipe`.
    package static let gourmet = ImportFormat("gourmet")
}

/// Gourmet, as `larder import` detects and reads it.
struct GourmetPlugin: ImportPlugin {
    var format: ImportFormat { .gourmet }

    var displayName: String { "Gourmet" }

    var lookedFor: String {
        "div.recipe pages (.htm) of Gourmet's HTML export (in the zip or alone)"
    }

    var reads: ImportInputKinds { [.archives, .folders] }

    var fileExtensions: [String] { [".htm", ".html"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        switch probe.kind {
        case .file:
            guard probe.nameEnds(with: ".html", ".htm") else { return .none }
            return Self.isExportPage(HTMLExportMarkup(probe.head)) ? .certain : .none
        case .archive, .folder:
            if let page = try HTMLExportMarkup.page(of: probe), Self.isExportPage(page) { return .certain }
            // The first recipe page (by name in a folder, in order in a zip) decides.
            let pages = probe.entries.filter { GourmetImporter.isRecipePage($0.name) }
            guard let first = probe.kind == .folder ? pages.min(by: { $0.path < $1.path }) : pages.first else {
                return .none
            }
            return Self.isExportPage(HTMLExportMarkup(try probe.head(of: first))) ? .strong : .none
        }
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { GourmetImporter() }

    /// Whether a page is Gourmet's: a `recipe` div with its `header` div.
    static func isExportPage(_ page: HTMLExportMarkup) -> Bool {
        page.contains("<div class=\"recipe\"") && page.contains("<div class='header'>")
    }

    func refusal(_ probe: ImportProbe) -> String? {
        // Gourmet's own XML (`.grmt`) would read as a plain recipe file and fail on its ingredient
        // elements: say what it is and what Larder reads of Gourmet instead.
        guard probe.kind == .file,
            String(decoding: probe.head.prefix(4096), as: UTF8.self).lowercased().contains("<gourmetdoc")
        else { return nil }
        return "this is Gourmet Recipe Manager's XML export (.grmt), which Larder does not read; export from "
            + "Gourmet as web pages (File → Export → HTML) and import that folder or zip"
    }
}
