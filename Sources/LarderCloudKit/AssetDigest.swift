package import Foundation

/// The digests assets use.
///
/// SHA-256 for content addresses and checksums, HMAC-SHA-256 for the emulator's signed download
/// URLs: one place, so the emulator and the uploader agree.
package enum AssetDigest {
    /// The SHA-256 of `bytes`.
    package static func sha256(_ bytes: some DataProtocol) -> Data { SystemCrypto.sha256(bytes) }

    /// The lowercase hex SHA-256 of `bytes` (the content address).
    package static func sha256Hex(_ bytes: some DataProtocol) -> String { hex(sha256(bytes)) }

    /// The `fileChecksum` CloudKit-style: base64 of the SHA-256.
    package static func fileChecksum(_ bytes: some DataProtocol) -> String { sha256(bytes).base64EncodedString() }

    /// The hex content address behind a base64 `fileChecksum`, or nil when it is not one.
    package static func hex(fileChecksum: String) -> String? {
        guard let data = Data(base64Encoded: fileChecksum), data.count == 32 else { return nil }
        return hex(data)
    }

    /// The base64 `fileChecksum` of a hex content address, or nil when it is not one.
    package static func fileChecksum(hex text: String) -> String? {
        guard text.utf8.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return Data(bytes).base64EncodedString()
    }

    /// The HMAC-SHA-256 of `message` under `key`.
    package static func hmac(_ message: some DataProtocol, key: Data) -> Data {
        SystemCrypto.hmacSHA256(message, key: key)
    }

    /// Lowercase hex.
    package static func hex(_ data: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in data {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
