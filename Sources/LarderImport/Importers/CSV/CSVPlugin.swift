import LarderCore
import LarderFormats

extension ImportFormat {
    /// Spreadsheet rows: CSV or TSV with a header line.
    package static let csv = ImportFormat("csv")
}

/// CSV, as `larder import` detects and reads it.
struct CSVPlugin: ImportPlugin {
    var format: ImportFormat { .csv }

    var displayName: String { "CSV" }

    var lookedFor: String {
        "a header line with a title column, then one recipe per row"
    }

    var reads: ImportInputKinds { .archives }

    var fileExtensions: [String] { [".csv", ".tsv"] }

    func claims(_ probe: ImportProbe) throws -> ImportConfidence {
        guard probe.kind == .file, probe.isPlainText else { return .none }
        return CSVImporter.claims(probe.text, name: probe.name, columns: probe.options.csvColumns) ? .likely : .none
    }

    func makeImporter(_ options: ImportOptions) -> any RecipeImporter { CSVImporter(columns: options.csvColumns) }
}
