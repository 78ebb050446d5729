public import Foundation
import LarderCloudKit
public import LarderCore

/// The local image files a Larder record refers to, and where they travel as CloudKit assets.
///
/// A recipe's `imageRef` and `images[].ref`, and a brew's `photos`, that are relative paths (not
/// URLs) name files beside the record file. In CloudKit they travel in one `ASSETID_LIST` field,
/// ``field``, one asset per distinct path in that order (the order ``paths(in:)`` gives), while the
/// string members keep their paths; downloading writes asset *i* to path *i* under the output's folder.
public enum ImageFiles {
    /// The CloudKit field carrying the image bytes.
    public static let field = RecordMapping.imagesField

    /// The distinct local image paths of `record`, in order: `imageRef`, `images[].ref`, `photos[]`.
    public static func paths(in record: Value) -> [String] {
        var candidates: [String] = []
        if let ref = record["imageRef"]?.stringValue { candidates.append(ref) }
        for image in record["images"]?.arrayValue ?? [] {
            if let ref = image["ref"]?.stringValue { candidates.append(ref) }
        }
        for photo in record["photos"]?.arrayValue ?? [] {
            if let ref = photo.stringValue { candidates.append(ref) }
        }
        var seen = Set<String>()
        return candidates.filter { isLocal($0) && seen.insert($0).inserted }
    }

    /// Whether `ref` names a local file (not a URL, not empty).
    public static func isLocal(_ ref: String) -> Bool {
        !ref.isEmpty && !ref.contains("://") && !ref.hasPrefix("data:")
    }

    /// Whether `path` may be written under an output folder: relative, no `..`, `.` or empty part.
    public static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.hasPrefix("/"), !path.contains("\\") else { return false }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// The first existing file for `path` under `folders` (or `path` itself when absolute).
    public static func locate(_ path: String, in folders: [String]) -> URL? {
        if path.hasPrefix("/") {
            return FileManager.default.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        for folder in folders {
            let url = URL(fileURLWithPath: folder).appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }
}
