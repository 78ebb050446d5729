import Foundation
import LarderCore
import LarderFormats

/// Where an export made of several files per recipe goes: a folder, a zip archive, or a single
/// file (or standard output) that can hold one recipe only.
///
/// Every file is written atomically (`FileByteSink`: a temporary file renamed into place), and a
/// zip archive appears only when ``finish()`` completes it.
final class ExportOutput {
    enum Mode {
        /// Files go into this folder (created).
        case directory(String)
        /// Files go into a zip archive.
        case zip(ZipWriter)
        /// One recipe's main file goes to this sink (a file or standard output).
        case single(any ByteSink)
    }

    let mode: Mode
    /// The output path as given, for messages.
    let path: String?
    private var singleWritten = false
    /// A single output's bytes, held until ``finish()`` so that a second recipe (an error) leaves
    /// nothing behind, not even on standard output.
    private var singleBytes: [UInt8] = []

    /// Opens `path` as a folder, a zip (paths ending in one of `zipSuffixes`, and standard output
    /// when `stdoutIsZip`) or a single file (paths ending in one of `singleSuffixes`, and standard
    /// output otherwise).
    init(path: String?, zipSuffixes: [String], singleSuffixes: [String], stdoutIsZip: Bool) throws {
        self.path = path
        guard let path, path != "-" else {
            let out = FileByteSink(standardOutput: ())
            mode = stdoutIsZip ? .zip(ZipWriter(sink: out)) : .single(out)
            return
        }
        let lower = path.lowercased()
        if zipSuffixes.contains(where: { lower.hasSuffix($0) }) {
            mode = .zip(ZipWriter(sink: try FileByteSink(path: path)))
        } else if singleSuffixes.contains(where: { lower.hasSuffix($0) }) {
            mode = .single(try FileByteSink(path: path))
        } else {
            try Self.makeDirectory(path)
            mode = .directory(path)
        }
    }

    /// Creates `path` and the folders above it.
    /// - Throws: ``LarderError`` `io-error` naming the folder.
    private static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LarderError(
                .io, "cannot create the folder: \(error.localizedDescription)", location: SourceLocation(file: path))
        }
    }

    /// Whether the output holds one recipe's main file only.
    var isSingle: Bool {
        if case .single = mode { return true }
        return false
    }

    /// Writes one file at `relative` (a path inside the folder or archive; ignored for a single file).
    /// - Throws: ``LarderError`` `refused-input` for a path that could leave the folder (absolute,
    ///   or with an empty, `.` or `..` component): names come from recipe titles.
    func add(_ relative: String, _ bytes: [UInt8], deflate: Bool = true, modified: Date? = nil) throws {
        if !isSingle {
            let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
            guard !relative.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                throw LarderError(
                    .refusedInput, "refused to write \"\(relative)\": the path would leave the output",
                    location: SourceLocation(file: path))
            }
        }
        switch mode {
        case .directory(let directory):
            let full = directory + "/" + relative
            try Self.makeDirectory((full as NSString).deletingLastPathComponent)
            let sink = try FileByteSink(path: full)
            try sink.write(bytes)
            try sink.close()
        case .zip(let zip):
            if let modified {
                try zip.add(path: relative, bytes: bytes, deflate: deflate, modified: modified)
            } else {
                try zip.add(path: relative, bytes: bytes, deflate: deflate)
            }
        case .single:
            singleBytes += bytes
        }
    }

    /// Writes `bytes` as the single file when the output is one (`what` names it in the error
    /// for a second recipe); returns whether it did, `false` meaning: write the recipe's files.
    func addSingle(_ bytes: [UInt8], holding what: String) throws -> Bool {
        guard isSingle else { return false }
        try claimSingle(what)
        try add("", bytes)
        return true
    }

    /// Claims the single file for one recipe; throws for a second one.
    /// - Throws: ``LarderError`` `usage-error` naming the output when a second recipe comes.
    func claimSingle(_ what: String) throws {
        guard isSingle else { return }
        if singleWritten {
            throw LarderError(
                .usage, "\(what) holds one recipe; give a folder or an archive to -o for several",
                location: SourceLocation(file: path))
        }
        singleWritten = true
    }

    /// Completes the archive or closes the file.
    func finish() throws {
        switch mode {
        case .directory: break
        case .zip(let zip): try zip.finish()
        case .single(let sink):
            try sink.write(singleBytes)
            try sink.close()
        }
    }
}
