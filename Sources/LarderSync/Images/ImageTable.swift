import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import Synchronization

/// The local image files of the records being uploaded: each path's SHA-256 (hashed once), the
/// files still to upload, and why an upload failed.
final class ImageTable: Sendable {
    /// One image file of a record.
    struct File: Sendable, Hashable {
        /// The path as the record gives it.
        var path: String
        /// Where it was found.
        var url: URL
        /// Lowercase hex SHA-256 of its bytes.
        var sha256: String
        /// Base64 SHA-256, the checksum the digest uses.
        var checksum: String
    }

    private struct State {
        var hashed: [String: File?] = [:]
        var needed: [String: URL] = [:]
        var failures: [String: CloudKitFailure] = [:]
        /// The entry names of each folder looked in (empty when it cannot be listed).
        var listings: [String: Set<String>] = [:]
    }

    /// Folders the records' relative paths are resolved against, in order.
    let folders: [String]
    /// Told once of each image file that is there but cannot be read (its records go up without it).
    let diagnostics: DiagnosticLog
    private let state = Mutex(State())

    /// A table resolving paths against `folders`; unreadable files are warnings in `diagnostics`.
    init(folders: [String], diagnostics: DiagnosticLog = DiagnosticLog()) {
        self.folders = folders
        self.diagnostics = diagnostics
    }

    /// The image files `record` names that exist (missing or unreadable ones are left out).
    func files(of record: Value) -> [File] {
        ImageFiles.paths(in: record).compactMap(file(for:))
    }

    private func file(for path: String) -> File? {
        if let known = state.withLock({ $0.hashed[path] }) { return known }
        var found: File?
        if let url = locate(path) {
            do {
                let data = try Data(contentsOf: url)
                found = File(
                    path: path, url: url, sha256: AssetDigest.sha256Hex(data), checksum: AssetDigest.fileChecksum(data))
            } catch {
                // Once per path: the result (nil) is remembered below, so the file is not read again.
                diagnostics.warn(
                    Diagnostic(
                        severity: .warning, code: "image-unreadable",
                        message:
                            "image \(path) could not be read and was left out of its records (\(url.path): \(error.localizedDescription))",
                        location: SourceLocation(file: url.path)))
            }
        }
        state.withLock { $0.hashed[path] = .some(found) }
        return found
    }

    /// ``ImageFiles/locate(_:in:)`` for the records of one upload: each folder is listed once, so
    /// 100,000 records naming images that are not there cost 100,000 set lookups, not as many
    /// `stat` calls through `FileManager` (5 % of the upload's client CPU before).
    private func locate(_ path: String) -> URL? {
        if path.hasPrefix("/") { return ImageFiles.locate(path, in: folders) }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        for folder in folders {
            let listed = directory.isEmpty ? folder : folder + "/" + directory
            if listing(listed).contains(name) { return URL(fileURLWithPath: folder).appendingPathComponent(path) }
        }
        return nil
    }

    private func listing(_ directory: String) -> Set<String> {
        if let known = state.withLock({ $0.listings[directory] }) { return known }
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        state.withLock { $0.listings[directory] = names }
        return names
    }

    /// One warning per image file that exists but could not be read (left out of its records), in
    /// path order.
    var unreadableWarnings: [String] { diagnostics.warnings.map(\.message).sorted() }

    /// Notes that these files' records are to be written (their bytes must be uploaded).
    func note(_ files: [File]) {
        state.withLock { state in for file in files { state.needed[file.sha256] = file.url } }
    }

    /// The files to upload, by SHA-256, in a stable order.
    var needed: [(sha256: String, url: URL)] {
        state.withLock { $0.needed.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// Why the upload of some bytes failed.
    var failures: [String: CloudKitFailure] { state.withLock { $0.failures } }

    func fail(_ sha256: String, _ failure: CloudKitFailure) { state.withLock { $0.failures[sha256] = failure } }
}
