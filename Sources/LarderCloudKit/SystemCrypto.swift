internal import CLibCrypto
package import Foundation

/// SHA-256, HMAC-SHA-256 and ECDSA P-256 over the system's libcrypto (OpenSSL 3).
///
/// Larder needs one signature scheme and two digests; swift-crypto brought them with a copy of
/// BoringSSL that took longer to compile than any Larder module (DEVELOPERS.md, "Build time").
/// PEM is read as swift-crypto read it: the first line `-----BEGIN <label>-----`, the last its
/// `-----END`, 64-character base64 lines between; `EC PRIVATE KEY` (SEC1) or `PRIVATE KEY`
/// (PKCS#8) for a private key, `PUBLIC KEY` for a public one, on the P-256 curve.
package enum SystemCrypto {
    /// The error of every failed key or signature operation.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// SHA-256 of `bytes`.
    package static func sha256(_ bytes: some DataProtocol) -> Data {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        withContiguous(bytes) { pointer, count in _ = SHA256(pointer, count, &digest) }
        return Data(digest)
    }

    /// HMAC-SHA-256 of `message` under `key`.
    package static func hmacSHA256(_ message: some DataProtocol, key: Data) -> Data {
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        withContiguous(key) { keyPointer, keyCount in
            withContiguous(message) { pointer, count in
                _ = HMAC(EVP_sha256(), keyPointer, Int32(keyCount), pointer, count, &mac, &length)
            }
        }
        return Data(mac.prefix(Int(length)))
    }

    /// A P-256 private key, kept as its PKCS#8 DER bytes (so that it is `Sendable`).
    package struct PrivateKey: Sendable {
        package let der: Data

        /// A key from PEM (`EC PRIVATE KEY` or `PRIVATE KEY`).
        package init(pemRepresentation pem: String) throws {
            let (label, der) = try SystemCrypto.pemDocument(pem)
            guard label == "EC PRIVATE KEY" || label == "PRIVATE KEY" else {
                throw Failure(description: "not a private key")
            }
            let key = try SystemCrypto.parsePrivateKey(der)
            defer { EVP_PKEY_free(key) }
            self.der = try SystemCrypto.pkcs8(key)
        }

        /// A new random key (as swift-crypto's, it stops the program when libcrypto cannot make one).
        package init() {
            let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil)
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
                EVP_PKEY_generate(context, &key) == 1, let key, let der = try? SystemCrypto.pkcs8(key)
            else { preconditionFailure("libcrypto could not make a P-256 key") }
            EVP_PKEY_free(key)
            self.der = der
        }

        /// The DER ECDSA signature of SHA-256(`message`).
        package func signature(for message: Data) throws -> Data {
            let key = try SystemCrypto.parsePrivateKey(der)
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_MD_CTX_new() else { throw Failure(description: "out of memory") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
                throw Failure(description: "signing failed")
            }
            var length = 0
            var out = [UInt8](repeating: 0, count: 80)
            let status = message.withUnsafeBytes { raw in
                length = out.count
                return EVP_DigestSign(
                    context, &out, &length, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
            }
            guard status == 1 else { throw Failure(description: "signing failed") }
            return Data(out.prefix(length))
        }

        /// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
        package var pemRepresentation: String { SystemCrypto.pem("PRIVATE KEY", der) }

        /// The public key as SPKI PEM (`-----BEGIN PUBLIC KEY-----`).
        package var publicKeyPEM: String {
            // `der` was written by libcrypto from a parsed key, so it reads back.
            guard let key = try? SystemCrypto.parsePrivateKey(der) else { preconditionFailure("unreadable key") }
            defer { EVP_PKEY_free(key) }
            var out: UnsafeMutablePointer<UInt8>?
            let count = i2d_PUBKEY(key, &out)
            guard count > 0, let out else { preconditionFailure("libcrypto could not write a public key") }
            defer { CRYPTO_free(out, #fileID, #line) }
            return SystemCrypto.pem("PUBLIC KEY", Data(bytes: out, count: Int(count)))
        }
    }

    /// Whether `pem` is a P-256 public key (`PUBLIC KEY`).
    package static func isPublicKey(_ pem: String) -> Bool {
        guard let key = try? parsePublicKey(pem) else { return false }
        EVP_PKEY_free(key)
        return true
    }

    /// Whether the raw r‖s `signature` is `publicKeyPEM`'s ECDSA signature of SHA-256 of one of
    /// `messages`.
    package static func isValidSignature(raw signature: Data, publicKeyPEM: String, messages: [Data]) -> Bool {
        guard signature.count == 64, let key = try? parsePublicKey(publicKeyPEM) else { return false }
        defer { EVP_PKEY_free(key) }
        guard let sig = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(sig) }
        let bytes = [UInt8](signature)
        let r = BN_bin2bn(bytes, 32, nil)
        let s = BN_bin2bn(Array(bytes[32...]), 32, nil)
        guard ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return false
        }
        var out: UnsafeMutablePointer<UInt8>?
        let count = i2d_ECDSA_SIG(sig, &out)
        guard count > 0, let out else { return false }
        defer { CRYPTO_free(out, #fileID, #line) }
        return messages.contains { message in
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
            return message.withUnsafeBytes { raw in
                EVP_DigestVerify(context, out, Int(count), raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
            } == 1
        }
    }

    /// A signature as raw r‖s (32 bytes each): from strict DER, else from 64 raw bytes; nil when
    /// it is neither.
    package static func rawSignature(_ bytes: Data) -> Data? {
        if let raw = rawSignature(der: [UInt8](bytes)) { return raw }
        return bytes.count == 64 ? bytes : nil
    }

    private static func rawSignature(der: [UInt8]) -> Data? {
        der.withUnsafeBufferPointer { buffer -> Data? in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let sig = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            defer { ECDSA_SIG_free(sig) }
            // Strict DER: all of the input, and encoded again to the same bytes.
            guard cursor == base + buffer.count else { return nil }
            var out: UnsafeMutablePointer<UInt8>?
            let count = i2d_ECDSA_SIG(sig, &out)
            guard count > 0, let out else { return nil }
            defer { CRYPTO_free(out, #fileID, #line) }
            guard Int(count) == buffer.count, memcmp(out, base, buffer.count) == 0 else { return nil }
            var r = [UInt8](repeating: 0, count: 32)
            var s = [UInt8](repeating: 0, count: 32)
            guard BN_bn2binpad(ECDSA_SIG_get0_r(sig), &r, 32) == 32, BN_bn2binpad(ECDSA_SIG_get0_s(sig), &s, 32) == 32
            else { return nil }
            return Data(r + s)
        }
    }

    // MARK: Keys and PEM

    private static func parsePublicKey(_ pem: String) throws -> OpaquePointer {
        let (label, der) = try pemDocument(pem)
        guard label == "PUBLIC KEY" else { throw Failure(description: "not a public key") }
        return try p256Key(der, kind: "public") { d2i_PUBKEY(nil, &$0, $1) }
    }

    private static func parsePrivateKey(_ der: some Collection<UInt8>) throws -> OpaquePointer {
        try p256Key([UInt8](der), kind: "private") { d2i_AutoPrivateKey(nil, &$0, $1) }
    }

    /// The P-256 key `decode` reads from all of `der` (a key of another curve or with bytes after
    /// it is refused); the caller frees it.
    private static func p256Key(
        _ der: [UInt8], kind: String, decode: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) throws -> OpaquePointer {
        let key = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let key = decode(&cursor, buffer.count) else { return nil }
            guard cursor == base + buffer.count else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
        guard let key else { throw Failure(description: "not a \(kind) key") }
        guard isP256(key) else {
            EVP_PKEY_free(key)
            throw Failure(description: "not a P-256 key")
        }
        return key
    }

    private static func isP256(_ key: OpaquePointer) -> Bool {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return false }
        var name = [CChar](repeating: 0, count: 64)
        guard EVP_PKEY_get_group_name(key, &name, name.count, nil) == 1 else { return false }
        let group = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }

    private static func pkcs8(_ key: OpaquePointer) throws -> Data {
        guard let info = EVP_PKEY2PKCS8(key) else { throw Failure(description: "no PKCS#8 form") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        var out: UnsafeMutablePointer<UInt8>?
        let count = i2d_PKCS8_PRIV_KEY_INFO(info, &out)
        guard count > 0, let out else { throw Failure(description: "no PKCS#8 form") }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Data(bytes: out, count: Int(count))
    }

    /// swift-crypto's PEM reading: BEGIN first, its END last, 64-character lines, base64.
    private static func pemDocument(_ text: String) throws -> (label: String, der: [UInt8]) {
        var lines = text.split { $0.isNewline }[...]
        guard let first = lines.first, let last = lines.last,
            first.hasPrefix("-----BEGIN "), first.hasSuffix("-----"), first.count > 16
        else { throw Failure(description: "not PEM") }
        let label = String(first.dropFirst(11).dropLast(5))
        guard last == "-----END \(label)-----" else { throw Failure(description: "not PEM") }
        lines = lines.dropFirst().dropLast()
        guard let body = lines.last, lines.dropLast().allSatisfy({ $0.utf8.count == 64 }), body.utf8.count <= 64,
            let der = Data(base64Encoded: lines.joined())
        else { throw Failure(description: "not PEM") }
        return (label, [UInt8](der))
    }

    private static func pem(_ label: String, _ der: Data) -> String {
        let encoded = der.base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let next = encoded.index(index, offsetBy: 64, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[index..<next]))
            index = next
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n")
    }

    private static func withContiguous<R>(
        _ bytes: some DataProtocol, _ body: (UnsafePointer<UInt8>?, Int) -> R
    ) -> R {
        let array = [UInt8](bytes)
        return array.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
    }
}
