import Foundation
import LarderCore
import LarderFormats

/// The files of an app's text export (Pepperplate, Saffron, ChefTap): a zip of `.txt` files, a
/// folder of them, or one file.
///
/// Each file is handed over while it streams, isolated: a ``LarderError`` its body throws
/// rejects that file (named by its archive entry or its path in the folder) and the others are
/// read. Zip entries go through ``ArchiveWalker`` and folder files through ``FolderWalker``, with
/// their refusals (zip slip, zip bombs, symlinks leading out).
enum TextExportFiles {
    /// Whether a path names a text file of an export (`.txt`, any case).
    static func isText(_ path: String) -> Bool { path.lowercased().hasSuffix(".txt") }

    /// The text detection reads of an export: a text file's head, or the head of the first `.txt`
    /// file of an archive (in order) or a folder (by name); nil when there is none.
    /// - Throws: ``LarderError`` when the file cannot be read.
    static func firstText(of probe: ImportProbe) throws -> String? {
        switch probe.kind {
        case .file: return probe.isPlainText ? probe.text : nil
        case .archive, .folder:
            guard let entry = probe.firstEntry(where: { isText($0.name) }) else { return nil }
            return try probe.text(of: entry)
        }
    }

    /// Calls `body` with each file `accept` keeps (by its path inside the zip or folder; a single
    /// file is always read) and its origin.
    /// - Throws: ``LarderError`` when the zip or folder itself cannot be read.
    static func forEach(
        at path: String, context: ImportContext, accept: @escaping (String) -> Bool = isText,
        _ body: (any ByteSource, ImportOrigin) throws -> Void
    ) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            try FolderWalker(path: path).forEachFile(context: context, accept: accept) { _, resolved, origin in
                try body(try FileByteSource(path: resolved), origin)
            }
        } else if ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) {
            let acceptEntry: (ZipEntry) -> Bool = { accept($0.path) }
            try ArchiveWalker(path: path).forEachEntry(context: context, accept: acceptEntry) { _, source, origin in
                try body(source, origin)
            }
        } else {
            let origin = ImportOrigin(file: path)
            try context.isolating(origin) { try body(try FileByteSource(path: path), origin) }
        }
    }

    /// Imports every file of the export at `path`: `read` parses one, `raw` gives its fields (the raw
    /// record of a reject) and `recipe` makes the recipe, each file isolated.
    /// - Throws: what ``forEach(at:into:accept:_:)`` throws.
    static func importRecipes<Parsed>(
        at path: String, context: ImportContext, read: (any ByteSource, ImportOrigin) throws -> Parsed,
        raw: (Parsed) -> Fields, recipe: (Parsed) throws -> ImportedRecipe
    ) throws {
        try forEach(at: path, context: context) { source, origin in
            let parsed = try read(source, origin)
            try context.isolating(origin, raw: .object(raw(parsed))) {
                try context.records.recipe(try recipe(parsed), origin: origin)
            }
        }
    }

    /// Calls `body` with each line of a text file (UTF-8, else windows-1252 with a warning; a byte
    /// order mark and line endings removed) and its 1-based number, streaming.
    /// - Throws: ``LarderError`` `malformed-record` at the line of a NUL byte (not a text file);
    ///   `refused-input` when the file passes the record size limit.
    static func forEachLine(
        of source: any ByteSource, origin: ImportOrigin, context: ImportContext, _ body: (String, Int) throws -> Void
    ) throws {
        let limit = context.readerLimits.maxRecordSize
        let decoded = TranscodingByteSource(source, encoding: nil)
        let reader = TextLineReader(decoded, maxLineBytes: limit)
        var size = 0
        while var line = try reader.next() {
            size += line.utf8.count + 1
            if size > limit {
                throw LarderError(
                    .refusedInput, "the recipe is larger than the record size limit (\(limit) bytes); refused",
                    location: SourceLocation(line: reader.lineNumber))
            }
            if reader.lineNumber == 1, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            if line.contains("\0") {
                throw LarderError(
                    .malformedRecord, "not a text file (a NUL byte)", location: SourceLocation(line: reader.lineNumber))
            }
            try body(line, reader.lineNumber)
        }
        if decoded.usedFallback { context.warnEncodingFallback(origin) }
    }
}
