import Foundation
import LarderCore
import LarderFormats

/// Walks a folder for an importer: the files `accept` keeps (by path relative to the folder),
/// in name order, hidden files and folders left out; each file is read only when it resolves
/// (after symlinks) inside the folder, else it is a rejected item naming it.
package struct FolderWalker {
    /// The folder's path.
    package var path: String

    /// Creates a walker.
    package init(path: String) {
        self.path = path
    }

    /// Calls `body` with each kept file's relative path, its resolved path and its origin; a
    /// ``LarderError`` from `body` rejects that file only.
    /// - Throws: what the context throws to stop the import.
    package func forEachFile(
        context: ImportContext, accept: (String) -> Bool, _ body: (String, String, ImportOrigin) throws -> Void
    ) throws {
        let files = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
            .filter { accept($0) && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
        for file in files {
            let origin = ImportOrigin(file: path, entry: file)
            try context.isolating(origin) {
                // Symlinks are followed only while they stay inside the folder being imported.
                switch ContainedFile.resolveInside(file, base: path, folder: ".") {
                case .success(let resolved): try body(file, resolved, origin)
                case .failure(let reason): throw LarderError(.refusedInput, "\(file): \(reason); not read")
                }
            }
        }
    }
}
