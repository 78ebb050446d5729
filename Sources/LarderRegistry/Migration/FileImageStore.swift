import Foundation
import LarderCore
import LarderFormats

/// Stores migrated images as files in an `images/` folder next to the output.
///
/// Each file is written atomically (temporary file, then rename). ``discardWritten()`` removes
/// the files this run wrote, for a migration that fails and writes no output. In a dry run
/// nothing is written and the reference is only computed.
public final class FileImageStore: ImageStore {
    /// The folder references are relative to (the output's folder).
    public let baseDirectory: String
    /// The images folder name inside it.
    public let folder: String
    /// Compute references only.
    public let isDryRun: Bool
    /// Folders to look in when loading (the input's folder first).
    public var searchDirectories: [String]
    private var written: [String] = []

    /// Creates a store writing to `baseDirectory/folder`.
    public init(
        baseDirectory: String, folder: String = "images", isDryRun: Bool = false, searchDirectories: [String] = []
    ) {
        self.baseDirectory = baseDirectory
        self.folder = folder
        self.isDryRun = isDryRun
        self.searchDirectories = searchDirectories
    }

    /// How many files this run wrote.
    public var writtenCount: Int { written.count }

    public func save(_ bytes: [UInt8], recordID: String, fileExtension: String) throws -> String {
        let safe = String(
            recordID.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" }.prefix(120))
        let reference = "\(folder)/\(safe.isEmpty ? "image" : safe).\(fileExtension)"
        guard !isDryRun else { return reference }
        let directory = (baseDirectory as NSString).appendingPathComponent(folder)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw LarderError(.io, "cannot create \(directory): \(error.localizedDescription)")
        }
        let path = (baseDirectory as NSString).appendingPathComponent(reference)
        let sink = try FileByteSink(path: path)
        try sink.write(bytes)
        try sink.close()
        written.append(path)
        return reference
    }

    /// Reads the image `reference` names: only a relative path without `..` that resolves (after
    /// symlinks) to a file inside one of the search folders (the inputs' folders, then the base).
    /// - Throws: ``LarderError`` `refused-input` for any other reference, `io-error` when no such file exists.
    public func load(_ reference: String) throws -> [UInt8] {
        let folders = searchDirectories.map { $0.isEmpty ? "." : $0 } + [baseDirectory]
        var outside: ContainedFile.RefusalReason?
        for folder in folders {
            switch ContainedFile.resolveInside(reference, base: folder, folder: ".") {
            case .success(let path):
                if let data = FileManager.default.contents(atPath: path) { return Array(data) }
            case .failure(.missing), .failure(.notRegularFile):
                continue
            case .failure(let reason):
                if case .outside = reason {
                    outside = reason
                    continue
                }
                throw LarderError(.refusedInput, "\(reason); not read")
            }
        }
        if let outside { throw LarderError(.refusedInput, "\(outside); not read") }
        let candidates = folders.map { ($0 as NSString).appendingPathComponent(reference) }
        throw LarderError(.io, "image file not found (looked in \(candidates.joined(separator: ", ")))")
    }

    /// Removes every file this run wrote.
    public func discardWritten() {
        for path in written { try? FileManager.default.removeItem(atPath: path) }
        written.removeAll()
    }
}
