import Foundation
import LarderCore
import LarderFormats

extension ZipArchive {
    /// Calls `body` with the path of a temporary copy of `entry`, removed afterwards.
    ///
    /// For a zip inside the zip, which needs random access, or an entry an importer of files reads;
    /// the copy is streamed out of the archive at `path`. `keepingName`: the copy is named as the entry (made a safe file name), in a folder of its own.
    /// - Throws: ``LarderError`` when the entry would leave the archive, cannot be read or written,
    ///   or what `body` throws.
    func withExtracted<T>(
        _ entry: ZipEntry, archive path: String, keepingName: Bool = false, _ body: (String) throws -> T
    ) throws -> T {
        _ = try entry.safeRelativePath(archive: path)
        let unique = "larder-nested-\(UUID().uuidString)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(unique).path
        let temporary: String
        if keepingName {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            } catch {
                throw LarderError(
                    .io, "cannot create a temporary folder: \(error.localizedDescription)",
                    location: SourceLocation(file: folder))
            }
            temporary = folder + "/" + ContainedFile.safeComponent(entry.fileName)
        } else {
            temporary = folder + ".zip"
        }
        defer {
            try? FileManager.default.removeItem(atPath: temporary)
            if keepingName { try? FileManager.default.removeItem(atPath: folder) }
        }
        let sinkFile = try FileByteSink(path: temporary)
        let source = try open(entry)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            try chunk.withUnsafeBytes { try sinkFile.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        try sinkFile.close()
        return try body(temporary)
    }
}
