public import Foundation
import LarderSystem

/// Signs server-to-server requests the way CloudKit Web Services checks them, and verifies them.
///
/// The signed message is `<ISO-8601 date>:<base64(SHA-256(body))>:<URL path>`, signed with ECDSA
/// P-256 / SHA-256; the DER signature goes base64 in `X-Apple-CloudKit-Request-SignatureV1`, next to
/// `X-Apple-CloudKit-Request-KeyID` and `X-Apple-CloudKit-Request-ISO8601Date`.
///
/// ```swift
/// let signer = try RequestSigner(keyID: keyID, privateKeyPEM: pem)
/// for (name, value) in try signer.headers(body: body, path: "/database/1/iCloud.x/development/public/records/query") {
///     request.setValue(value, forHTTPHeaderField: name)
/// }
/// ```
public struct RequestSigner: Sendable {
    /// `X-Apple-CloudKit-Request-KeyID`.
    public static let keyIDHeader = "X-Apple-CloudKit-Request-KeyID"
    /// `X-Apple-CloudKit-Request-ISO8601Date`.
    public static let dateHeader = "X-Apple-CloudKit-Request-ISO8601Date"
    /// `X-Apple-CloudKit-Request-SignatureV1`.
    public static let signatureHeader = "X-Apple-CloudKit-Request-SignatureV1"

    /// The key ID the dashboard (or `larder emulator keys add`) gave the public key.
    public let keyID: String
    /// The private key (PKCS#8 bytes, read by the system's libcrypto).
    private let privateKey: SystemCrypto.PrivateKey

    /// Creates a signer from a PEM private key (`-----BEGIN EC PRIVATE KEY-----` or PKCS#8).
    /// - Throws: an error when the PEM is not a P-256 private key.
    public init(keyID: String, privateKeyPEM: String) throws {
        self.keyID = keyID
        privateKey = try SystemCrypto.PrivateKey(pemRepresentation: privateKeyPEM)
    }

    /// The three signature headers for a request made at `date`.
    /// - Throws: an error if signing fails.
    public func headers(body: Data, path: String, date: Date = Date()) throws -> [String: String] {
        let dateText = RequestSigner.iso8601(date)
        let message = RequestSigner.message(date: dateText, body: body, path: path)
        let signature = try privateKey.signature(for: Data(message.utf8))
        return [
            RequestSigner.keyIDHeader: keyID, RequestSigner.dateHeader: dateText,
            RequestSigner.signatureHeader: signature.base64EncodedString(),
        ]
    }

    /// The signed text: `date:base64(sha256(body)):path`.
    public static func message(date: String, body: Data, path: String) -> String {
        "\(date):\(SystemCrypto.sha256(body).base64EncodedString()):\(path)"
    }

    /// Whether `signature` (base64 DER, or raw r‖s) is a valid signature by `publicKeyPEM` over the
    /// message.
    ///
    /// For an empty body the empty hash some clients send is accepted too.
    public static func isValidSignature(
        _ signature: String, publicKeyPEM: String, date: String, body: Data, path: String
    ) -> Bool {
        guard let bytes = Data(base64Encoded: signature), let raw = SystemCrypto.rawSignature(bytes) else {
            return false
        }
        var messages = [message(date: date, body: body, path: path)]
        if body.isEmpty { messages.append("\(date)::\(path)") }
        return SystemCrypto.isValidSignature(
            raw: raw, publicKeyPEM: publicKeyPEM, messages: messages.map { Data($0.utf8) })
    }

    /// The signature in one canonical form (raw r‖s with the low s of the pair (s, n − s)), so that
    /// re-encodings and the malleated twin of a signature compare equal; nil when it does not parse.
    package static func canonicalSignature(_ signature: String) -> Data? {
        guard let bytes = Data(base64Encoded: signature) else { return nil }
        guard let raw = SystemCrypto.rawSignature(bytes), raw.count == 64 else { return nil }
        let r = Array(raw.prefix(32))
        var s = Array(raw.suffix(32))
        // The P-256 group order n and ⌊n/2⌋, big-endian.
        let order: [UInt8] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
        ]
        let half: [UInt8] = [
            0x7F, 0xFF, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xDE, 0x73, 0x7D, 0x56, 0xD3, 0x8B, 0xCF, 0x42, 0x79, 0xDC, 0xE5, 0x61, 0x7E, 0x31, 0x92, 0xA8,
        ]
        if s.lexicographicallyPrecedes(half) == false, s != half {
            var borrow = 0
            for index in stride(from: 31, through: 0, by: -1) {
                var difference = Int(order[index]) - Int(s[index]) - borrow
                borrow = difference < 0 ? 1 : 0
                if difference < 0 { difference += 256 }
                s[index] = UInt8(difference)
            }
        }
        return Data(r + s)
    }

    /// Whether `pem` is a P-256 public key.
    public static func isPublicKey(_ pem: String) -> Bool {
        SystemCrypto.isPublicKey(pem)
    }

    /// A new P-256 key pair as PEM text: (private, public).
    public static func makeKeyPair() -> (privateKeyPEM: String, publicKeyPEM: String) {
        let key = SystemCrypto.PrivateKey()
        return (key.pemRepresentation, key.publicKeyPEM)
    }

    /// `2016-01-25T22:15:43Z`: UTC, whole seconds.
    public static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`; nil when it is not that.
    public static func parseISO8601(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 116,
            bytes[13] == 58, bytes[16] == 58,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == 90 || bytes[index] == 122 {
            guard index + 1 == bytes.count else { return nil }
        } else if bytes[index] == 43 || bytes[index] == 45 {
            guard let hours = number(index + 1, 2), bytes.count == index + 6 || bytes.count == index + 5 else {
                return nil
            }
            let minutes = bytes.count == index + 6 ? number(index + 4, 2) : number(index + 3, 2)
            guard let minutes else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 43 ? 1 : -1)
        } else {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(seconds - offset))
    }
}
