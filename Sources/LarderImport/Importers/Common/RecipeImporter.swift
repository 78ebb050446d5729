package import LarderCore

/// Where an imported item came from: the input file, the archive entry inside it (if any)
/// and the item's position, for ids, diagnostics and the rejects file.
package struct ImportOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The input file or folder as given.
    package var file: String
    /// The path of the entry inside an archive or folder.
    package var entry: String?
    /// The item's 0-based position inside the file or entry, when it holds several.
    package var index: Int?

    /// Creates an origin.
    package init(file: String, entry: String? = nil, index: Int? = nil) {
        self.file = file
        self.entry = entry
        self.index = index
    }

    /// The origin as file, `!` entry and `#` index, such as `export.zip!Beanconqueror.json#3`.
    package var description: String {
        var text = file
        if let entry { text += "!" + entry }
        if let index { text += "#\(index)" }
        return text
    }

    /// What identifies the item within its source independently of where the file lives:
    /// the entry path (or the file's name) and index.
    package var stableKey: String {
        let base = entry ?? String(file.split(separator: "/").last ?? Substring(file))
        return index.map { "\(base)#\($0)" } ?? base
    }

    /// The origin one entry deeper.
    package func entry(_ path: String) -> ImportOrigin {
        ImportOrigin(file: file, entry: entry.map { "\($0)!\(path)" } ?? path, index: nil)
    }

    /// The origin of the `index`th item.
    package func item(_ index: Int) -> ImportOrigin {
        ImportOrigin(file: file, entry: entry, index: index)
    }

    /// A location for diagnostics at `path` inside the item.
    package func location(_ path: FieldPath? = nil) -> SourceLocation {
        SourceLocation(file: entry.map { "\(file)!\($0)" } ?? file, recordIndex: index, fieldPath: path)
    }
}

/// Reads one foreign format.
package protocol RecipeImporter {
    /// The format this importer reads.
    var format: ImportFormat { get }
    /// Reads the file or folder at `path`, streaming the records it finds into
    /// `context.records` and what it could not read into `context.diagnostics`.
    ///
    /// Problems with single items go to ``ImportContext/reject(_:origin:raw:)`` and reading goes
    /// on; only a file that cannot be read at all throws.
    /// - Throws: ``LarderError``: `io-error` when the input cannot be read, `syntax-error` or
    ///   `refused-input` when it is not readable as a whole.
    func importItems(at path: String, context: ImportContext) throws
}
