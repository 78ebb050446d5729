/// Identifiers derived from content, so that importing the same thing twice gives the same id.
public enum StableID {
    /// A UUID-formatted id (version 8, RFC 9562 "custom") from the SHA-256 of `parts`, each
    /// part separated by a NUL byte so that `["ab", "c"]` and `["a", "bc"]` differ.
    ///
    /// ```swift
    /// StableID.uuid(["paprika", "8D2D8DB4-…", "Pancakes"])  // "3f0c…-…"
    /// ```
    public static func uuid(_ parts: [String]) -> String {
        var hasher = SHA256()
        hasher.update(Array("larder-stable-id-v1".utf8))
        for part in parts {
            hasher.update([0])
            hasher.update(Array(part.utf8))
        }
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        let hex = bytes.hexString.uppercased()
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-" + String(h[16..<20]) + "-"
            + String(h[20..<32])
    }
}
