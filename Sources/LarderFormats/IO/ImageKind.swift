/// What kind of image a file holds, from its first bytes; the one place the importers, the
/// migrator and the store tell image formats apart.
public enum ImageKind {
    /// `jpg`, `png`, `gif`, `webp`, `heic`, else `bin`.
    public static func fileExtension(for head: [UInt8]) -> String {
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if head.starts(with: Array("GIF8".utf8)) { return "gif" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return "webp"
        }
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) { return "heic" }
        return "bin"
    }

    /// The MIME type for an extension `fileExtension(for:)` gives.
    public static func mimeType(forExtension ext: String) -> String {
        switch ext {
        case "jpg": "image/jpeg"
        case "png": "image/png"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "heic": "image/heic"
        default: "application/octet-stream"
        }
    }
}
