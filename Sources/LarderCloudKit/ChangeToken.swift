import Foundation

/// An opaque sync token: which feed, which generation of it, and how far the holder has read.
///
/// On the wire it is base64url text with a checksum, so a garbled token is told apart from an
/// expired one: ``decode(_:)`` returns nil for anything this server did not make. Clients must
/// treat tokens as opaque; the emulator and its tests read them through this type.
package struct ChangeToken: Sendable, Hashable {
    /// What the token pages through.
    package enum Kind: String, Sendable {
        /// One zone's records (`changes/zone`, `records/changes`).
        case zone = "Z"
        /// A database's zones (`changes/database`, `zones/changes`).
        case database = "D"
    }

    package var kind: Kind
    /// The zone's store ID, or a database scope hash.
    package var scope: Int64
    /// The feed's generation: a token from another generation is expired.
    package var epoch: Int64
    /// The last change sequence number the holder has seen.
    package var sequence: Int64

    package init(kind: Kind, scope: Int64, epoch: Int64, sequence: Int64) {
        self.kind = kind
        self.scope = scope
        self.epoch = epoch
        self.sequence = sequence
    }

    /// The wire text.
    package var encoded: String {
        let body = "\(kind.rawValue).\(scope).\(epoch).\(sequence)"
        let text = body + "." + String(ChangeToken.checksum(body), radix: 36)
        return Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Parses a token; nil when it is not one this server made (garbled, truncated, foreign).
    package static func decode(_ text: String) -> ChangeToken? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard text.count < 200, let data = Data(base64Encoded: base64) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, let kind = Kind(rawValue: String(parts[0])),
            let scope = Int64(parts[1]), let epoch = Int64(parts[2]), let sequence = Int64(parts[3]), sequence >= 0
        else { return nil }
        let body = parts[0...3].joined(separator: ".")
        guard String(checksum(body), radix: 36) == parts[4] else { return nil }
        return ChangeToken(kind: kind, scope: scope, epoch: epoch, sequence: sequence)
    }

    /// FNV-1a, 32 bits: enough to tell typos and truncation from real tokens.
    private static func checksum(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }
}
