import Foundation
import LarderCloudKit
import LarderCore
import LarderFormats
import LarderSystem

/// Writes the images of downloaded records into a folder Larder owns, under names Larder makes.
///
/// What a record (or the server) says is never a file name: asset *i* goes to
/// `images/<name>` under ``folder``, where `<name>` is the last component of the record's *i*th
/// local image path (``ImageFiles/paths(in:)``) made one safe component (no leading dot, no
/// separator, at most 90 bytes before the extension: ``ContainedFile/safeComponent(_:maxLength:)``), or
/// `<record name>-<i>` when the record names no path. A file is created new (`O_EXCL | O_NOFOLLOW`):
/// nothing already there is written through or replaced, whoever wrote it. A name taken by other
/// bytes gets `-2`, `-3`, …; one holding the same bytes is used as it is. The record is pointed at
/// the path used whenever it differs from the one it named, so `.bashrc`, `.ssh/authorized_keys`,
/// `../x` or the store's own file name never reach the disk as names.
struct ImageDownload {
    let client: CloudKitClient
    /// The output's (or the store's) folder; images go into its `images` folder.
    let folder: String
    let retry: RetryPolicy
    let clock: LarderClock

    /// The folder images land in, relative to ``folder`` (and as records name it).
    static let landing = "images"

    /// The record with its image paths pointing at the files written, after writing its images.
    /// - Returns: The value to keep, and how many files were written.
    /// - Throws: ``UploadStopped`` when a download fails; ``LarderError`` `io-error` when a file cannot be written.
    func save(_ value: Value, recordName: String, assets field: RecordField) async throws -> (Value, Int) {
        let assets = (field.value.arrayValue ?? [field.value]).compactMap { try? Asset(value: $0) }
        let paths = ImageFiles.paths(in: value)
        var renames: [String: String] = [:]
        var written = 0
        var directory: String?
        for (index, asset) in assets.enumerated() {
            guard let url = asset.downloadURL else { continue }
            let named = index < paths.count ? paths[index] : nil
            let (stem, declaredExtension) = Self.nameParts(named, recordName: recordName, index: index)
            let landing = try directory ?? Self.prepareLanding(in: folder)
            directory = landing
            let name: String
            if let existing = Self.existingCopy(in: landing, stem: stem, fileExtension: declaredExtension, of: asset) {
                name = existing
            } else {
                let client = self.client
                let label = named ?? "\(Self.landing)/\(stem)"
                let data = try await retry.perform("image \(label) of \(recordName)", clock: clock) {
                    () async throws(CloudKitFailure) in try await client.downloadAsset(url, expectedSize: asset.size)
                }
                if let size = asset.size, Int64(data.count) != size {
                    throw LarderError(.network, "image \(label) of \(recordName): got \(data.count) bytes of \(size)")
                }
                let bytes = [UInt8](data)
                let ext = declaredExtension ?? ImageKind.fileExtension(for: Array(bytes.prefix(16)))
                if let existing = ContainedFile.existingCopy(in: landing, stem: stem, fileExtensions: [ext], of: bytes)
                {
                    name = existing
                } else {
                    name = try ContainedFile.createNew(in: landing, stem: stem, fileExtension: ext, bytes: bytes)
                    written += 1
                }
            }
            let reference = Self.landing + "/" + name
            if let named, named != reference { renames[named] = reference }
        }
        return (renames.isEmpty ? value : Self.renaming(value, renames), written)
    }

    /// The stem and extension of the file for a record's path: its last component made safe, split
    /// at its last dot (an extension of 1-10 letters and digits); `<record name>-<i>` without a path.
    static func nameParts(_ path: String?, recordName: String, index: Int) -> (stem: String, fileExtension: String?) {
        guard let path, let last = path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last else {
            let record = ContainedFile.safeComponent(recordName, maxLength: 90)
            return (ContainedFile.safeComponent("\(record)-\(index + 1)"), nil)
        }
        var stem = Substring(last)
        var fileExtension: String?
        if let dot = last.lastIndex(of: "."), dot > last.startIndex {
            let ext = last[last.index(after: dot)...]
            if (1...10).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                stem = last[..<dot]
                fileExtension = ext.lowercased()
            }
        }
        return (ContainedFile.safeComponent(String(stem), maxLength: 90), fileExtension)
    }

    /// `<folder>/images`, created when missing; refused when it is a symlink or not a folder.
    static func prepareLanding(in folder: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent(landing)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw LarderError(
                    .io,
                    "refusing to write images: \(path) is not a folder (a symlink or a file is never written through)",
                    location: SourceLocation(file: path))
            }
            return path
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LarderError(.io, "cannot create the images folder \(path): \(error.localizedDescription)")
        }
        return path
    }

    /// The extensions ``ImageKind/fileExtension(for:)`` gives, for a name whose extension comes from its bytes.
    static let knownExtensions = ["jpg", "png", "gif", "webp", "heic", "bin"]

    /// The name of a regular file `stem.ext`, `stem-2.ext`, … in `directory` holding the asset's
    /// declared bytes (size and SHA-256), looking no further than the first free name.
    static func existingCopy(in directory: String, stem: String, fileExtension: String?, of asset: Asset) -> String? {
        guard let checksum = asset.fileChecksum else { return nil }
        return ContainedFile.existingCopy(
            in: directory, stem: stem, fileExtensions: fileExtension.map { [$0] } ?? knownExtensions
        ) { bytes in
            (asset.size.map { Int64(bytes.count) == $0 } ?? true) && AssetDigest.fileChecksum(bytes) == checksum
        }
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
