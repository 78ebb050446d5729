import Foundation
public import LarderCloudKit
import LarderCore
import LarderFormats
import LarderStore
import LarderSystem

/// The uploader's record of asset bytes already uploaded: an append-only NDJSON file beside the
/// upload journal (`<journal>.assets`), one fsync'd line per upload, keyed by the bytes' SHA-256.
///
/// A line is written only after the server answered the upload with its receipt, so a kill -9
/// during an asset upload leaves either nothing (the bytes are uploaded again, once) or the whole
/// receipt (reused: the same bytes are never uploaded twice while it is valid). A torn last line
/// is ignored. Receipts expire on the server (Apple's upload URLs last about 15 minutes); an entry
/// older than ``receiptLifetimeMs`` counts as absent.
///
/// Line: `{"sha256":"<hex>","asset":{"fileChecksum":…,"size":…,"receipt":…},"at":<ms>}`
public actor AssetJournal {
    /// How long a receipt is trusted (a little under the server's 15 minutes).
    public static let receiptLifetimeMs: Int64 = 14 * 60 * 1000

    struct Line: Codable {
        var sha256: String
        var asset: Asset
        var at: Int64
    }

    /// The journal file.
    nonisolated public let path: String
    private var receipts: [String: Line]
    private let descriptor: Int32

    /// Opens (or creates) the journal and loads its receipts.
    ///
    /// As the upload journal does: a torn last line (a crash inside the last write) is left out, and
    /// any other line that does not read is an error naming it, never a receipt silently forgotten.
    /// - Throws: ``LarderError`` `io-error` when the file cannot be read or opened; `usage-error`
    ///   naming the line when it is damaged before its last line.
    public init(path: String) throws {
        self.path = path
        var loaded: [String: Line] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let lastNonEmpty = lines.lastIndex { !$0.isEmpty } ?? -1
            let decoder = JSONDecoder()
            for (number, line) in lines.enumerated() where !line.isEmpty {
                guard let entry = try? decoder.decode(Line.self, from: Data(line)) else {
                    if number == lastNonEmpty { continue }
                    throw LarderError(
                        .usage,
                        "the asset journal is damaged at line \(number + 1); move it away to start over (images are uploaded again, once)",
                        location: SourceLocation(file: path, line: number + 1))
                }
                loaded[entry.sha256] = entry
            }
        }
        receipts = loaded
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw LarderError(.io, "cannot open the asset journal \(path): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// The receipt for bytes with this SHA-256, when one is still valid at `now`.
    public func receipt(sha256: String, now: Int64) -> Asset? {
        guard let line = receipts[sha256], now - line.at < Self.receiptLifetimeMs else { return nil }
        return line.asset
    }

    /// Records the server's receipt for bytes with this SHA-256 (appended and synced).
    /// - Throws: ``LarderError`` `io-error`.
    public func record(sha256: String, asset: Asset, now: Int64) throws {
        let line = Line(sha256: sha256, asset: asset, at: now)
        CrashSwitch.step()
        var text: String
        do {
            text = String(decoding: try JSONEncoder().encode(line), as: UTF8.self) + "\n"
        } catch {
            throw LarderError(.io, "cannot encode an asset journal line: \(error)")
        }
        let before = lseek(descriptor, 0, SEEK_END)
        let failure = text.withUTF8 { FileSystemCalls.writeAll(descriptor, UnsafeRawBufferPointer($0), path: path) }
        guard failure == 0, FileSystemCalls.fsync(descriptor, path: path) == 0 else {
            if before >= 0 { _ = ftruncate(descriptor, before) }
            throw LarderError(.io, "cannot write the asset journal \(path): \(String(cString: strerror(errno)))")
        }
        receipts[sha256] = line
        CrashSwitch.step()
    }
}
