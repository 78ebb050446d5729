import LarderCore
import LarderFormats

/// The backup of a phone app: a zip of one or more record files (a cookbook XML, a `recipes.json`)
/// and the photos the records name by a path on the phone (Cookmate, RecetteTek); or a record
/// file alone.
///
/// Only the central directory is read up front; each record file streams, and a photo is read
/// when a record names it.
struct BackupArchive {
    /// Loads the bytes of the photo a record names, or `nil` when the backup has no such file.
    typealias ImageLoader = (String) throws -> [UInt8]?

    /// Calls `body` with each record file of the backup at `path`, its origin and a photo loader;
    /// a record file that cannot be read is rejected and the others are read.
    ///
    /// A photo path is looked up beside the record file, then as a path inside the archive, then
    /// as `images/<its file name>`, then by its file name anywhere; one that would leave the
    /// archive is refused. `origin` is where the archive is (by default, the file at `path`).
    /// - Throws: ``LarderError`` `malformed-record` when the zip holds no record file (`what`
    ///   names it), or what opening the archive throws.
    static func forEachRecordFile(
        at path: String, origin: ImportOrigin? = nil, context: ImportContext, what: String,
        isRecordFile: (ZipEntry) -> Bool, _ body: (any ByteSource, ImportOrigin, ImageLoader) throws -> Void
    ) throws {
        let fileOrigin = origin ?? ImportOrigin(file: path)
        guard ZipArchive.isZip(try FileByteSource(path: path).readPrefix(4)) else {
            try body(try FileByteSource(path: path), fileOrigin) { _ in nil }
            return
        }
        let archive = try ZipArchive(path: path)
        var records: [ZipEntry] = []
        var files: [String: ZipEntry] = [:]
        var byName: [String: ZipEntry] = [:]
        while let entry = try archive.nextEntry() {
            if entry.isIgnorable { continue }
            if isRecordFile(entry) {
                records.append(entry)
            } else {
                files[entry.path] = entry
                if byName[entry.fileName] == nil { byName[entry.fileName] = entry }
            }
        }
        guard !records.isEmpty else {
            throw LarderError(.malformedRecord, "the archive holds no \(what)", location: SourceLocation(file: path))
        }
        for record in records {
            let origin = fileOrigin.entry(record.path)
            let folder = String(record.path.dropLast(record.fileName.count))
            try context.isolating(origin) {
                _ = try record.safeRelativePath(archive: path)
                try body(try archive.open(record), origin) { photo in
                    let relative = String(photo.drop { $0 == "/" })
                    let name = String(relative.split(separator: "/").last ?? Substring(relative))
                    guard
                        let entry = files[folder + relative] ?? files[relative] ?? files["images/" + name]
                            ?? byName[name]
                    else { return nil }
                    _ = try entry.safeRelativePath(archive: path)
                    return try archive.open(entry).readAll(limit: 64 << 20)
                }
            }
        }
    }
}
