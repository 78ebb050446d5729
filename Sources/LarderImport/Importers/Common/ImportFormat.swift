import Foundation
import LarderCore
import LarderFormats

/// A foreign format `larder import` reads, by its name (`--from`, ids, the report).
///
/// The formats are those of the registered plugins (`ImportPlugins.all`), each declared in its
/// importer's folder (`ImportFormat.paprika` in `Importers/Paprika/`).
public struct ImportFormat: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name, as `--from` takes it.
    public let rawValue: String

    /// The format of a registered plugin, or `auto`; nil for any other name.
    public init?(rawValue: String) {
        guard rawValue == "auto" || ImportPlugins.named[rawValue] != nil else { return nil }
        self.rawValue = rawValue
    }

    /// A format's name, for its plugin's declaration.
    package init(_ name: String) {
        rawValue = name
    }

    /// Not a format: detect each input's format (`--from auto`, the default).
    public static let auto = ImportFormat("auto")

    /// Every format Larder reads, in registration order.
    public static var all: [ImportFormat] { ImportPlugins.all.map(\.format) }

    /// The format's name.
    public var description: String { rawValue }

    public static func < (lhs: ImportFormat, rhs: ImportFormat) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The plugin registered for this format.
    package var plugin: any ImportPlugin {
        guard let plugin = ImportPlugins.named[rawValue] else {
            preconditionFailure("no import plugin is registered for \"\(rawValue)\"")
        }
        return plugin
    }

    /// A human name for messages.
    public var displayName: String { self == .auto ? "auto" : plugin.displayName }

    /// What an importer of this format looks for in its input, for the error when it finds nothing.
    public var lookedFor: String { plugin.lookedFor }

    /// The importer for this format, for one run with `options`.
    package func makeImporter(_ options: ImportOptions = ImportOptions()) -> any RecipeImporter {
        plugin.makeImporter(options)
    }

    /// The format detection picks for the file or folder at `path` (see ``ImportDetector``).
    /// - Throws: ``LarderError`` `usage-error` when the format cannot be recognised (pass
    ///   `--from`), `io-error` when the path cannot be read.
    package static func detect(path: String, options: ImportOptions = ImportOptions()) throws -> ImportFormat {
        try ImportDetector.detect(path: path, options: options)
    }
}
