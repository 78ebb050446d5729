package import LarderCore
package import LarderFormats

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

/// Receives what an importer finds, item by item, as it streams through its input.
package protocol ImportSink: AnyObject {
    /// A recipe was read.
    func recipe(_ recipe: ImportedRecipe, origin: ImportOrigin) throws
    /// A brew recipe was read (its id already derived by the importer).
    func brewRecipe(_ recipe: BrewRecipe, origin: ImportOrigin) throws
    /// A brew log was read (its id already derived by the importer).
    func brewLog(_ log: BrewLog, origin: ImportOrigin) throws
    /// An item could not be read; `raw` is its source value when there was one.
    func reject(_ error: LarderError, origin: ImportOrigin, raw: Value?) throws
    /// Something was read but not cleanly (an encoding fallback, an unknown field).
    func warn(_ message: String, origin: ImportOrigin)
    /// The limits importers apply while they read (one record's size above all).
    var readerLimits: ReaderLimits { get }
    /// The field census of the brew record sent next (recipes carry theirs in
    /// ``ImportedRecipe/fieldCensus``).
    func census(_ census: FieldCensus, format: ImportFormat, origin: ImportOrigin)
}

extension ImportSink {
    /// The default limits.
    package var readerLimits: ReaderLimits { .default }

    /// By default the census is not counted.
    package func census(_ census: FieldCensus, format: ImportFormat, origin: ImportOrigin) {}
}

/// Reads one foreign format.
package protocol RecipeImporter {
    /// The format this importer reads.
    var format: ImportFormat { get }
    /// Reads the file or folder at `path`, streaming what it finds into `sink`.
    ///
    /// Problems with single items go to ``ImportSink/reject(_:origin:raw:)`` and reading goes
    /// on; only a file that cannot be read at all throws.
    /// - Throws: ``LarderError``: `io-error` when the input cannot be read, `syntax-error` or
    ///   `refused-input` when it is not readable as a whole.
    func importItems(at path: String, into sink: any ImportSink) throws
}

extension ImportSink {
    /// Runs `body` for one item; a ``LarderError`` it throws rejects the item instead of
    /// stopping the import.
    package func isolating(_ origin: ImportOrigin, raw: Value? = nil, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ImportAbort {
            throw error
        } catch let error as LarderError where error.code != .io {
            try reject(error.locatedAt(origin.location()), origin: origin, raw: raw)
        }
    }
}

/// Thrown by a sink to stop an import at the first rejected item (no `--keep-going`).
package struct ImportAbort: Error, Sendable {
    /// The error that stopped the import.
    package var error: LarderError
}

extension ImportSink {
    /// Reads one JSON document from `source`, leniently, as apps and sites write it.
    ///
    /// The bytes are decoded to UTF-8 first, with a warning when some had to be read as windows-1252.
    /// Stops reading (and inflating) as soon as the document passes ``readerLimits``'s record size.
    /// - Throws: ``LarderError`` `syntax-error` with line and column; `refused-input` past the size limit.
    package func readJSON(_ source: any ByteSource, origin: ImportOrigin) throws -> Value {
        let decoded = TranscodingByteSource(source, encoding: nil)
        let value = try JSONLDBlocks.parse(decoded, limits: readerLimits) {
            warn(JSONLDBlocks.warningText($0), origin: origin)
        }
        if decoded.usedFallback { warnEncodingFallback(origin) }
        return value
    }

    /// The warning for input that was not valid UTF-8.
    package func warnEncodingFallback(_ origin: ImportOrigin) {
        warn("not valid UTF-8; bytes read as windows-1252", origin: origin)
    }
}
