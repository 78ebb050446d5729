package import LarderCore
package import LarderFormats

/// Receives the records an importer reads, and nothing else: what it could not read goes to the
/// context's ``ImportDiagnostics``.
package protocol ImportRecordSink: AnyObject {
    /// A recipe was read (it carries its field census in ``ImportedRecipe/fieldCensus``).
    func recipe(_ recipe: ImportedRecipe, origin: ImportOrigin) throws
    /// A brew recipe was read (its id already derived by the importer), with its field census.
    func brewRecipe(_ recipe: BrewRecipe, census: FieldCensus?, origin: ImportOrigin) throws
    /// A brew log was read (its id already derived by the importer), with its field census.
    func brewLog(_ log: BrewLog, census: FieldCensus?, origin: ImportOrigin) throws
}

/// Receives what an importer could not read, or read but not cleanly.
///
/// The session behind it reports each one and hands it on to its ``DiagnosticSink``s (the rejects
/// file, a caller's log).
package protocol ImportDiagnostics: AnyObject {
    /// An item could not be read; `raw` is its source value when there was one.
    /// - Throws: ``ImportAbort`` to stop the import at the first rejected item (no `--keep-going`).
    func reject(_ error: LarderError, origin: ImportOrigin, raw: Value?) throws
    /// Something was read but not cleanly (an encoding fallback, an unknown field).
    func warn(_ message: String, origin: ImportOrigin)
}

/// What an importer is handed besides its input: where its records go, where what it could not
/// read goes, and the limits it reads within.
package struct ImportContext {
    /// Where the records go.
    package let records: any ImportRecordSink
    /// Where rejected items and warnings go.
    package let diagnostics: any ImportDiagnostics
    /// The limits importers apply while they read (one record's size above all).
    package let readerLimits: ReaderLimits
    /// Whether an importer may bring in a record it can prove it reads as the full path would by a
    /// shorter way (a current Larder recipe mapped field by field); `false` for the agreement tests.
    package let takesShortcuts: Bool

    /// A context handing records to `records` and problems to `diagnostics`.
    package init(
        records: any ImportRecordSink, diagnostics: any ImportDiagnostics, readerLimits: ReaderLimits = .default,
        takesShortcuts: Bool = true
    ) {
        self.records = records
        self.diagnostics = diagnostics
        self.readerLimits = readerLimits
        self.takesShortcuts = takesShortcuts
    }

    /// An item could not be read; `raw` is its source value when there was one.
    /// - Throws: ``ImportAbort`` to stop the import at the first rejected item.
    package func reject(_ error: LarderError, origin: ImportOrigin, raw: Value?) throws {
        try diagnostics.reject(error, origin: origin, raw: raw)
    }

    /// Something was read but not cleanly.
    package func warn(_ message: String, origin: ImportOrigin) {
        diagnostics.warn(message, origin: origin)
    }

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

/// Thrown by a session's diagnostics to stop an import at the first rejected item (no `--keep-going`).
package struct ImportAbort: Error, Sendable {
    /// The error that stopped the import.
    package var error: LarderError
}
