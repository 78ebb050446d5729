import LarderCore
import LarderFormats

/// Hands what an importer reads from an archive entry's temporary copy to the session, named by
/// the archive and the entry (`export.zip!recipes/plantoeat.csv#3`), never by the copy's path:
/// records, rejects and warnings alike.
final class EntrySink: ImportRecordSink, ImportDiagnostics {
    private let base: ImportContext
    private let copy: String
    private let origin: ImportOrigin

    /// Renames for the temporary copy at `copy` of the entry `origin` names, handing on to `base`.
    init(_ base: ImportContext, copy: String, origin: ImportOrigin) {
        self.base = base
        self.copy = copy
        self.origin = origin
    }

    /// The context the entry's importer is handed.
    var context: ImportContext {
        ImportContext(
            records: self, diagnostics: self, readerLimits: base.readerLimits, takesShortcuts: base.takesShortcuts)
    }

    /// The origin inside the archive of an origin inside the copy.
    private func rebased(_ inner: ImportOrigin) -> ImportOrigin {
        guard inner.file == copy else { return inner }
        var rebased = origin
        if let entry = inner.entry { rebased = rebased.entry(entry) }
        return inner.index.map { rebased.item($0) } ?? rebased
    }

    /// The error named by the archive and entry where it names the temporary copy.
    func relocated(_ error: LarderError) -> LarderError {
        guard let file = error.location?.file, file == copy || file.hasPrefix(copy + "!") else { return error }
        var error = error
        error.location?.file = origin.location().file.map { $0 + file.dropFirst(copy.count) }
        return error
    }

    func recipe(_ recipe: ImportedRecipe, origin: ImportOrigin) throws {
        try base.records.recipe(recipe, origin: rebased(origin))
    }

    func brewRecipe(_ recipe: BrewRecipe, census: FieldCensus?, origin: ImportOrigin) throws {
        try base.records.brewRecipe(recipe, census: census, origin: rebased(origin))
    }

    func brewLog(_ log: BrewLog, census: FieldCensus?, origin: ImportOrigin) throws {
        try base.records.brewLog(log, census: census, origin: rebased(origin))
    }

    func reject(_ error: LarderError, origin: ImportOrigin, raw: Value?) throws {
        try base.reject(relocated(error), origin: rebased(origin), raw: raw)
    }

    func warn(_ message: String, origin: ImportOrigin) {
        base.warn(message, origin: rebased(origin))
    }
}
