package import Foundation
import LarderCore
import LarderSystem

/// Files whose names come from content (a recipe id, an `imageRef`), kept inside one folder.
///
/// Every name is first made a single safe path component (``safeComponent(_:maxLength:)``);
/// new files are created exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`), so an existing file or a
/// symlink at the target is never written through or replaced; references are resolved (after
/// symlinks) and read only when they stay inside their folder.
package enum ContainedFile {
    /// `raw` as one path component: `/`, `\`, NUL and control characters become `_`, leading dots
    /// and spaces are dropped, at most `maxLength` UTF-8 bytes; a name left empty becomes
    /// `file-<hash of raw>`.
    package static func safeComponent(_ raw: String, maxLength: Int = 100) -> String {
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in raw.unicodeScalars {
            let bad =
                scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
                || (0x80...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
            let kept: Unicode.Scalar = bad ? "_" : scalar
            if scalars.isEmpty && (kept == "." || kept == " ") { continue }
            let size = String(kept).utf8.count
            if bytes + size > maxLength { break }
            scalars.append(kept)
            bytes += size
        }
        var name = String(scalars)
        while name.hasSuffix(" ") { name.removeLast() }
        if name.isEmpty { name = "file-" + String(SHA256.hash(Array(raw.utf8)).hexString.prefix(16)) }
        return name
    }

    /// Creates a new file `stem.ext` in `directory` holding `bytes`; when that name is taken (by any
    /// file, directory or symlink) tries `stem-2.ext`, `stem-3.ext`, … Never follows a symlink at the
    /// target and never replaces anything.
    ///
    /// Atomic: the bytes go to a temporary file in `directory` first, which is then hard-linked to
    /// the name (`link` fails on any existing name, a symlink included, and never follows it), so a
    /// crash leaves either no file or the whole file under the name, never a part of it.
    /// - Returns: the file name used.
    /// - Throws: ``LarderError`` `io-error` naming the path when the file cannot be created or written.
    package static func createNew(in directory: String, stem: String, fileExtension: String, bytes: [UInt8]) throws
        -> String
    {
        let safeStem = safeComponent(stem)
        let ext = safeComponent(fileExtension, maxLength: 10)
        let first = directory + "/" + "\(safeStem).\(ext)"
        let temporary = try writeTemporary(in: directory, bytes: bytes, for: first)
        defer { unlink(temporary) }
        for attempt in 1...1000 {
            let name = attempt == 1 ? "\(safeStem).\(ext)" : "\(safeStem)-\(attempt).\(ext)"
            let path = directory + "/" + name
            if link(temporary, path) == 0 { return name }
            if errno == EEXIST { continue }
            throw LarderError(
                .io, "cannot create the file: \(String(cString: strerror(errno)))", location: SourceLocation(file: path)
            )
        }
        throw LarderError(
            .io, "no free file name for \(safeStem).\(ext) after 1000 tries", location: SourceLocation(file: directory))
    }

    /// The name of a regular file `stem.ext`, `stem-2.ext`, … in `directory` (for each of
    /// `fileExtensions`) holding `bytes`, looking no further than the first free name: what
    /// ``createNew(in:stem:fileExtension:bytes:)`` wrote for the same bytes on an earlier run.
    package static func existingCopy(in directory: String, stem: String, fileExtensions: [String], of bytes: [UInt8])
        -> String?
    {
        existingCopy(in: directory, stem: stem, fileExtensions: fileExtensions) { $0.elementsEqual(bytes) }
    }

    /// The name of a regular file `stem.ext`, `stem-2.ext`, … in `directory` whose contents `matches`.
    package static func existingCopy(
        in directory: String, stem: String, fileExtensions: [String], matches: (Data) -> Bool
    ) -> String? {
        let stem = safeComponent(stem)
        let extensions = fileExtensions.map { safeComponent($0, maxLength: 10) }
        for attempt in 1...1000 {
            var taken = false
            for ext in extensions {
                let name = attempt == 1 ? "\(stem).\(ext)" : "\(stem)-\(attempt).\(ext)"
                let path = directory + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                taken = true
                if info.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: path),
                    matches(data)
                {
                    return name
                }
            }
            if !taken { return nil }
        }
        return nil
    }

    /// Writes `bytes` to a new hidden temporary file in `directory` (for the file `destination`,
    /// which fault rules and errors name) and returns its path.
    private static func writeTemporary(in directory: String, bytes: [UInt8], for destination: String) throws -> String {
        for _ in 0..<100 {
            let path = directory + "/.larder-new-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw LarderError(
                    .io, "cannot create the file: \(String(cString: strerror(errno)))",
                    location: SourceLocation(file: destination))
            }
            var failure = bytes.withUnsafeBytes { FileSystemCalls.writeAll(fd, $0, path: destination) }
            if failure == 0, FileSystemCalls.fsync(fd, path: destination) != 0 { failure = errno }
            if close(fd) != 0 && failure == 0 { failure = errno }
            if failure != 0 {
                unlink(path)
                throw LarderError(
                    .io, "cannot write the file: \(String(cString: strerror(failure)))",
                    location: SourceLocation(file: destination))
            }
            return path
        }
        throw LarderError(.io, "no free temporary name", location: SourceLocation(file: directory))
    }

    /// The real path of `reference` (relative to `base`) when it is relative, has no `..`
    /// component, and resolves (after symlinks) to a regular file inside `folder` (relative to
    /// `base`); otherwise why not.
    package static func resolveInside(_ reference: String, base: String, folder: String) -> Result<
        String, RefusalReason
    > {
        if reference.hasPrefix("/") { return .failure(.absolute) }
        if reference.split(separator: "/", omittingEmptySubsequences: false).contains("..") || reference.contains("\\")
        {
            return .failure(.parentComponent)
        }
        guard let root = realPath(base + "/" + folder), let resolved = realPath(base + "/" + reference) else {
            return .failure(.missing)
        }
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else { return .failure(.outside(root)) }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.notRegularFile) }
        return .success(resolved)
    }

    /// Why a reference was refused.
    package enum RefusalReason: Error, CustomStringConvertible {
        case absolute
        case parentComponent
        case missing
        case outside(String)
        case notRegularFile
        /// The file is there but could not be read, or is too large to carry (the reason).
        case unreadable(String)

        package var description: String {
            switch self {
            case .unreadable(let reason): "a file that could not be read (\(reason))"
            case .absolute: "an absolute path; only files inside the records file's folder are read"
            case .parentComponent: "a path with '..'; only files inside the records file's folder are read"
            case .missing: "no such file"
            case .outside(let folder): "resolves (through a symlink) outside \(folder); only files inside it are read"
            case .notRegularFile: "not a regular file"
            }
        }
    }

    /// Removes `files` (unlinked, never followed) and then `directories` in order, each only when
    /// empty: what a failed run created, and nothing else.
    package static func remove(files: [String], directories: [String]) {
        for path in files.reversed() { unlink(path) }
        for path in directories { rmdir(path) }
    }

    /// Whether `path` is a file with content or a folder with entries.
    package static func isNonEmpty(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue {
            return !((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).isEmpty
        }
        return ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0
    }

    /// The canonical path of an existing file, symlinks resolved.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
