import Foundation
import LarderCore
import LarderFormats

extension ZipArchive {
    /// Calls `body` with the path of a temporary copy of `entry` (a zip inside the zip, which needs
    /// random access), streamed out of the archive at `path`; the copy is removed afterwards.
    /// - Throws: ``LarderError`` when the entry would leave the archive, cannot be read or written,
    ///   or what `body` throws.
    func withExtracted<T>(_ entry: ZipEntry, archive path: String, _ body: (String) throws -> T) throws -> T {
        _ = try entry.safeRelativePath(archive: path)
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "larder-nested-\(UUID().uuidString).zip"
        ).path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
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
