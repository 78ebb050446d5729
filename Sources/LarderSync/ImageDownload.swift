import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats

/// Writes the images of downloaded records next to the output.
///
/// Asset *i* of ``ImageFiles/field`` goes to the record's *i*th local image path
/// (``ImageFiles/paths(in:)``) under the output's folder, atomically. A path that is absolute or climbs
/// out of the folder is replaced by `images/<record name>-<i>` (the record is pointed at the new path),
/// or skipped where records cannot be rewritten (a store). A file already there with the same bytes is
/// left alone.
struct ImageDownload {
    let client: CloudKitClient
    let folder: String
    let retry: RetryPolicy
    let clock: LarderClock
    /// Write images whose path is unsafe under `images/<record name>-<i>` (else skip them).
    var renamesUnsafePaths = true

    /// The record with its image paths made safe, after writing its images.
    /// - Returns: The value to store, and how many files were written.
    /// - Throws: ``UploadStopped`` when a download fails; ``LarderError`` `io-error` when a file cannot be written.
    func save(_ value: Value, recordName: String, assets field: RecordField) async throws -> (Value, Int) {
        let assets = (field.value.arrayValue ?? [field.value]).compactMap { try? Asset(value: $0) }
        let paths = ImageFiles.paths(in: value)
        var renames: [String: String] = [:]
        var written = 0
        for (index, asset) in assets.enumerated() {
            guard let url = asset.downloadURL else { continue }
            var path = index < paths.count ? paths[index] : "images/\(recordName)-\(index + 1)"
            if !ImageFiles.isSafeRelativePath(path) {
                guard renamesUnsafePaths else { continue }
                let safe = "images/\(Self.fileSafe(recordName))-\(index + 1)"
                if index < paths.count { renames[path] = safe }
                path = safe
            }
            let target = (folder as NSString).appendingPathComponent(path)
            if let existing = FileManager.default.contents(atPath: target), Int64(existing.count) == asset.size,
                AssetDigest.fileChecksum(existing) == asset.fileChecksum
            {
                continue
            }
            let client = self.client
            let data = try await retry.perform("image \(path) of \(recordName)", clock: clock) {
                () async throws(CloudKitFailure) in try await client.downloadAsset(url)
            }
            if let size = asset.size, Int64(data.count) != size {
                throw LarderError(.network, "image \(path) of \(recordName): got \(data.count) bytes of \(size)")
            }
            try Self.write(data, to: target)
            written += 1
        }
        return (renames.isEmpty ? value : Self.renaming(value, renames), written)
    }

    private static func write(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let sink = try FileByteSink(path: path)
            try data.withUnsafeBytes { try sink.write($0) }
            try sink.close()
        } catch let error as LarderError {
            throw error
        } catch {
            throw LarderError(.io, "cannot write the image \(path): \(error.localizedDescription)")
        }
    }

    private static func fileSafe(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }

    /// `value` with each image path in `renames` replaced (imageRef, images[].ref, photos[]).
    private static func renaming(_ value: Value, _ renames: [String: String]) -> Value {
        guard var fields = value.objectValue else { return value }
        if let ref = fields["imageRef"]?.stringValue, let new = renames[ref] { fields["imageRef"] = .string(new) }
        if let images = fields["images"]?.arrayValue {
            fields["images"] = .array(
                images.map { image in
                    guard var members = image.objectValue, let ref = members["ref"]?.stringValue, let new = renames[ref]
                    else { return image }
                    members["ref"] = .string(new)
                    return .object(members)
                })
        }
        if let photos = fields["photos"]?.arrayValue {
            fields["photos"] = .array(
                photos.map { photo in photo.stringValue.flatMap { renames[$0] }.map(Value.string) ?? photo })
        }
        return .object(fields)
    }
}
