import LarderCore

/// One format `larder import` reads, as its importer's folder declares it.
///
/// A format is one folder under `Importers/` holding its importer and a type conforming to this
/// protocol, registered by one line in ``ImportPlugins/all``. Detection (``ImportDetector``) asks
/// every registered plugin how sure it is that a file, an archive or a folder is its format, and
/// picks the surest; ties go to the plugin registered first.
package protocol ImportPlugin: Sendable {
    /// The format's name (`--from`, ids, the report).
    var format: ImportFormat { get }
    /// A human name for messages.
    var displayName: String { get }
    /// What the importer looks for in its input, for the error when it finds nothing.
    var lookedFor: String { get }
    /// What the importer reads: single files always; zip archives and whole folders when it says so.
    var reads: ImportInputKinds { get }
    /// The file name endings (lowercased, with the dot) of this format's files: with `--from`, a
    /// file in a folder or archive is read as this format when its name ends so or ``claims(_:)``
    /// claims it, and is listed as not read otherwise.
    var fileExtensions: [String] { get }
    /// How sure the plugin is that `probe` (a file, an archive or a folder) is its format.
    /// - Throws: ``LarderError`` `io-error` when a file it needs to look into cannot be read.
    func claims(_ probe: ImportProbe) throws -> ImportConfidence
    /// Why the file is not readable although it is recognisably this app's (another of its export
    /// formats that Larder does not read), or nil.
    func refusal(_ probe: ImportProbe) -> String?
    /// An importer for one run.
    func makeImporter(_ options: ImportOptions) -> any RecipeImporter
}

extension ImportPlugin {
    /// By default a plugin reads single files.
    package var reads: ImportInputKinds { [] }

    /// By default a plugin has no file name endings of its own.
    package var fileExtensions: [String] { [] }

    /// By default a plugin refuses nothing it recognises.
    package func refusal(_ probe: ImportProbe) -> String? { nil }

    /// Whether this plugin's importer reads `probe` as it is (a file always; an archive or a folder
    /// when ``reads`` says so).
    func readsWhole(_ probe: ImportProbe) -> Bool {
        switch probe.kind {
        case .file: true
        case .archive: reads.contains(.archives)
        case .folder: reads.contains(.folders)
        }
    }
}

/// The kinds of input an importer reads besides single files.
package struct ImportInputKinds: OptionSet, Sendable {
    /// The raw bits.
    package let rawValue: Int

    /// Creates kinds from their bits.
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// Zip archives (an app's export zip), read entry by entry by the importer.
    package static let archives = ImportInputKinds(rawValue: 1)
    /// Whole folders (an app's export spread over several files), read as one export.
    package static let folders = ImportInputKinds(rawValue: 2)
}

/// How sure a plugin is that an input is its format; detection picks the highest.
package struct ImportConfidence: Comparable, Sendable, CustomStringConvertible {
    /// The level (higher is surer).
    package let level: Int

    /// Not this format.
    package static let none = ImportConfidence(level: 0)
    /// Readable as this format, as a last resort (plain recipe files).
    package static let fallback = ImportConfidence(level: 25)
    /// Content many formats share, which this one reads (a schema.org page, a CSV with a title column).
    package static let likely = ImportConfidence(level: 50)
    /// This app's distinctive content (its keys, labels, markers or entry names).
    package static let strong = ImportConfidence(level: 75)
    /// A file name ending or archive entry only this app writes, or content no other format has.
    package static let certain = ImportConfidence(level: 100)

    package static func < (lhs: ImportConfidence, rhs: ImportConfidence) -> Bool { lhs.level < rhs.level }

    package var description: String {
        switch level {
        case 0: "none"
        case 25: "fallback"
        case 50: "likely"
        case 75: "strong"
        case 100: "certain"
        default: "level \(level)"
        }
    }
}

/// The options of one import that reach detection and the importers.
public struct ImportOptions: Sendable {
    /// CSV columns for recipe fields by header name (`--map`), overriding the automatic mapping;
    /// when given, a `.csv` file is CSV by its name alone and no app profile is detected.
    public var csvColumns: [CSVColumn: String]

    /// Creates options.
    public init(csvColumns: [CSVColumn: String] = [:]) {
        self.csvColumns = csvColumns
    }
}
