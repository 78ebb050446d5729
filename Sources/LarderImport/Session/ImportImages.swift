import Foundation
import LarderCore
import LarderFormats

/// Writes the images an import finds beside its output, and removes them again when the import fails.
///
/// A file is named after its recipe's id made a safe single path component, created new inside
/// the images folder (never through a symlink, never over an existing file: a taken name gets a
/// `-2`, `-3`, … suffix, with a warning). A re-run finds the image it wrote before (same name,
/// same bytes) and points at it.
final class ImportImages {
    /// Where images go on disk, and how a record refers to that folder (relative to the output).
    let directory: (onDisk: String, reference: String)
    /// Image files written.
    private(set) var written = 0
    /// Image files and folders this run created.
    private var createdFiles: [String] = []
    private var createdDirectories: [String] = []
    private var ready = false

    /// Images for an import writing to `outputPath` (nil: standard output), or into `explicit`.
    init(outputPath: String?, explicit: String?) {
        if let explicit {
            directory = (explicit, explicit)
        } else if let path = outputPath, path != "-" {
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            let file = String(path.split(separator: "/").last ?? Substring(path))
            let stem = file.split(separator: ".").first.map(String.init) ?? file
            directory = (folder + "/" + stem + "-images", stem + "-images")
        } else {
            directory = ("larder-images", "larder-images")
        }
    }

    /// Writes an embedded image and returns its reference; a URL is kept as it is; `warn` hears
    /// about a name that had to change.
    /// - Throws: ``LarderError`` `io-error` when the folder or file cannot be written.
    func store(_ image: ImportedRecipe.Image?, id: String, warn: (String) -> Void) throws -> String? {
        switch image {
        case nil: return nil
        case .url(let url)?: return url
        case .data(let bytes, let ext)?:
            try makeDirectory(directory.onDisk)
            let wanted = ContainedFile.safeComponent(id) + "." + ContainedFile.safeComponent(ext, maxLength: 10)
            if let same = ContainedFile.existingCopy(in: directory.onDisk, stem: id, fileExtensions: [ext], of: bytes) {
                return directory.reference + "/" + same
            }
            let file = try ContainedFile.createNew(in: directory.onDisk, stem: id, fileExtension: ext, bytes: bytes)
            createdFiles.append(directory.onDisk + "/" + file)
            if wanted != "\(id).\(ext)" {
                warn("the id \"\(id)\" is not a safe file name; its image is \(file)")
            } else if file != wanted {
                warn("\(wanted) already exists in \(directory.onDisk) and is left alone; the image is \(file)")
            }
            written += 1
            return directory.reference + "/" + file
        }
    }

    /// Removes the image files and folders this run created (nothing else).
    func removeCreated() {
        ContainedFile.remove(files: createdFiles, directories: createdDirectories)
        createdFiles.removeAll()
        createdDirectories.removeAll()
    }

    /// Creates the images folder (and missing parents) once, remembering which folders this run created.
    private func makeDirectory(_ path: String) throws {
        guard !ready else { return }
        var missing: [String] = []
        var current = path
        while !current.isEmpty, !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current { break }
            current = parent
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LarderError(
                .io, "cannot create the images folder: \(error.localizedDescription)",
                location: SourceLocation(file: path))
        }
        createdDirectories.append(contentsOf: missing)
        ready = true
    }
}
