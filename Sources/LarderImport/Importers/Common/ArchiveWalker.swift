import LarderCore
package import LarderFormats

/// Walks a zip archive entry by entry for an importer: skips directories, `__MACOSX` and
/// hidden files, refuses entries that would escape the archive (zip slip) and entries that
/// inflate too far (zip bombs) — each refusal is a rejected item naming the entry — and hands
/// every other entry's bytes to `body` while they stream.
package struct ArchiveWalker {
    /// The archive's path.
    package var path: String
    /// Expansion limits.
    package var limits: ZipLimits

    /// Creates a walker.
    package init(path: String, limits: ZipLimits = .default) {
        self.path = path
        self.limits = limits
    }

    /// Calls `body` for every entry that `accept` (given the entry) keeps.
    /// - Throws: ``LarderError`` when the archive itself cannot be read.
    package func forEachEntry(
        context: ImportContext, accept: (ZipEntry) -> Bool = { _ in true },
        _ body: (ZipEntry, any ByteSource, ImportOrigin) throws -> Void
    ) throws {
        let archive = try ZipArchive(path: path, limits: limits)
        let origin = ImportOrigin(file: path)
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable || !accept(entry) { continue }
            let entryOrigin = origin.entry(entry.path)
            try context.isolating(entryOrigin) {
                _ = try entry.safeRelativePath(archive: path)
                try body(entry, try archive.open(entry), entryOrigin)
            }
        }
    }
}
