import Foundation

/// The content type of asset bytes, from their first bytes: PNG, JPEG, GIF, WebP and HEIC/HEIF;
/// anything else is `application/octet-stream` (CloudKit keeps no content type for an asset).
enum ContentSniffer {
    static func contentType(of data: Data) -> String {
        let head = [UInt8](data.prefix(16))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "heim", "heis", "hevc", "hevx"].contains(brand) { return "image/heic" }
            if ["mif1", "msf1"].contains(brand) { return "image/heif" }
        }
        return "application/octet-stream"
    }
}
