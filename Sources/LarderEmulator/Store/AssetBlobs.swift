import Foundation
import LarderCore
import Synchronization

/// Asset bytes, content-addressed by their hex SHA-256: files `assets/<2 hex>/<64 hex>` under the
/// data folder (written atomically, 0600), or a dictionary in memory with `--in-memory`.
///
/// Which addresses are live is the `asset` table's business; every mutation here happens inside
/// the store's write transaction, so an upload and a collection of the same bytes never interleave.
final class AssetBlobs: Sendable {
    private let folder: URL?
    private let memory = Mutex<[String: Data]>([:])

    /// Bytes under `directory/assets`, or in memory when `directory` is nil.
    init(directory: String?) {
        folder = directory.map { URL(fileURLWithPath: $0).appendingPathComponent("assets", isDirectory: true) }
    }

    private func file(_ hex: String) -> URL? {
        guard let folder, hex.utf8.count == 64, hex.utf8.allSatisfy({ isHexDigit($0) }) else { return nil }
        return folder.appendingPathComponent(String(hex.prefix(2)), isDirectory: true).appendingPathComponent(hex)
    }

    private func isHexDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }

    /// Stores `data` under `hex` unless it is there already.
    /// - Throws: ``LarderError`` `io-error` when the file cannot be written.
    func store(_ data: Data, hex: String) throws {
        guard folder != nil else {
            memory.withLock { if $0[hex] == nil { $0[hex] = data } }
            return
        }
        guard let file = file(hex) else { return }
        if FileManager.default.fileExists(atPath: file.path) { return }
        try PrivateFile.write(data, to: file)
    }

    /// The bytes under `hex`, or nil when they are gone.
    /// - Throws: ``LarderError`` `io-error` when the file is there but cannot be read (an I/O error
    ///   is not "gone": the answer says the store failed, and the bytes stay referenced).
    func read(_ hex: String) throws -> Data? {
        guard folder != nil else { return memory.withLock { $0[hex] } }
        guard let file = file(hex) else { return nil }
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return try Data(contentsOf: file, options: .mappedIfSafe)
        } catch {
            throw LarderError(
                .io, "cannot read the asset \(hex): \(error.localizedDescription)",
                location: SourceLocation(file: file.path))
        }
    }

    /// Forgets the bytes under `hex`.
    func remove(_ hex: String) {
        guard folder != nil else {
            memory.withLock { $0[hex] = nil }
            return
        }
        guard let file = file(hex) else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// Forgets every asset (a reset or an import).
    func removeAll() {
        memory.withLock { $0 = [:] }
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}
